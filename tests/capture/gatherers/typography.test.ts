// The typography gatherer in real Chromium: families, sizes and weights by characters, heading
// styles per level and the body text style.
import { describe, expect, test } from "bun:test";
import { gather, html, useHarness } from "./harness";

const para = "Body copy set in a serif face at eighteen pixels with a generous line height. ".repeat(4);
const h = useHarness({
  "/": html(
    `<h1>Large sans headline</h1>
<h2 style="line-height:normal">Second level</h2>
<p>${para}</p><p>${para}</p>
<a href="/x" style="font-weight:700">Bold link</a>`,
    `<style>body{margin:0;font-family:Georgia,serif;font-size:18px;line-height:27px}
h1{font-family:"Helvetica Neue",Arial,sans-serif;font-size:40px;font-weight:800;line-height:48px}
h2{font-family:Arial;font-size:28px;font-weight:600}</style>`,
  ),
});

describe("typography gatherer", () => {
  test("families and sizes are shared out by characters, most used first", async () => {
    const t = await gather(await h.shared("/"), "typography");
    expect(t.families[0]!.family).toBe("Georgia");
    expect(t.families.map((f) => f.family)).toEqual(["Georgia", "Helvetica Neue", "Arial"]);
    expect(t.families[0]!.share).toBeGreaterThan(0.9);
    expect(t.families.reduce((a, f) => a + f.share, 0)).toBeCloseTo(1, 3);
    // Sizes largest first.
    expect(t.sizeScale.map((s) => s.px)).toEqual([40, 28, 18]);
    expect(t.weights[0]!.weight).toBe(400);
    expect(t.weights.map((w) => w.weight).sort()).toEqual([400, 600, 700, 800]);
  });

  test("each heading level gets its style; a 'normal' line height is measured from the line boxes", async () => {
    const t = await gather(await h.shared("/"), "typography");
    expect(t.headings[0]).toEqual({ level: 1, family: "Helvetica Neue", sizePx: 40, weight: 800, lineHeightPx: 48 });
    const h2 = t.headings[1]!;
    expect(h2).toMatchObject({ level: 2, family: "Arial", sizePx: 28, weight: 600 });
    expect(h2.lineHeightPx).toBeGreaterThan(28);
    expect(h2.lineHeightPx).toBeLessThan(40);
  });

  test("the body style is the paragraph style, not the link's or the headings'", async () => {
    const t = await gather(await h.shared("/"), "typography");
    expect(t.body).toEqual({ family: "Georgia", sizePx: 18, weight: 400, lineHeightPx: 27 });
  });
});
