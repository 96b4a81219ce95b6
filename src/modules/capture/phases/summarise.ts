// The capture's last phase: read the screenshot's pixels once (dominant colours, dark or light,
// the grey thumbnail scoring compares, and the painted background behind text the DOM could not
// tell), take axe-core's audit once it is in, take the page's timing samples, and put the
// extraction together.

import type { GrayImage } from "#server/lib/image/image";
import { rgbOf } from "#server/lib/image/mask-rows";
import type { ConsentOutcome } from "../consent/consent";
import { failing, IMAGE_ALT_RULES, LABEL_RULES } from "../gatherers/axe-results";
import { VIEWPORTS, type AccessibilityAudit, type Extraction } from "../model";
import type { AuditOutcome } from "../page-script/axe";
import type { Vitals } from "../page/types";
import { createPaintedSampler, decideLowContrast } from "../screenshot/painted-contrast";
import { summariseScreenshot, type ScreenshotSummary } from "../screenshot/screenshot-summary";
import { SETTLE_WAITS } from "../timing/settle-page";
import { loadFigures, type LoadFigures } from "../timing/load-figures";
import { couldMatter, MAX_SAMPLES, sampleTiming, type TimingProfile, type TimingSummary } from "../timing/timing-samples";
import type { CaptureJob } from "../worker/protocol";
import type { LoadReport, Measured } from "./gather";
import type { CaptureLifetime } from "./lifetime";
import type { OpenedPage } from "./open";
import { paletteRoles } from "./palette-roles";
import type { Screenshot } from "./screenshot";

export interface Looked extends Measured, Screenshot {}

export interface SummariseInput {
  seen: Looked;
  load: LoadReport;
  /** The vitals of the capture's own load (the settle's first pass). */
  vitals: Vitals;
  /** The screenshot's PNG being written meanwhile: awaited once the pixels are read. */
  saving: Promise<void>;
  /** axe-core's audit running in the page meanwhile; absent or null when this capture does not audit. */
  audit?: Promise<AuditOutcome> | null;
  /** What the consent phase did, and the banners it masked; null or absent when the job asked for nothing. */
  consent?: ConsentOutcome | null;
}

/** The mobile viewport may be timed under Lighthouse's mobile preset; the desktop never is. */
export const timingProfileOf = (job: CaptureJob): TimingProfile =>
  job.viewport === "mobile" ? (job.mobileTimingProfile ?? "unthrottled") : "unthrottled";

export async function summarisePage(
  opened: OpenedPage,
  job: CaptureJob,
  lifetime: CaptureLifetime,
  { seen, load, vitals, saving, audit, consent }: SummariseInput,
): Promise<{ extraction: Extraction; thumb: GrayImage }> {
  const probes = seen.dom.contrastProbes;
  const painted = createPaintedSampler(probes, VIEWPORTS[job.viewport].width, seen.capturedHeight);
  // A banner left on screen weighs in neither the dominant colours nor the thumbnail: the page's background stands in for it.
  const masks = consent?.masks.length ? { rects: consent.masks, fill: rgbOf(paletteRoles(seen.dom.palette).background) } : undefined;
  const pixels = await summariseScreenshot(seen.png, undefined, painted.push, masks);
  await saving;
  const audited = audit && (await audit);
  // After the pixels are read and the audit is in, not meanwhile: work on the same cores would slow the very loads being timed.
  // A run that times its pages side by side (job.deferTiming) decides their extra loads itself,
  // once it has every site's first load; a throttled profile's loads are all extra ones, so taken here.
  const profile = timingProfileOf(job);
  const deferred = job.deferTiming === true && profile === "unthrottled";
  const browser = await opened.measuredIn;
  const timing = await opened.race(
    sampleTiming(opened.openContext, load.finalUrl, {
      profile,
      own: profile === "unthrottled" ? [vitals] : [],
      earlier: job.earlierSamples ?? [],
      browser,
      max: job.timingSamples ?? MAX_SAMPLES,
      matters: deferred ? () => false : couldMatter,
      budget: () => Math.max(0, lifetime.remaining() - 3000),
      paintWaitMs: SETTLE_WAITS.paint,
    }),
  );
  // axe decided every probe it did not leave undecided (its violations are its own findings): only
  // the rest keep the pixels' verdict, so the two never report the same element.
  const keep = audited?.undecidedProbes ? new Set(audited.undecidedProbes) : null;
  const measured = painted.finish();
  const lowContrast = keep
    ? decideLowContrast(
        probes.filter((_, i) => keep.has(i)),
        measured.filter((_, i) => keep.has(i)),
      )
    : decideLowContrast(probes, measured);
  const figures = loadFigures(vitals, load.visuals, profile);
  return {
    extraction: assembleExtraction(job, {
      seen,
      load,
      pixels,
      timing,
      figures,
      browser,
      lowContrast,
      audit: audited?.audit ?? null,
      consent,
    }),
    thumb: pixels.thumb,
  };
}

/**
 * The accessibility counts budgets read, from the audit; null where this capture was not audited
 * (a page is audited once, on its desktop capture).
 */
function auditCounts(
  audit: AccessibilityAudit | null,
): Pick<Extraction["accessibility"], "imagesWithoutAlt" | "inputsWithoutLabel" | "audit"> {
  if (!audit) return { imagesWithoutAlt: null, inputsWithoutLabel: null };
  return { imagesWithoutAlt: failing(audit, IMAGE_ALT_RULES), inputsWithoutLabel: failing(audit, LABEL_RULES), audit };
}

export interface ExtractionParts {
  seen: Pick<Looked, "dom" | "capturedHeight">;
  load: LoadReport;
  pixels: Pick<ScreenshotSummary, "dominant" | "isDark">;
  timing: TimingSummary;
  /** Speed Index, visually complete and TBT of the capture's own load, or why not. */
  figures: LoadFigures;
  /** The browser that measured the timing (browser/browser-label.ts). */
  browser: string;
  lowContrast: Extraction["accessibility"]["lowContrast"];
  /** axe-core's audit; null when this capture did not audit. */
  audit: AccessibilityAudit | null;
  consent?: ConsentOutcome | null;
}

/** The extraction from what the phases read; pure. */
export function assembleExtraction(
  job: CaptureJob,
  { seen: { dom, capturedHeight }, load, pixels, timing, figures, browser, lowContrast, audit, consent }: ExtractionParts,
): Extraction {
  const { fonts, failures } = load;
  return {
    url: job.url,
    finalUrl: load.finalUrl,
    viewport: job.viewport,
    title: dom.title,
    metaDescription: dom.metaDescription,
    pageHeight: dom.pageHeight,
    capturedHeight,
    palette: {
      dominant: pixels.dominant,
      text: dom.palette.text,
      background: dom.palette.background,
      buttons: dom.palette.buttons,
      isDark: pixels.isDark,
      salient: dom.palette.salient,
      roles: paletteRoles(dom.palette),
    },
    typography: fonts ? { ...dom.typography, rendered: fonts.rendered, notLoaded: fonts.notLoaded } : dom.typography,
    layout: dom.layout,
    elements: dom.elements,
    copy: dom.copy,
    timing: { ...timing, ...figures, ...load.resources, browser },
    accessibility: { ...dom.accessibility, lowContrast, ...auditCounts(audit) },
    network: failures.network,
    console: failures.console,
    ...(consent ? { consent: consent.record, masks: consent.masks } : {}),
  };
}
