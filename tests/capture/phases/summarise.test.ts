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

const vitals: Vitals = { ttfbMs: 20, fcpMs: 180, lcpMs: 240, cls: 0, domContentLoadedMs: 150, loadMs: 300, lcpElement: null };

const load = (fonts: LoadReport["fonts"]): LoadReport => ({
  resources: { bytes: 123_456, requests: 12, largestResource: null },
  failures: { network: { failed: [], failedCount: 0 }, console: [] },
  fonts,
  finalUrl: "http://127.0.0.1/alpha/?from=redirect",
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
});
