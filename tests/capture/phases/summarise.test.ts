// The capture's last phase on its own, without a browser: a screenshot's pixels, the DOM's
// measurement and the load's report become the extraction.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Extraction } from "#server/modules/capture/model";
import type { DomMeasurement, Vitals } from "#server/modules/capture/page/types";
import type { LoadReport } from "#server/modules/capture/phases/gather";
import { captureLifetime } from "#server/modules/capture/phases/lifetime";
import type { OpenedPage } from "#server/modules/capture/phases/open";
import { summarisePage } from "#server/modules/capture/phases/summarise";
import { encodePng, paint } from "#tests/analysis/support";
import { testCaptureJob } from "#tests/support/capture-job";
import { landing } from "#tests/changes/extractions";

const dir = mkdtempSync(join(tmpdir(), "summarise-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WIDTH = 1440;
const HEIGHT = 1200;
const BLUE = [37, 99, 235] as const;

/** What the page script measured of the hand-built landing page, with a salient brand colour. */
function measured(e: Extraction): DomMeasurement {
  const { title, metaDescription, typography, layout, elements, copy, accessibility } = e;
  return {
    title,
    metaDescription,
    pageHeight: 2400,
    typography,
    layout,
    elements,
    copy,
    accessibility,
    palette: { ...e.palette, salient: [{ hex: "#2563eb", share: 1 }] },
    contrastProbes: [],
  };
}

const vitals: Vitals = {
  ttfbMs: 20,
  fcpMs: 180,
  lcpMs: 240,
  cls: 0,
  domContentLoadedMs: 150,
  loadMs: 300,
  lcpElement: null,
  // One task straddles FCP (only its 120 ms after it count), one ends before it, one is inside.
  longTasks: {
    tasks: [
      { startMs: 100, durationMs: 200 },
      { startMs: 20, durationMs: 100 },
      { startMs: 320, durationMs: 90 },
    ],
    readAtMs: 450,
  },
};

const load = (fonts: LoadReport["fonts"]): LoadReport => ({
  resources: { bytes: 123_456, requests: 12, largestResource: null },
  failures: { network: { failed: [], failedCount: 0 }, console: [] },
  fonts,
  finalUrl: "http://127.0.0.1/alpha/?from=redirect",
  visuals: { speedIndexMs: 260, visuallyCompleteMs: 400, method: "Filmstrip of the capture's own load: 5 trace screenshots", reason: null },
});

/** The parts of an opened page the summarise phase uses; a single timing load takes no further context. */
const opened = {
  measuredIn: Promise.resolve("Chromium headless shell 156.0.8078.108"),
  race: <T>(p: Promise<T>) => p,
  openContext: () => Promise.reject(new Error("no further load expected")),
} as unknown as OpenedPage;

describe("summarise", () => {
  test("the screenshot's pixels, the DOM's measurement and the load's report make the extraction", async () => {
    const job = testCaptureJob("http://127.0.0.1/alpha/", dir, { timingSamples: 1 });
    // A white page, its top third the brand blue.
    const png = Buffer.from(
      encodePng(WIDTH, HEIGHT, paint(WIDTH, HEIGHT, [255, 255, 255], [{ x: 0, y: 0, w: WIDTH, h: 400, color: BLUE }])),
    );
    const dom = measured(landing());
    const rendered = [{ family: "Inter", share: 1 }];
    const { extraction, thumb } = await summarisePage(opened, job, captureLifetime(job), {
      seen: { dom, drawn: null, capturedHeight: HEIGHT, png },
      load: load({ rendered, notLoaded: [] }),
      vitals,
      saving: Promise.resolve(),
    });

    expect(extraction.finalUrl).toBe("http://127.0.0.1/alpha/?from=redirect");
    expect([extraction.pageHeight, extraction.capturedHeight]).toEqual([2400, HEIGHT]);
    // From the pixels: white first, then the blue band; a light page.
    expect(extraction.palette.dominant.map((c) => c.hex).slice(0, 2)).toEqual(["#ffffff", "#2563eb"]);
    expect(extraction.palette.isDark).toBe(false);
    // From the DOM's palette: the roles.
    expect(extraction.palette.roles).toEqual({ background: "#ffffff", text: "#111827", primary: "#2563eb", secondary: null });
    expect(extraction.typography.rendered).toEqual(rendered);
    // The one load's vitals, the load's requests and bytes, and which browser measured them.
    expect(extraction.timing).toMatchObject({
      fcpMs: 180,
      lcpMs: 240,
      bytes: 123_456,
      requests: 12,
      browser: "Chromium headless shell 156.0.8078.108",
    });
    expect(extraction.timing.samples).toHaveLength(1);
    // Speed Index from the load's filmstrip, TBT from its long tasks between FCP and the vitals' reading.
    expect(extraction.timing).toMatchObject({ speedIndexMs: 260, visuallyCompleteMs: 400, tbtMs: 70 + 40 });
    expect(extraction.timing.measuredBy?.speedIndex).toEqual({
      method: "Filmstrip of the capture's own load: 5 trace screenshots",
      reason: null,
    });
    expect(extraction.timing.measuredBy?.tbt.method).toContain("from FCP (180 ms)");
    expect(extraction.timing.measuredBy?.tbt.reason).toBeNull();
    expect(extraction.accessibility.lowContrast).toEqual([]);
    // The grey thumbnail scoring compares: a sixth of the width.
    expect(thumb.width).toBe(240);
  });

  test("without the drawn fonts the declared typography stands as measured", async () => {
    const job = testCaptureJob("http://127.0.0.1/alpha/", dir, { timingSamples: 1 });
    const png = Buffer.from(encodePng(64, 64, paint(64, 64, [17, 24, 39], [])));
    const dom = measured(landing());
    const { extraction } = await summarisePage(opened, job, captureLifetime(job), {
      seen: { dom, drawn: null, capturedHeight: 64, png },
      load: load(null),
      vitals,
      saving: Promise.resolve(),
    });
    expect(extraction.typography).toEqual(dom.typography);
    expect(extraction.palette.isDark).toBe(true);
  });

  test("a page timed under Lighthouse's mobile preset gets no Speed Index or TBT from the unthrottled load, and says why", async () => {
    const job = testCaptureJob("http://127.0.0.1/alpha/", dir, {
      timingSamples: 1,
      viewport: "mobile",
      mobileTimingProfile: "lighthouse-mobile",
    });
    const png = Buffer.from(encodePng(64, 64, paint(64, 64, [17, 24, 39], [])));
    const throttledOpened = { ...opened, openContext: () => Promise.reject(new Error("offline")) } as unknown as OpenedPage;
    const { extraction } = await summarisePage(throttledOpened, job, captureLifetime(job), {
      seen: { dom: measured(landing()), drawn: null, capturedHeight: 64, png },
      load: load(null),
      vitals,
      saving: Promise.resolve(),
    });
    expect([extraction.timing.speedIndexMs, extraction.timing.visuallyCompleteMs, extraction.timing.tbtMs]).toEqual([null, null, null]);
    expect(extraction.timing.measuredBy?.speedIndex.reason).toContain("Lighthouse's mobile preset");
    expect(extraction.timing.measuredBy?.tbt.reason).toContain("Lighthouse's mobile preset");
  });

  test("a load with no filmstrip and no Long Tasks API has null figures with their reasons", async () => {
    const job = testCaptureJob("http://127.0.0.1/alpha/", dir, { timingSamples: 1 });
    const png = Buffer.from(encodePng(64, 64, paint(64, 64, [17, 24, 39], [])));
    const { longTasks: _, ...noTasks } = vitals;
    const { extraction } = await summarisePage(opened, job, captureLifetime(job), {
      seen: { dom: measured(landing()), drawn: null, capturedHeight: 64, png },
      load: {
        ...load(null),
        visuals: { speedIndexMs: null, visuallyCompleteMs: null, method: null, reason: "No frame of the load was recorded" },
      },
      vitals: noTasks,
      saving: Promise.resolve(),
    });
    expect([extraction.timing.speedIndexMs, extraction.timing.tbtMs]).toEqual([null, null]);
    expect(extraction.timing.measuredBy).toEqual({
      speedIndex: { method: null, reason: "No frame of the load was recorded" },
      tbt: { method: null, reason: "The browser reported no long tasks (it has no Long Tasks API)" },
    });
  });

  test("axe's audit: the counts budgets read, and the pixels' verdict only for the probes axe left undecided", async () => {
    const job = testCaptureJob("http://127.0.0.1/alpha/", dir, { timingSamples: 1 });
    // White text over a light grey photo band (CSS cannot see it), and grey text on white (CSS can).
    const png = Buffer.from(
      encodePng(400, 200, paint(400, 200, [255, 255, 255], [{ x: 0, y: 0, w: 400, h: 100, color: [220, 220, 220] }])),
    );
    const probe = (text: string, fg: string, y: number, css: { bg: string; ratio: number } | null) => ({
      text,
      fg,
      required: 4.5,
      sizePx: 16,
      css,
      boxes: [{ x: 10, y, width: 200, height: 20 }],
    });
    const dom = {
      ...measured(landing()),
      contrastProbes: [probe("Over the photo", "#ffffff", 40, null), probe("Grey caption", "#999999", 140, { bg: "#ffffff", ratio: 2.85 })],
    };
    const imageAlt = {
      id: "image-alt",
      impact: "critical" as const,
      level: "A" as const,
      criteria: ["1.1.1"],
      wcag: "2.0",
      help: "",
      helpUrl: "",
    };
    const audit = {
      engine: "axe-core 4.14.1",
      ms: 80,
      violations: [{ ...imageAlt, count: 3, examples: [] }],
      incomplete: [{ id: "color-contrast", count: 1 }],
    };
    const summarise = (outcome: { audit: typeof audit; undecidedProbes: number[] | null } | null) =>
      summarisePage(opened, job, captureLifetime(job), {
        seen: { dom, drawn: null, capturedHeight: 200, png },
        load: load(null),
        vitals,
        saving: Promise.resolve(),
        audit: outcome && Promise.resolve(outcome),
      });

    // axe decided the grey caption (its own finding) and left the text over the photo to the pixels.
    const audited = (await summarise({ audit, undecidedProbes: [0] })).extraction.accessibility;
    expect(audited.lowContrast.map((r) => [r.text, r.method])).toEqual([["Over the photo", "pixels"]]);
    expect(audited).toMatchObject({ audit, imagesWithoutAlt: 3, inputsWithoutLabel: 0 });

    // A document axe audited without a measurement of it, or a capture not audited: every probe is the pixels' and CSS's.
    const unmatched = (await summarise({ audit, undecidedProbes: null })).extraction.accessibility;
    expect(unmatched.lowContrast.map((r) => r.text).sort()).toEqual(["Grey caption", "Over the photo"]);
    const notAudited = (await summarise(null)).extraction.accessibility;
    expect(notAudited.lowContrast).toHaveLength(2);
    expect(notAudited).toMatchObject({ imagesWithoutAlt: null, inputsWithoutLabel: null });
    expect(notAudited.audit).toBeUndefined();
  });
});
