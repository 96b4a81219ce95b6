// Fake run tools for comparison runs: a capture that writes a real PNG and returns a believable
// extraction, controllable per URL (fail, hold until released, hostile title).
import { writeFileSync } from "node:fs";
import { PNG } from "pngjs";
import type { Extraction, Finding, Viewport } from "#server/modules/capture/model";
import type { LiveMessage, LiveSocket } from "#server/live/hub";
import type { CaptureFn, ComparisonActivity, FindingsFn, PairScores, RunTools } from "#server/modules/comparisons/active-runs";

export function pngBytes(width: number, height: number, rgb: [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) {
    png.data[i * 4] = rgb[0];
    png.data[i * 4 + 1] = rgb[1];
    png.data[i * 4 + 2] = rgb[2];
    png.data[i * 4 + 3] = 255;
  }
  return PNG.sync.write(png);
}

export function fakeExtraction(url: string, viewport: Viewport, title: string, hex: string): Extraction {
  return {
    url,
    finalUrl: url,
    viewport,
    title,
    metaDescription: "",
    pageHeight: 1200,
    capturedHeight: 1200,
    palette: {
      dominant: [
        { hex, share: 0.7 },
        { hex: "#ffffff", share: 0.3 },
      ],
      text: [],
      background: [],
      buttons: [],
      isDark: false,
    },
    typography: { families: [], sizeScale: [], weights: [], headings: [], body: null },
    layout: { regions: [], columns: 1, radiusPx: 4, spacingPx: 32 },
    elements: { ctas: [], links: 3, linksAboveFold: 2, forms: [], inputs: 0, images: 1, imagesAboveFold: 1, headings: [] },
    copy: { headline: title, visibleText: `${title} text`, wordCount: 3, readability: 70 },
    timing: {
      ttfbMs: 10,
      fcpMs: 100,
      lcpMs: 200,
      cls: 0,
      domContentLoadedMs: 50,
      loadMs: 300,
      bytes: 1000,
      requests: 3,
      largestResource: null,
    },
    accessibility: { lowContrast: [], bodyContrast: 12, imagesWithoutAlt: 0, inputsWithoutLabel: 0 },
  };
}

interface Site {
  title?: string;
  hex?: string;
  /** Fail these viewports (or all) with this reason. */
  fail?: { reason: string; viewports?: Viewport[] };
}

/** A hand-operated gate: captures wait on it until the test releases them. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

export function fakeRunTools(sites: Record<string, Site> = {}) {
  const calls: { ownerId: string; url: string; viewport: Viewport; screenshotPath: string }[] = [];
  const activity: ComparisonActivity[] = [];
  const published: { message: LiveMessage; workspaceId: string | null }[] = [];
  let hold: ReturnType<typeof gate> | null = null;
  let started = gate();

  const capture: CaptureFn = async (ownerId, job, onStage) => {
    calls.push({ ownerId, ...job });
    started.open();
    onStage?.("navigating");
    if (hold) await hold.opened;
    const site = sites[job.url] ?? {};
    if (site.fail && (!site.fail.viewports || site.fail.viewports.includes(job.viewport))) return { ok: false, reason: site.fail.reason };
    onStage?.("screenshot");
    const width = job.viewport === "desktop" ? 48 : 13;
    writeFileSync(job.screenshotPath, pngBytes(width, 40, [200, 10, 10]));
    return {
      ok: true,
      extraction: fakeExtraction(job.url, job.viewport, site.title ?? `Title of ${job.url}`, site.hex ?? "#3366ff"),
      screenshotPath: job.screenshotPath,
    };
  };

  // Similarity from the two dominant colours, so the stored numbers depend on the inputs.
  const analyser = {
    scorePair(_a: string, a: Extraction, _b: string, b: Extraction): PairScores {
      const same = a.palette.dominant[0]?.hex === b.palette.dominant[0]?.hex;
      const color = same ? 0.9 : 0.4;
      return {
        colorSimilarity: color,
        layoutSimilarity: 0.5,
        contentSimilarity: 0.25,
        overallSimilarity: (color + 0.5 + 0.25) / 3,
        components: { palette: color },
      };
    },
  };

  const findingsFor: FindingsFn = (pages) =>
    pages.map((p): Finding => ({
      id: `f-${p.targetId}-${p.viewport}`,
      group: "design",
      severity: "medium",
      targetId: p.targetId,
      viewport: p.viewport,
      title: `Check ${p.extraction.title}`,
      evidence: { [`${p.label} title`]: p.extraction.title },
      fix: `Fix ${p.label}`,
      source: "rules",
    }));

  const tools: RunTools = {
    capture,
    analyser,
    findingsFor,
    publish: (message, to) => published.push({ message, workspaceId: to.kind === "workspace" ? to.workspaceId : null }),
    recordActivity: (e) => activity.push(e),
  };

  return {
    /** What makeTestApp takes as runTools; after the app is built, swap parts on its `tools` instead. */
    tools,
    calls,
    activity,
    published,
    /** Captures started from now on wait until release(). */
    holdCaptures() {
      hold = gate();
      started = gate();
    },
    /** Resolves once a held capture has begun. */
    captureStarted: () => started.opened,
    release() {
      hold?.open();
      hold = null;
    },
  };
}

/** A LiveSocket that records what it was sent. */
export function recordingSocket(userId: string, role: "user" | "admin" = "user"): LiveSocket & { received: any[] } {
  const received: any[] = [];
  return { userId, role, received, send: (d) => received.push(JSON.parse(d)), close: () => {} };
}
