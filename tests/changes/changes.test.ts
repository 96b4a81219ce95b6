// Change detection by design meaning on hand-built capture pairs: one test per kind, with the
// before/after values asserted, plus the noise rules (unchanged → nothing; volatile parts ignored).
import { describe, expect, test } from "bun:test";
import { PNG } from "pngjs";
import { detectChanges, filterChanges } from "#server/modules/changes/detect/detect";
import { robustSpread, timingChanges, type TimingSample } from "#server/modules/changes/detect/timing";
import { visualChange, visualDiff } from "#server/modules/changes/detect/visual";
import { mergeVolatility } from "#server/modules/capture/public";
import type { Change } from "#server/modules/changes/model";
import { clone, landing } from "./extractions";

const only = (changes: Change[], kind: Change["kind"]) => changes.filter((c) => c.kind === kind);
const brief = (c: Change) => ({ kind: c.kind, severity: c.severity, summary: c.summary, before: c.before, after: c.after });

describe("no change means no change", () => {
  test("an identical capture reports nothing", () => {
    expect(detectChanges({ before: landing(), after: landing() })).toEqual([]);
  });

  test("rendering noise is not a change: box jitter, sub-JND colours, 1 px font rounding, share drift, whitespace", () => {
    const after = clone(landing());
    after.elements.ctas[0]!.box.x += 3; // sub-pixel layout differences
    after.elements.ctas[0]!.bg = "#2564ea"; // ΔE < 1
    after.palette.buttons = [
      { hex: "#2564eb", share: 0.75 },
      { hex: "#111827", share: 0.25 },
    ];
    after.palette.dominant = [
      { hex: "#ffffff", share: 0.6 },
      { hex: "#3b82f6", share: 0.2 },
    ]; // pixels moved by imagery: not used
    after.typography.headings[0]!.sizePx = 48.6;
    after.layout.regions[3]!.box.height = 530; // a line more text in a section
    after.copy.visibleText = after.copy.visibleText.replace("Preview every", "Preview  every");
    after.timing = { ...after.timing, lcpMs: 4000 }; // no history: no noise estimate, no timing claim
    expect(detectChanges({ before: landing(), after })).toEqual([]);
  });

  test("regions that start on the same line, listed in another order (a fixed sidebar beside the hero), are the same layout", () => {
    const before = clone(landing());
    before.layout.regions = [
      { kind: "nav", box: { x: 0, y: 0, width: 272, height: 900 } },
      { kind: "hero", box: { x: 272, y: 0, width: 1168, height: 900 } },
      { kind: "section", box: { x: 272, y: 901, width: 1168, height: 1109 } },
    ];
    const after = clone(before);
    after.layout.regions = [after.layout.regions[1]!, after.layout.regions[0]!, after.layout.regions[2]!];
    expect(detectChanges({ before, after })).toEqual([]);
  });

  test("a fixed sidebar measured a few px lower (the page was scrolled) is the same sidebar, not one removed and one added", () => {
    const before = clone(landing());
    before.elements.headings.push({ level: 2, text: "CLARENCE TAYLOR", box: { x: 20, y: 100, width: 200, height: 30 }, aboveFold: true });
    before.layout.regions = [
      { kind: "nav", box: { x: 0, y: 0, width: 272, height: 900 } },
      { kind: "hero", box: { x: 272, y: 0, width: 1168, height: 900 } },
      { kind: "section", box: { x: 272, y: 901, width: 1168, height: 1109 } },
    ];
    const after = clone(before);
    after.layout.regions[0]!.box.y = 6;
    after.elements.headings.at(-1)!.box.y = 106;
    expect(detectChanges({ before, after })).toEqual([]);
  });
});

describe("kinds", () => {
  test("cta: text, colour, fold, added and removed", () => {
    const after = clone(landing());
    after.elements.ctas[0]!.text = "Book a demo";
    after.elements.ctas[1]!.bg = "#dc2626";
    after.elements.ctas.push({
      text: "Watch video",
      box: { x: 840, y: 420, width: 180, height: 48 },
      aboveFold: true,
      href: null,
      bg: "#ffffff",
      fg: "#111827",
    });
    after.copy.visibleText = after.copy.visibleText.replace("Start free", "Book a demo");
    const changes = only(detectChanges({ before: landing(), after }), "cta");
    expect(changes.map(brief)).toEqual([
      { kind: "cta", severity: "high", summary: "CTA text “Start free” → “Book a demo”", before: "Start free", after: "Book a demo" },
      { kind: "cta", severity: "high", summary: "CTA added: “Watch video” (above the fold)", before: null, after: "Watch video" },
      {
        kind: "cta",
        severity: "medium",
        summary: expect.stringMatching(/^CTA “Talk to sales” colour #111827 → #dc2626 \(ΔE \d+\.\d\)$/),
        before: "#111827",
        after: "#dc2626",
      },
    ]);
    expect(changes[0]!.evidence).toEqual({
      beforeBox: { x: 620, y: 420, width: 200, height: 48 },
      afterBox: { x: 620, y: 420, width: 200, height: 48 },
    });

    const moved = clone(landing());
    moved.elements.ctas[0]!.box.y = 1000;
    moved.elements.ctas[0]!.aboveFold = false;
    moved.elements.ctas.pop();
    expect(only(detectChanges({ before: landing(), after: moved }), "cta").map(brief)).toEqual([
      {
        kind: "cta",
        severity: "medium",
        summary: "CTA “Start free” moved above the fold → below the fold",
        before: "above the fold",
        after: "below the fold",
      },
      { kind: "cta", severity: "medium", summary: "CTA removed: “Talk to sales” (below the fold)", before: "Talk to sales", after: null },
    ]);
  });

  test("copy: the headline, an edited paragraph, and text added/removed", () => {
    const after = clone(landing());
    after.copy.headline = "Deploy in seconds";
    after.elements.headings[0]!.text = "Deploy in seconds";
    after.copy.visibleText = after.copy.visibleText
      .replace("Ship faster with Alpha", "Deploy in seconds")
      .replace("Preview every branch before it merges.", "Preview every branch and every commit before it merges.")
      .replace("© Alpha Inc.", "Trusted by 4,000 teams.\n© Alpha Inc.");
    const changes = only(detectChanges({ before: landing(), after }), "copy");
    expect(changes.map(brief)).toEqual([
      {
        kind: "copy",
        severity: "high",
        summary: "Headline “Ship faster with Alpha” → “Deploy in seconds”",
        before: "Ship faster with Alpha",
        after: "Deploy in seconds",
      },
      {
        kind: "copy",
        severity: "low",
        summary: "Text “Preview every branch before it merges.” → “Preview every branch and every commit before it merges.”",
        before: "Preview every branch before it merges.",
        after: "Preview every branch and every commit before it merges.",
      },
      { kind: "copy", severity: "low", summary: "Text added: “Trusted by 4,000 teams.”", before: null, after: "Trusted by 4,000 teams." },
    ]);
    expect(changes[0]!.evidence.afterBox).toEqual({ x: 420, y: 200, width: 600, height: 56 });
  });

  test("palette: a brand colour changed (with ΔE), a background added", () => {
    const after = clone(landing());
    after.palette.buttons = [
      { hex: "#dc2626", share: 0.8 },
      { hex: "#111827", share: 0.2 },
    ];
    after.palette.background = [
      { hex: "#ffffff", share: 0.6 },
      { hex: "#f3f4f6", share: 0.25 },
      { hex: "#0f172a", share: 0.15 },
    ];
    const changes = only(detectChanges({ before: landing(), after }), "palette");
    expect(changes.map(brief)).toEqual([
      {
        kind: "palette",
        severity: "high",
        summary: expect.stringMatching(/^Button colour #2563eb → #dc2626 \(ΔE \d+\.\d, 80% of buttons\)$/),
        before: "#2563eb",
        after: "#dc2626",
      },
      { kind: "palette", severity: "low", summary: "Background colour added: #0f172a (15% of background)", before: null, after: "#0f172a" },
    ]);
    expect(changes[0]!.evidence.deltaE).toBeGreaterThan(30);
  });

  test("typography: families, body style, main heading, weights", () => {
    const after = clone(landing());
    after.typography.families = [
      { family: "Roboto", share: 0.9 },
      { family: "Georgia", share: 0.1 },
    ];
    after.typography.body = { family: "Roboto", sizePx: 18, weight: 400, lineHeightPx: 28 };
    after.typography.headings[0] = { level: 1, family: "Roboto", sizePx: 64, weight: 800, lineHeightPx: 72 };
    after.typography.weights = [
      { weight: 400, share: 0.8 },
      { weight: 800, share: 0.2 },
    ];
    expect(only(detectChanges({ before: landing(), after }), "typography").map(brief)).toEqual([
      { kind: "typography", severity: "high", summary: "Font families Inter → Roboto", before: "Inter", after: "Roboto" },
      {
        kind: "typography",
        severity: "medium",
        summary: "Body text Inter 16 px / 400 → Roboto 18 px / 400",
        before: "Inter 16 px / 400",
        after: "Roboto 18 px / 400",
      },
      {
        kind: "typography",
        severity: "medium",
        summary: "Main heading Inter 48 px / 700 → Roboto 64 px / 800",
        before: "Inter 48 px / 700",
        after: "Roboto 64 px / 800",
      },
      { kind: "typography", severity: "low", summary: "Font weights 700 → 800", before: "700", after: "800" },
    ]);
  });

  test("layout: a titled section moved above another is one move, with both positions", () => {
    const before = clone(landing());
    const after = clone(landing());
    // Features (y 680, 500 tall) and Pricing (y 1180, 700 tall) swap places.
    after.layout.regions[3]!.box.y = 1380;
    after.layout.regions[4]!.box.y = 680;
    after.elements.headings[1]!.box.y = 1420;
    after.elements.headings[2]!.box.y = 720;
    const layout = only(detectChanges({ before, after }), "layout").map(brief);
    expect(layout).toHaveLength(1);
    expect(layout[0]!.summary).toMatch(/^Moved: Section “(Features|Pricing)” from \d+ px to \d+ px$/);
    expect(layout[0]!.severity).toBe("medium");
  });

  test("layout: a removed section is one change (not everything below moving), columns", () => {
    const after = clone(landing());
    // The 500 px "Features" section is gone; everything below moved up 500 px.
    after.layout.regions = after.layout.regions
      .filter((r) => !(r.kind === "section" && r.box.y === 680))
      .map((r) => (r.box.y > 680 ? { ...r, box: { ...r.box, y: r.box.y - 500 } } : r));
    after.elements.headings = after.elements.headings.filter((h) => h.text !== "Features");
    after.layout.columns = 2;
    const changes = only(detectChanges({ before: landing(), after }), "layout");
    expect(changes.map(brief)).toEqual([
      {
        kind: "layout",
        severity: "medium",
        summary: "Removed: Section “Features” (500 px tall at 680 px)",
        before: "Section “Features” (500 px tall at 680 px)",
        after: null,
      },
      { kind: "layout", severity: "medium", summary: "Columns 3 → 2", before: "3", after: "2" },
    ]);
    expect(changes[0]!.evidence.beforeBox).toEqual({ x: 0, y: 680, width: 1440, height: 500 });
  });

  test("meta: title and description", () => {
    const after = clone(landing());
    after.title = "Alpha — deploy in seconds";
    after.metaDescription = "";
    expect(only(detectChanges({ before: landing(), after }), "meta").map(brief)).toEqual([
      {
        kind: "meta",
        severity: "medium",
        summary: "Title “Alpha — ship faster” → “Alpha — deploy in seconds”",
        before: "Alpha — ship faster",
        after: "Alpha — deploy in seconds",
      },
      {
        kind: "meta",
        severity: "low",
        summary: "Meta description removed: “Alpha helps teams ship faster.”",
        before: "Alpha helps teams ship faster.",
        after: null,
      },
    ]);
  });
});

describe("timing against the target's own noise", () => {
  const sample = (lcpMs: number, bytes = 300_000): TimingSample => ({
    ttfbMs: 40,
    fcpMs: 300,
    lcpMs,
    loadMs: 700,
    cls: 0,
    bytes,
    requests: 12,
  });
  const history = [590, 640, 610, 700, 560, 620, 655, 600].map((l) => sample(l));

  test("median and MAD", () => {
    expect(robustSpread([1, 2, 3, 4, 100])).toEqual({ median: 3, spread: 1.4826 });
  });

  test("jitter inside the measured spread is not a change; a slowdown that holds for two runs is, once, with the usual range", () => {
    const jitter = clone(landing());
    jitter.timing.lcpMs = 720;
    expect(timingChanges(history, jitter)).toEqual([]);
    const slow = clone(landing());
    slow.timing.lcpMs = 1900;
    slow.timing.bytes = 900_000;
    // One slow capture alone (the previous run was normal): a hiccup, not a change.
    expect(timingChanges(history, slow)).toEqual([]);
    // The previous run was slow too: the new level holds.
    const confirmed = timingChanges([...history, sample(1800, 880_000)], slow);
    expect(confirmed.map(brief)).toEqual([
      {
        kind: "timing",
        severity: "high",
        summary: "Largest contentful paint 615 ms → 1.9 s (slower in the last 2 runs; usual 560 ms–700 ms over 8 runs)",
        before: "615 ms",
        after: "1.9 s",
      },
      {
        kind: "timing",
        severity: "high",
        summary: "Page weight 293 KB → 879 KB (heavier in the last 2 runs; usual 293 KB–293 KB over 8 runs)",
        before: "293 KB",
        after: "879 KB",
      },
    ]);
    // Still slow a run later: already reported.
    expect(timingChanges([...history, sample(1800, 880_000), sample(1850, 890_000)], slow)).toEqual([]);
  });

  test("a level the page already showed is not new: LCP with two modes (a late web font's swap) stays quiet", () => {
    // Measured on the noise fixture: LCP is the first paint (~150 ms) or the late font's swap (~1.3 s).
    const bimodal = [144, 130, 1310, 150, 84, 160, 140].map((l) => sample(l));
    const swap = clone(landing());
    swap.timing.lcpMs = 1300;
    expect(timingChanges([...bimodal, sample(1290)], swap)).toEqual([]);
    // Beyond anything seen, for two runs: a change.
    swap.timing.lcpMs = 3100;
    expect(timingChanges([...bimodal, sample(3000)], swap).map((c) => c.summary)).toEqual([
      "Largest contentful paint 144 ms → 3.1 s (slower in the last 2 runs; usual 84 ms–1.3 s over 7 runs)",
    ]);
  });

  test("Speed Index and TBT get the same noise band; older runs without them are not samples of them", () => {
    const withVisuals = (speedIndexMs: number, tbtMs: number): TimingSample => ({ ...sample(620), speedIndexMs, tbtMs });
    const steady = [900, 950, 880, 1000, 920, 940].map((si, i) => withVisuals(si, [0, 20, 0, 10, 0, 30][i]!));
    const after = clone(landing());
    after.timing.speedIndexMs = 1000;
    after.timing.tbtMs = 40;
    expect(timingChanges([...steady, withVisuals(990, 25)], after)).toEqual([]);
    after.timing.speedIndexMs = 2600;
    after.timing.tbtMs = 480;
    expect(timingChanges([...steady, withVisuals(2500, 450)], after).map((c) => c.summary)).toEqual([
      "Speed Index 930 ms → 2.6 s (slower in the last 2 runs; usual 880 ms–1.0 s over 6 runs)",
      "Total Blocking Time 5 ms → 480 ms (more blocking in the last 2 runs; usual 0 ms–30 ms over 6 runs)",
    ]);
    // Inside the floor (200 ms for TBT): noise.
    after.timing.tbtMs = 180;
    expect(timingChanges([...steady, withVisuals(2500, 170)], after).map((c) => c.summary)).toHaveLength(1);
    // Runs captured before Speed Index was measured have none: too few samples to claim a change.
    const older = [600, 640, 610, 700, 560, 620].map((l) => sample(l));
    expect(timingChanges([...older, withVisuals(900, 0), withVisuals(2500, 450)], after)).toEqual([]);
  });

  test("a noisy target needs a bigger move; fewer than 4 earlier samples claims nothing", () => {
    const noisy = [400, 900, 650, 1200, 500, 1000, 700, 800].map((l) => sample(l));
    const after = clone(landing());
    after.timing.lcpMs = 1500;
    expect(timingChanges([...noisy, sample(1500)], after)).toEqual([]);
    after.timing.lcpMs = 5000;
    expect(timingChanges([...noisy, sample(4800)], after).map((c) => c.severity)).toEqual(["high"]);
    expect(timingChanges([...history.slice(0, 3), sample(4800)], after)).toEqual([]);
  });
});

describe("volatile parts (carousels, tickers)", () => {
  test("text and CTAs that belong to a rotating part are not changes; the rest still is", () => {
    const before = clone(landing());
    const after = clone(landing());
    before.copy.visibleText += "\nFast shipping";
    after.copy.visibleText += "\nFree returns";
    before.elements.ctas.push({
      text: "Shop shipping",
      box: { x: 100, y: 900, width: 160, height: 40 },
      aboveFold: false,
      href: null,
      bg: "#16a34a",
      fg: "#fff",
    });
    after.elements.ctas.push({
      text: "Shop returns",
      box: { x: 100, y: 900, width: 160, height: 40 },
      aboveFold: false,
      href: null,
      bg: "#9333ea",
      fg: "#fff",
    });
    after.title = "Alpha — new";
    const volatility = mergeVolatility({
      texts: ["Fast shipping Shop shipping", "Free returns Shop returns", "Gift cards Shop gifts"],
      boxes: [{ x: 0, y: 860, width: 1440, height: 120 }],
      colors: [],
      fading: false,
    });
    const withoutProbe = detectChanges({ before, after });
    expect(withoutProbe.filter((c) => c.kind !== "meta").length).toBeGreaterThan(0);
    expect(detectChanges({ before, after, volatility }).map((c) => c.summary)).toEqual(["Title “Alpha — ship faster” → “Alpha — new”"]);
  });
});

describe("colours caught mid-fade and slide colours", () => {
  test("a text tint between the page's text colour and its background is not a change while fades run; it is without them", () => {
    const after = clone(landing());
    // #111827 at ~45% over #ffffff: what a heading fading in measures as.
    after.palette.text = [
      { hex: "#111827", share: 0.42 },
      { hex: "#9a9da3", share: 0.4 },
      { hex: "#6b7280", share: 0.18 },
    ];
    const fading = mergeVolatility({ texts: [], boxes: [], colors: [], fading: true });
    expect(detectChanges({ before: landing(), after, volatility: fading })).toEqual([]);
    expect(detectChanges({ before: landing(), after }).map((c) => c.summary)).toEqual(["Text colour added: #9a9da3 (40% of text)"]);
  });

  test("a real new text colour is reported even while fades run", () => {
    const after = clone(landing());
    after.palette.text = [
      { hex: "#111827", share: 0.6 },
      { hex: "#b91c1c", share: 0.4 },
    ];
    const fading = mergeVolatility({ texts: [], boxes: [], colors: [], fading: true });
    // The grey that left is itself a tint of the text colour over white, so during fades only the
    // arrival is claimed; without fades it is one colour changed.
    expect(detectChanges({ before: landing(), after, volatility: fading }).map((c) => c.summary)).toEqual([
      "Text colour added: #b91c1c (40% of text)",
    ]);
    expect(detectChanges({ before: landing(), after }).map((c) => [c.before, c.after])).toEqual([["#6b7280", "#b91c1c"]]);
  });

  test("colours painted inside a rotating part are not palette changes", () => {
    const before = clone(landing());
    const after = clone(landing());
    before.palette.buttons.push({ hex: "#be185d", share: 0.1 });
    after.palette.buttons.push({ hex: "#15803d", share: 0.1 });
    const slides = mergeVolatility({ texts: [], boxes: [], colors: ["#be185d", "#15803d", "#b45309"], fading: false });
    expect(detectChanges({ before, after }).map((c) => c.kind)).toEqual(["palette"]);
    expect(detectChanges({ before, after, volatility: slides })).toEqual([]);
  });
});

describe("visual", () => {
  const page = (w: number, h: number, paint: (x: number, y: number) => [number, number, number]) => {
    const png = new PNG({ width: w, height: h });
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) png.data.set([...paint(x, y), 255], (y * w + x) * 4);
    return { width: w, height: h, data: png.data };
  };
  const base = (x: number, y: number): [number, number, number] =>
    y >= 100 && y < 140 && x >= 50 && x < 250 ? [37, 99, 235] : [255, 255, 255];

  test("identical screenshots: zero changed, no change; a recoloured block: its box, share and a heat map", () => {
    const a = page(400, 600, base);
    const same = visualDiff(a, page(400, 600, base));
    expect([same.changedPixels, same.regions]).toEqual([0, []]);
    expect(visualChange(same, "desktop")).toBeNull();

    const b = page(400, 600, (x, y) => (y >= 100 && y < 140 && x >= 50 && x < 250 ? [220, 38, 38] : [255, 255, 255]));
    const d = visualDiff(a, b);
    expect(d.regions).toEqual([{ x: 48, y: 96, width: 208, height: 48 }]);
    expect(d.changedPixels).toBe(200 * 40);
    expect(d.changedShare).toBeCloseTo(8000 / 240000, 6);
    const change = visualChange(d, "desktop")!;
    expect(brief(change)).toEqual({
      kind: "visual",
      severity: "medium",
      summary: "3.3% of the page changed in 1 region (largest 208×48 px at 48,96)",
      before: "600 px tall page",
      after: "600 px tall page, 3.3% changed",
    });
    const heat = PNG.sync.read(Buffer.from(d.heatmap()));
    expect([heat.width, heat.height]).toEqual([400, 600]);
    const at = (x: number, y: number) => Array.from(heat.data.subarray((y * 400 + x) * 4, (y * 400 + x) * 4 + 3));
    expect(at(150, 120)).toEqual([230, 30, 40]); // changed: red
    expect(at(350, 400)).toEqual([255, 255, 255]); // unchanged white stays white
  });

  test("a change across the seam between two compared bands is one region", () => {
    const plain = (x: number, y: number): [number, number, number] => (x < 0 || y < 0 ? [0, 0, 0] : [255, 255, 255]);
    const a = page(300, 1200, plain);
    const b = page(300, 1200, (x, y) => (y >= 500 && y < 530 && x >= 100 && x < 200 ? [0, 0, 0] : plain(x, y)));
    const d = visualDiff(a, b);
    expect(d.regions).toEqual([{ x: 96, y: 496, width: 104, height: 40 }]);
    expect(d.changedPixels).toBe(100 * 30);
  });

  test("specks (a few stray pixels) are dropped; a masked volatile box is ignored; a longer page counts its new strip", () => {
    const a = page(400, 600, base);
    const specks = page(400, 600, (x, y) => (x === 300 && y === 300 ? [0, 0, 0] : base(x, y)));
    expect(visualDiff(a, specks).regions).toEqual([]);
    const carousel = page(400, 600, (x, y) => (y >= 400 && y < 500 ? [x % 255, 120, 30] : base(x, y)));
    const masked = visualDiff(a, carousel, [{ x: 0, y: 390, width: 400, height: 120 }]);
    expect(masked.regions).toEqual([]);
    expect(masked.masked).toEqual([{ x: 0, y: 390, width: 400, height: 120 }]);
    const longer = visualDiff(a, page(400, 700, base));
    expect(longer.regions).toEqual([{ x: 0, y: 600, width: 400, height: 100 }]);
  });
});

describe("alert filter", () => {
  test("minimum severity and kinds", () => {
    const after = clone(landing());
    after.title = "New title";
    after.elements.ctas[0]!.text = "Book a demo";
    const all = detectChanges({ before: landing(), after });
    expect(filterChanges(all, "high").map((c) => c.kind)).toEqual(["cta"]);
    expect(filterChanges(all, "low", ["meta"]).map((c) => c.kind)).toEqual(["meta"]);
  });
});
