// The accessibility gatherer in real Chromium: axe-core's audit of a page with known violations
// (rule ids, counts, WCAG level, selectors), the counts budgets read derived from it, the body
// text's contrast, and the contrast axe cannot decide left to the pixels (never both).
import { describe, expect, test } from "bun:test";
import { contrastRatio } from "#server/lib/image/color";
import type { Page } from "playwright-core";
import { failing, IMAGE_ALT_RULES, LABEL_RULES } from "#server/modules/capture/gatherers/axe-results";
import { auditPage } from "#server/modules/capture/page-script/axe";
import { callPage } from "#server/modules/capture/page-script/page-script";
import { gather, html, useHarness } from "./harness";

const h = useHarness({
  "/": html(
    `<main><h1>Fixture</h1>
<p id="body">${"Readable body text in near-black on white. ".repeat(5)}</p>
<p id="grey" style="color:#999999">Light grey small text</p>
<p style="color:#888888;font-size:24px">Large grey text passes at 3:1</p>
<div id="photo" style="background:#1f2937 url('/bg.svg');color:#374151"><p>Text over an image is not judged from CSS</p></div>
<img id="noalt" src="/bg.svg" width="40" height="40">
<img src="/bg.svg" width="40" height="40" alt="">
<img src="/bg.svg" width="40" height="40" alt="A grey square">
<form>
  <input id="nolabel" type="text">
  <label for="email">Email</label><input id="email">
  <input aria-label="Search">
</form>
<button id="empty-button"></button>
<a id="empty-link" href="/elsewhere"></a>
</main>
<p id="outside" tabindex="2">Outside every landmark, first in tab order</p>
<script>window.axe = "the page's own"; window.define = function () { throw new Error("the page's AMD loader was used"); }; window.define.amd = {};</script>`,
    "<style>body{margin:0;font-family:sans-serif;font-size:16px;color:#111111;background:#ffffff}</style>",
  ),
  // A page that refuses scripts from other origins (and string script URLs): axe comes in another way.
  "/csp": html(
    `<main><h1>Strict</h1><img src="/bg.svg" width="40" height="40"></main>`,
    `<meta http-equiv="Content-Security-Policy" content="script-src 'self'; require-trusted-types-for 'script'">`,
  ),
  "/bg.svg": {
    body: `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#777"/></svg>`,
    type: "image/svg+xml",
  },
});

const measure = (page: Page, audited: boolean) =>
  callPage(page, "measure", { maxY: 8000, viewportWidth: 1440, viewportHeight: 900, audited });

/** The page measured as a desktop capture measures it, then audited, as the capture does after its look. */
async function audited() {
  const page = await h.shared("/");
  const dom = await measure(page, true);
  const outcome = await auditPage(page);
  return { page, dom, outcome, audit: outcome.audit };
}

describe("accessibility gatherer (axe-core)", () => {
  test("finds the known violations by axe rule id, with counts, WCAG level and a selector of an example", async () => {
    const { audit } = await audited();
    expect(audit.error).toBeUndefined();
    expect(audit.engine).toMatch(/^axe-core \d+\.\d+\.\d+$/);
    const byId = new Map(audit.violations.map((r) => [r.id, r]));
    expect([...byId.keys()]).toEqual(expect.arrayContaining(["image-alt", "label", "button-name", "link-name", "color-contrast"]));
    const alt = byId.get("image-alt")!;
    expect(alt).toMatchObject({ count: 1, level: "A", criteria: ["1.1.1"], impact: "critical" });
    expect(alt.examples[0]!.selector).toBe("#noalt");
    expect(alt.examples[0]!.html).toStartWith('<img id="noalt"');
    expect(byId.get("label")).toMatchObject({ count: 1, level: "A" });
    expect(byId.get("label")!.examples[0]!.selector).toBe("#nolabel");
    expect(byId.get("button-name")!.examples[0]!.selector).toBe("#empty-button");
    expect(byId.get("link-name")!.examples[0]!.selector).toBe("#empty-link");
    const contrast = byId.get("color-contrast")!;
    expect(contrast).toMatchObject({ count: 1, level: "AA", criteria: ["1.4.3"] });
    expect(contrast.examples[0]).toMatchObject({ selector: "#grey", contrast: { fg: "#999999", bg: "#ffffff", required: 4.5 } });
    expect(contrast.examples[0]!.contrast!.ratio).toBeCloseTo(contrastRatio("#999999", "#ffffff"), 1);
    // Text over a background image is what axe cannot decide.
    expect(audit.incomplete).toContainEqual({ id: "color-contrast", count: 1 });
  });

  test("audits WCAG A and AA and the best practices for headings and landmarks, not every best practice", async () => {
    const { audit } = await audited();
    const ids = audit.violations.map((r) => r.id);
    // The paragraph after <main> is outside every landmark (region, kept) and has a positive
    // tabindex (tabindex, a best practice left out).
    expect(ids).toContain("region");
    expect(ids).not.toContain("tabindex");
  });

  test("the counts budgets read come from axe's results", async () => {
    const { audit } = await audited();
    expect(failing(audit, IMAGE_ALT_RULES)).toBe(1);
    expect(failing(audit, LABEL_RULES)).toBe(1);
  });

  test("the page's own window.axe and AMD loader are left alone", async () => {
    const { page } = await audited();
    expect(await page.evaluate(() => (window as unknown as { axe: unknown }).axe)).toBe("the page's own");
  });

  test("a page whose CSP refuses other origins' scripts is audited all the same", async () => {
    const page = await h.shared("/csp");
    const { audit } = await auditPage(page);
    expect(audit.error).toBeUndefined();
    expect(audit.violations.find((r) => r.id === "image-alt")?.count).toBe(1);
  });

  test("the body text's contrast", async () => {
    const { page } = await audited();
    const a = await gather(page, "accessibility");
    expect(a.bodyContrast).toBeCloseTo(contrastRatio("#111111", "#ffffff"), 2);
  });

  test("of the text the pixels were asked about, the audit leaves them only what axe could not decide: not the grey text axe reported", async () => {
    const { dom, outcome } = await audited();
    const texts = dom.contrastProbes.map((p) => p.text);
    expect(texts).toContain("Light grey small text");
    expect(outcome.undecidedProbes!.map((i) => texts[i])).toEqual(["Text over an image is not judged from CSS"]);
  });

  test("on a page axe will audit, the probes start with what CSS cannot judge; otherwise with the worst CSS failure", async () => {
    const page = await h.open("/");
    expect((await measure(page, true)).contrastProbes[0]!.text).toBe("Text over an image is not judged from CSS");
    expect((await measure(page, false)).contrastProbes[0]!.text).toBe("Light grey small text");
    await page.context().close();
  });

  test("a document audited before it was measured leaves every probe to the pixels", async () => {
    const page = await h.open("/");
    const outcome = await auditPage(page);
    expect(outcome.audit.error).toBeUndefined();
    expect(outcome.undecidedProbes).toBeNull();
    await page.context().close();
  });

  test("an audit that outlasts its limit reports why, not a failed capture", async () => {
    const page = await h.open("/");
    const outcome = await auditPage(page, 1);
    expect(outcome.audit.error).toBe("axe-core did not finish in time");
    expect(outcome.audit.violations).toEqual([]);
    await page.context().close();
  });
});
