// The elements gatherer in real Chromium: calls to action, links, forms, inputs, images and
// headings, with what shows above the fold.
import { describe, expect, test } from "bun:test";
import { gather, html, useHarness } from "./harness";

const h = useHarness({
  "/": html(
    `<h1>Welcome</h1>
<button class="cta">Start free trial</button>
<button aria-label="Open menu" class="icon">☰</button>
<a href="/plain">A plain link</a>
<img src="/img.svg" width="120" height="80" alt="Picture">
<img src="/img.svg" width="8" height="8" alt="Too small to count">
<svg width="64" height="64"><svg width="32" height="32"></svg></svg>
<form><label>Email <input type="email"></label><input type="hidden" name="t"><textarea aria-label="Note"></textarea><input type="submit" value="Send"></form>
<div style="height:1500px"></div>
<h2>Pricing</h2>
<a href="/demo" class="button">Book a demo</a>
<div style="display:none"><button>Hidden</button><a href="/gone">gone</a></div>`,
    `<style>body{margin:0;font-family:sans-serif}.cta{background:#2563eb;color:#fff;border:0;padding:12px 20px;border-radius:8px}
.button{display:inline-block;background:#111827;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none}</style>`,
  ),
  "/img.svg": {
    body: `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#888"/></svg>`,
    type: "image/svg+xml",
  },
});

describe("elements gatherer", () => {
  test("calls to action: buttons and links styled as buttons, with labels, colours and fold", async () => {
    const e = await gather(await h.shared("/"), "elements");
    expect(e.ctas.map((c) => c.text)).toEqual(["Start free trial", "Send", "Book a demo"]);
    const [trial, , demo] = e.ctas;
    expect(trial).toMatchObject({ aboveFold: true, href: null, bg: "#2563eb", fg: "#ffffff" });
    expect(demo).toMatchObject({ aboveFold: false, bg: "#111827", fg: "#ffffff" });
    expect(demo!.href).toBe(h.url("/demo"));
    expect(demo!.box.y).toBeGreaterThan(1500);
  });

  test("links, forms, inputs and images that are visible", async () => {
    const e = await gather(await h.shared("/"), "elements");
    expect(e.links).toBe(2);
    expect(e.linksAboveFold).toBe(1);
    expect(e.forms).toHaveLength(1);
    expect(e.forms[0]).toMatchObject({ inputs: 2, aboveFold: true });
    expect(e.inputs).toBe(2);
    // The 120x80 image and the outer svg; the 8px image and the nested svg do not count.
    expect(e.images).toBe(2);
    expect(e.imagesAboveFold).toBe(2);
  });

  test("headings in order with their level and fold", async () => {
    const e = await gather(await h.shared("/"), "elements");
    expect(e.headings.map(({ level, text, aboveFold }) => ({ level, text, aboveFold }))).toEqual([
      { level: 1, text: "Welcome", aboveFold: true },
      { level: 2, text: "Pricing", aboveFold: false },
    ]);
  });
});
