// The copy gatherer in real Chromium: visible text only, the headline, word count and reading ease.
import { describe, expect, test } from "bun:test";
import { gather, html, useHarness } from "./harness";

const easy = "The cat sat on the mat. It was a big cat. ".repeat(6);
const hard =
  "Organisational interoperability necessitates comprehensive institutional documentation, notwithstanding considerable administrative complexity and unprecedented regulatory fragmentation. ".repeat(
    3,
  );

const h = useHarness({
  "/easy": html(
    `<h1>Simple words for everyone</h1><p>${easy}</p>
<p style="display:none">Hidden words never count</p><p style="visibility:hidden">Invisible words never count</p>
<script>var notText = "script source is not copy";</script>`,
  ),
  "/hard": html(`<h1>Dense prose</h1><p>${hard}</p>`),
  // No heading at all: the biggest text above the fold is the headline.
  "/no-h1": html(`<p style="font-size:14px">Small print first</p><div style="font-size:48px">The real message</div><p>More text.</p>`),
  // The hero line is a div; the first heading in the source is a section label further down.
  "/div-hero": html(
    `<nav style="font-size:22px;font-weight:700"><a href="/">Acme Studio</a> <a href="/work">Work</a></nav>
<div id="cookie-banner" style="font-size:30px;font-weight:700">We use cookies</div>
<section style="padding:40px 0"><div style="font-size:72px;font-weight:800">98%</div><div class="hero-title" style="font-size:56px;font-weight:700">We build <em>calm</em> websites for small firms</div>
<p style="font-size:20px">Design, build and care, in one team.</p></section>
<section><h2 style="font-size:28px;letter-spacing:2px">SERVICES</h2><p>What we do.</p></section>`,
  ),
  // A page whose h1 is its biggest line keeps it, against a bold kicker above it.
  "/normal-h1": html(
    `<header><a href="/" style="font-size:24px;font-weight:800">Brand</a></header>
<p style="font-size:14px;font-weight:700;text-transform:uppercase">New this spring</p>
<h1 style="font-size:44px">Plan your garden in an afternoon</h1><h2 style="font-size:30px">Features</h2>`,
  ),
  // Two lines of the same size and weight: the first in the source wins.
  "/tie": html(`<div style="font-size:40px;margin-top:0">First big line</div><div style="font-size:40px">Second big line</div>`),
});

describe("copy gatherer", () => {
  test("visible text in reading order, without hidden text or scripts", async () => {
    const c = await gather(await h.shared("/easy"), "copy");
    expect(c.headline).toBe("Simple words for everyone");
    expect(c.visibleText.startsWith("Simple words for everyone\nThe cat sat on the mat.")).toBe(true);
    expect(c.visibleText).not.toContain("Hidden");
    expect(c.visibleText).not.toContain("Invisible");
    expect(c.visibleText).not.toContain("script source");
    expect(c.wordCount).toBe(4 + 11 * 6);
  });

  test("reading ease tells plain words from dense ones", async () => {
    const easyCopy = await gather(await h.shared("/easy"), "copy");
    const hardCopy = await gather(await h.shared("/hard"), "copy");
    expect(easyCopy.readability).toBeGreaterThan(90);
    expect(hardCopy.readability).toBeLessThan(20);
  });

  test("the headline is the hero line a visitor reads first, not the first heading in the source", async () => {
    const c = await gather(await h.shared("/div-hero"), "copy");
    expect(c.headline).toBe("We build calm websites for small firms");
  });

  test("a page whose h1 is its most prominent line keeps its h1", async () => {
    const c = await gather(await h.shared("/normal-h1"), "copy");
    expect(c.headline).toBe("Plan your garden in an afternoon");
  });

  test("equally prominent lines go to the first in the source", async () => {
    const c = await gather(await h.shared("/tie"), "copy");
    expect(c.headline).toBe("First big line");
  });

  test("without a heading, the headline is the biggest text above the fold", async () => {
    const c = await gather(await h.shared("/no-h1"), "copy");
    expect(c.headline).toBe("The real message");
  });
});
