// The accessibility gatherer in real Chromium: WCAG contrast against backgrounds CSS can tell,
// images without a text alternative and inputs without a label.
import { describe, expect, test } from "bun:test";
import { contrastRatio } from "#server/lib/image/color";
import { gather, html, useHarness } from "./harness";

const h = useHarness({
  "/": html(
    `<p id="body">${"Readable body text in near-black on white. ".repeat(5)}</p>
<p style="color:#999999">Light grey small text</p>
<p style="color:#888888;font-size:24px">Large grey text passes at 3:1</p>
<div style="background:#1f2937 url('/bg.svg');color:#374151"><p>Text over an image is not judged from CSS</p></div>
<div style="background:#0f172a"><p style="color:#475569">Dark slate on navy</p></div>
<img src="/bg.svg" width="40" height="40">
<img src="/bg.svg" width="40" height="40" alt="">
<img src="/bg.svg" width="40" height="40" aria-hidden="true">
<img src="/bg.svg" width="40" height="40" role="presentation">
<img src="/bg.svg" width="40" height="40" title="Named by its title">
<form>
  <input placeholder="A placeholder is not a label">
  <label for="email">Email</label><input id="email">
  <input aria-label="Search">
  <span id="lbl">Phone</span><input aria-labelledby="lbl">
  <input type="hidden"><input type="submit" value="Go">
</form>`,
    "<style>body{margin:0;font-family:sans-serif;font-size:16px;color:#111111;background:#ffffff}</style>",
  ),
  "/bg.svg": {
    body: `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#777"/></svg>`,
    type: "image/svg+xml",
  },
});

describe("accessibility gatherer", () => {
  test("lists text below AA against a known background, worst first, with the server's contrast figures", async () => {
    const a = await gather(await h.shared("/"), "accessibility");
    expect(a.lowContrast.map((c) => c.text)).toEqual(["Dark slate on navy", "Light grey small text"]);
    const grey = a.lowContrast.find((c) => c.text === "Light grey small text")!;
    expect(grey).toMatchObject({ fg: "#999999", bg: "#ffffff", required: 4.5 });
    expect(grey.ratio).toBeCloseTo(contrastRatio("#999999", "#ffffff"), 2);
    const slate = a.lowContrast[0]!;
    expect(slate).toMatchObject({ fg: "#475569", bg: "#0f172a" });
    expect(slate.ratio).toBeCloseTo(contrastRatio("#475569", "#0f172a"), 2);
  });

  test("the body text's contrast", async () => {
    const a = await gather(await h.shared("/"), "accessibility");
    expect(a.bodyContrast).toBeCloseTo(contrastRatio("#111111", "#ffffff"), 2);
  });

  test("images without any text alternative, and controls without a label", async () => {
    const a = await gather(await h.shared("/"), "accessibility");
    expect(a.imagesWithoutAlt).toBe(1);
    expect(a.inputsWithoutLabel).toBe(1);
  });
});
