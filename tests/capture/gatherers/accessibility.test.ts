// The accessibility gatherer in real Chromium: axe-core's audit of a page with known violations
// (rule ids, counts, WCAG level, selectors), the counts budgets read derived from it, the body
// text's contrast, and the contrast axe cannot decide left to the pixels (never both).
import { describe, expect, test } from "bun:test";
import { contrastRatio } from "#server/lib/image/color";
import { auditPage } from "#server/modules/capture/page-script/axe";
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
<script>window.axe = "the page's own"; window.define = function () { throw new Error("the page's AMD loader was used"); }; window.define.amd = {};</script>`,
    "<style>body{margin:0;font-family:sans-serif;font-size:16px;color:#111111;background:#ffffff}</style>",
  ),
  "/bg.svg": {
    body: `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#777"/></svg>`,
    type: "image/svg+xml",
  },
});

async function audited() {
  const page = await h.shared("/");
  expect(await auditPage(page)).toBe("done");
  return { page, a: await gather(page, "accessibility") };
}

describe("accessibility gatherer (axe-core)", () => {
  test("finds the known violations by axe rule id, with counts, WCAG level and a selector of an example", async () => {
    const { a } = await audited();
    const audit = a.audit!;
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

  test("the counts budgets read come from axe's results", async () => {
    const { a } = await audited();
    expect(a.imagesWithoutAlt).toBe(1);
    expect(a.inputsWithoutLabel).toBe(1);
  });

  test("the page's own window.axe and AMD loader are left alone", async () => {
    const { page } = await audited();
    expect(await page.evaluate(() => (window as unknown as { axe: unknown }).axe)).toBe("the page's own");
  });

  test("the body text's contrast", async () => {
    const { a } = await audited();
    expect(a.bodyContrast).toBeCloseTo(contrastRatio("#111111", "#ffffff"), 2);
  });

  test("the pixels are asked only about the text axe could not decide: not the grey text axe reported", async () => {
    const { page } = await audited();
    const probes = await gather(page, "contrastProbes");
    expect(probes.map((p) => p.text)).toEqual(["Text over an image is not judged from CSS"]);
  });

  test("a page axe has not audited reports why, and its probes are chosen as without axe", async () => {
    const page = await h.open("/");
    const a = await gather(page, "accessibility");
    expect(a.audit!.error).toBe("axe-core was not run on this page");
    expect(a.audit!.violations).toEqual([]);
    const probes = (await gather(page, "contrastProbes")).map((p) => p.text);
    expect(probes).toContain("Light grey small text");
    await page.context().close();
  });
});
