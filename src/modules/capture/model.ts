// The contract between the capture worker (which measures a page), the analysis code (which
// compares pages) and the comparisons module (which stores both). Change it in one place only.

import { z } from "zod";
import type { EarlierSample } from "./public";

export const viewportSchema = z.enum(["desktop", "mobile"]);
export type Viewport = z.infer<typeof viewportSchema>;

export const VIEWPORTS: Record<Viewport, { width: number; height: number; mobile: boolean }> = {
  desktop: { width: 1440, height: 900, mobile: false },
  mobile: { width: 390, height: 844, mobile: true },
};

/** What a page of a site is for; results compare pages of the same role across sites. */
export const PAGE_ROLES = ["home", "pricing", "features", "signup", "blog", "docs", "other"] as const;
export const pageRoleSchema = z.enum(PAGE_ROLES, { error: `A page's role is one of ${PAGE_ROLES.join(", ")}` });
export type PageRole = z.infer<typeof pageRoleSchema>;

/** The colour scheme a page is captured in (`prefers-color-scheme`). */
export const COLOR_SCHEMES = ["light", "dark"] as const;
export const colorSchemeSchema = z.enum(COLOR_SCHEMES);
export type ColorScheme = z.infer<typeof colorSchemeSchema>;

export * from "./steps/model";

export const boxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
export type Box = z.infer<typeof boxSchema>;

export const paletteEntrySchema = z.object({
  /** "#rrggbb" */
  hex: z.string(),
  /** Fraction of sampled pixels, 0..1 */
  share: z.number(),
});
export type PaletteEntry = z.infer<typeof paletteEntrySchema>;

const rangeSchema = z.object({ min: z.number(), max: z.number() });

/** One axe-core rule the page failed, with how many elements and a few examples. */
export const auditRuleSchema = z.object({
  /** axe-core's rule id: "image-alt", "label", "color-contrast"… */
  id: z.string(),
  impact: z.enum(["minor", "moderate", "serious", "critical"]).nullable(),
  /** The WCAG conformance level the rule tests ("A", "AA", "AAA"), or "best-practice" for axe's own. */
  level: z.enum(["A", "AA", "AAA", "best-practice"]),
  /** WCAG success criteria from the rule's tags ("1.1.1"), and the WCAG version ("2.0", "2.1", "2.2"). */
  criteria: z.array(z.string()),
  wcag: z.string().nullable(),
  /** axe-core's one-line statement of the rule, and its reference page. */
  help: z.string(),
  helpUrl: z.string(),
  /** Elements failing it. */
  count: z.number(),
  /** The first few: their HTML (trimmed) and a CSS selector; for contrast, the colours axe measured. */
  examples: z.array(
    z.object({
      html: z.string(),
      selector: z.string(),
      contrast: z.object({ fg: z.string(), bg: z.string(), ratio: z.number(), required: z.number() }).optional(),
    }),
  ),
});
export type AuditRule = z.infer<typeof auditRuleSchema>;

export const accessibilityAuditSchema = z.object({
  /** "axe-core 4.14.1" */
  engine: z.string(),
  /** Time axe took inside the page, in ms. */
  ms: z.number(),
  /** Rules with violations, most severe first. */
  violations: z.array(auditRuleSchema),
  /** Rules axe could not decide for some elements (it asks for a human review), with how many. */
  incomplete: z.array(z.object({ id: z.string(), count: z.number() })),
  /** Why the audit did not run (axe failed or ran out of time); violations are then empty. */
  error: z.string().optional(),
});
export type AccessibilityAudit = z.infer<typeof accessibilityAuditSchema>;

/**
 * What a capture does about a consent banner (the comparison's setting). `reject`: the
 * least-tracking choice the banner offers (the default); `accept`: every purpose; `keep`: leave it
 * and capture what a first-time visitor sees.
 */
export const consentPolicySchema = z.enum(["reject", "accept", "keep"], { error: "Consent must be reject, accept or keep" });
export type ConsentPolicy = z.infer<typeof consentPolicySchema>;
export const DEFAULT_CONSENT_POLICY: ConsentPolicy = "reject";

/** What the capture found and did about a consent banner. */
export const consentRecordSchema = z.union([
  z.object({ found: z.literal(false) }),
  z.object({
    found: z.literal(true),
    /** The rule (of @duckduckgo/autoconsent) that recognised the banner, lower case ("onetrust", "cybotcookiebot"); null when no rule knows it. */
    cmp: z.string().nullable(),
    /** `unhandled`: no rule could answer the banner; where it was is masked (the extraction's `masks`). */
    action: z.enum(["rejected", "accepted", "kept", "unhandled"]),
    /** The rule hid the banner with CSS rather than answer it (no choice was made). Absent otherwise. */
    hidden: z.literal(true).optional(),
  }),
]);
export type ConsentRecord = z.infer<typeof consentRecordSchema>;

const textStyle = { family: z.string(), sizePx: z.number(), weight: z.number(), lineHeightPx: z.number() };

export const extractionSchema = z.object({
  url: z.string(),
  finalUrl: z.string(),
  viewport: viewportSchema,
  title: z.string(),
  metaDescription: z.string(),
  /** Full-page height in CSS px before the cap. */
  pageHeight: z.number(),
  /** Height actually captured (capped). */
  capturedHeight: z.number(),
  palette: z.object({
    /** Dominant colours from the screenshot's pixels, most prominent first. */
    dominant: z.array(paletteEntrySchema),
    /** Computed colours from the DOM, weighted by painted area. */
    text: z.array(paletteEntrySchema),
    background: z.array(paletteEntrySchema),
    buttons: z.array(paletteEntrySchema),
    /** Page background luminance decided from pixels: dark pages are < 0.5 */
    isDark: z.boolean(),
    /** Chromatic colours weighted by salience (buttons, links, headings, icons, rims, badges: square root of area times a weight per kind), not by painted area; absent in captures stored without it. */
    salient: z.array(paletteEntrySchema).optional(),
    /** What each colour does on the page: background and body text from the largest DOM areas, primary/secondary brand colours from the salient colours ("#rrggbb", or null when the page has none). Absent in captures stored without it. */
    roles: z
      .object({
        background: z.string().nullable(),
        text: z.string().nullable(),
        primary: z.string().nullable(),
        secondary: z.string().nullable(),
      })
      .optional(),
  }),
  typography: z.object({
    families: z.array(z.object({ family: z.string(), share: z.number() })),
    /** Distinct font sizes in px with how much text uses each, largest first. */
    sizeScale: z.array(z.object({ px: z.number(), share: z.number() })),
    weights: z.array(z.object({ weight: z.number(), share: z.number() })),
    headings: z.array(z.object({ level: z.number(), ...textStyle })),
    body: z.object(textStyle).nullable(),
    /** Typefaces Chromium actually drew (platform family names) by share of glyphs; absent in captures stored without it or when unreadable. */
    rendered: z.array(z.object({ family: z.string(), share: z.number() })).optional(),
    /** Declared web-font families that never loaded and were drawn in a fallback, with the share of text that asked for them. */
    notLoaded: z.array(z.object({ family: z.string(), share: z.number() })).optional(),
  }),
  layout: z.object({
    regions: z.array(z.object({ kind: z.enum(["header", "nav", "hero", "section", "footer", "main", "aside"]), box: boxSchema })),
    /** Most common column count among content sections. */
    columns: z.number(),
    /** Radius of buttons/cards in px (median), used as a design token. */
    radiusPx: z.number(),
    /** Median vertical gap between sections in px. */
    spacingPx: z.number(),
  }),
  elements: z.object({
    ctas: z.array(
      z.object({ text: z.string(), box: boxSchema, aboveFold: z.boolean(), href: z.string().nullable(), bg: z.string(), fg: z.string() }),
    ),
    links: z.number(),
    linksAboveFold: z.number(),
    forms: z.array(z.object({ box: boxSchema, inputs: z.number(), aboveFold: z.boolean() })),
    inputs: z.number(),
    images: z.number(),
    imagesAboveFold: z.number(),
    headings: z.array(z.object({ level: z.number(), text: z.string(), box: boxSchema, aboveFold: z.boolean() })),
  }),
  copy: z.object({
    headline: z.string(),
    visibleText: z.string(),
    wordCount: z.number(),
    /** Flesch reading ease, 0..100 (higher is easier). */
    readability: z.number(),
  }),
  timing: z.object({
    ttfbMs: z.number().nullable(),
    fcpMs: z.number().nullable(),
    lcpMs: z.number().nullable(),
    /** The element that painted the LCP, selector-like ("img#hero", "section.hero>h1"); absent in captures stored without it. */
    lcpElement: z.string().nullable().optional(),
    cls: z.number().nullable(),
    domContentLoadedMs: z.number().nullable(),
    loadMs: z.number().nullable(),
    /**
     * Speed Index (ms) of the capture's own load: ∫(1 − visual progress) dt from navigation start,
     * progress from the filmstrip frames' colour histograms against the last frame, as speedline
     * computes it for Lighthouse (capture/filmstrip/speed-index.ts). null: not measured
     * (`measuredBy.speedIndex.reason` says why); absent in older captures (not measured).
     */
    speedIndexMs: z.number().nullable().optional(),
    /** When the same frames first reached 100 % visual progress (ms after navigation start); null/absent as speedIndexMs. */
    visuallyCompleteMs: z.number().nullable().optional(),
    /**
     * Total Blocking Time (ms) of the capture's own load: Σ (duration − 50 ms) over main-thread tasks
     * longer than 50 ms between FCP and the moment the vitals are read (load fired, first paint and
     * the images in view painted; capture/timing/blocking-time.ts). null/absent as speedIndexMs.
     */
    tbtMs: z.number().nullable().optional(),
    /** How speedIndexMs (with visuallyCompleteMs) and tbtMs were measured (`method`), or why each is null (`reason`). Absent in older captures. */
    measuredBy: z
      .object({
        speedIndex: z.object({ method: z.string().nullable(), reason: z.string().nullable() }),
        tbt: z.object({ method: z.string().nullable(), reason: z.string().nullable() }),
      })
      .optional(),
    bytes: z.number(),
    requests: z.number(),
    /** Largest single resource, to explain a slow LCP. */
    largestResource: z.object({ url: z.string(), bytes: z.number(), type: z.string() }).nullable(),
    /**
     * Each load the figures above were taken from (they are the medians): the capture's own load
     * and extra light loads in fresh contexts (no cache, no scroll, no screenshot), or in their
     * stead loads of the same page measured by captures within the last hour (`fromRunAt`). Absent
     * in captures stored with one sample.
     */
    samples: z
      .array(
        z.object({
          ttfbMs: z.number().nullable(),
          fcpMs: z.number().nullable(),
          lcpMs: z.number().nullable(),
          cls: z.number().nullable(),
          lcpElement: z.string().nullable(),
          /** When this load was measured by an earlier capture of the same page (ISO time); absent for this capture's own loads. */
          fromRunAt: z.string().optional(),
        }),
      )
      .optional(),
    /** Lowest and highest value of each metric over the samples (null when no sample had it). */
    spread: z
      .object({
        ttfbMs: rangeSchema.nullable(),
        fcpMs: rangeSchema.nullable(),
        lcpMs: rangeSchema.nullable(),
        cls: rangeSchema.nullable(),
        domContentLoadedMs: rangeSchema.nullable(),
        loadMs: rangeSchema.nullable(),
      })
      .optional(),
    /**
     * How the samples were loaded: "unthrottled" (this machine's own network and CPU) or
     * "lighthouse-mobile" (Lighthouse's mobile preset through the DevTools protocol: 562.5 ms
     * request latency, 1.47 Mbps down, 675 kbps up, 4x CPU slowdown). Absent in captures stored without it (unthrottled).
     */
    profile: z.enum(["unthrottled", "lighthouse-mobile"]).optional(),
    /**
     * The browser every sample was loaded in, as it names itself ("Chromium headless shell
     * 156.0.8078.79", "Chromium 156.0.8078.79 (desktop build)"): the shell paints sooner than the
     * desktop build. Absent in captures stored without it.
     */
    browser: z.string().optional(),
  }),
  accessibility: z.object({
    /** Text runs below WCAG AA contrast, worst first. */
    lowContrast: z.array(
      z.object({
        text: z.string(),
        ratio: z.number(),
        required: z.number(),
        fg: z.string(),
        bg: z.string(),
        /** "css": both colours from computed styles (`fg` with every opacity applied over `bg`); "pixels": `bg` is the worst tenth of the pixels painted behind the text in the screenshot and `fg` the text as painted over it (translucency blended). Absent in captures stored without it (css). */
        method: z.enum(["css", "pixels"]).optional(),
      }),
    ),
    /** Contrast of the dominant body text against its background. */
    bodyContrast: z.number().nullable(),
    /**
     * Elements failing axe-core's `image-alt`: null in a capture that was not audited (a page is
     * audited once, on its desktop capture); hand-counted in captures stored before the audit.
     */
    imagesWithoutAlt: z.number().nullable(),
    /** Elements failing axe-core's `label` and `select-name`; null and hand-counted as `imagesWithoutAlt`. */
    inputsWithoutLabel: z.number().nullable(),
    /**
     * axe-core's audit of the settled page (decision 0015), on the page's desktop capture only;
     * absent in its other captures and in captures stored before the audit.
     */
    audit: accessibilityAuditSchema.optional(),
  }),
  /** Requests that failed or got an error status (not the page's own document); absent in captures stored without it. */
  network: z
    .object({
      /** The first failures, in the order they happened (bounded; URLs capped). */
      failed: z.array(z.object({ url: z.string(), type: z.string(), reason: z.string() })),
      /** Every failure seen, including those beyond the bounded list. */
      failedCount: z.number(),
    })
    .optional(),
  /** Console errors and uncaught exceptions, first of each distinct text (bounded); absent in captures stored without it. */
  console: z.array(z.object({ level: z.enum(["error", "exception"]), text: z.string() })).optional(),
  /** What the capture did about a consent banner; absent in captures made without consent handling. */
  consent: consentRecordSchema.optional(),
  /**
   * Regions (CSS px of the full-page screenshot) left out of the DOM measurements, findings,
   * similarity and change detection: consent banners still on screen (kept, or no rule could
   * answer them). Absent or empty: nothing masked.
   */
  masks: z.array(boxSchema).optional(),
});
export type Extraction = z.infer<typeof extractionSchema>;

export const similarityScoresSchema = z.object({
  colorSimilarity: z.number(),
  layoutSimilarity: z.number(),
  contentSimilarity: z.number(),
  /**
   * Colour, layout (structure and pixels) and typography only — no text: the same design with other
   * words stays alike. The API fills it on every diff (older rows from their parts); optional only
   * so that clients written before it existed still type-check.
   */
  designSimilarity: z.number().optional(),
  /** 0.7 designSimilarity + 0.3 contentSimilarity (docs/decisions/0002-similarity-blend.md). */
  overallSimilarity: z.number(),
});
export type SimilarityScores = z.infer<typeof similarityScoresSchema>;

export const findingGroupSchema = z.enum(["design", "ux", "copy", "timing"]);
export type FindingGroup = z.infer<typeof findingGroupSchema>;

export const findingSchema = z.object({
  id: z.string(),
  group: findingGroupSchema,
  severity: z.enum(["high", "medium", "low"]),
  /** Target the finding is about (the one that should change). */
  targetId: z.string(),
  viewport: viewportSchema,
  title: z.string(),
  /** The measured values behind it, e.g. { "Alpha LCP": "3.4 s", "Beta LCP": "1.1 s" } */
  evidence: z.record(z.string(), z.string()),
  fix: z.string(),
  source: z.enum(["rules", "llm"]),
  /** The rule that found it: an axe-core rule id for accessibility findings ("image-alt"), the engine's own otherwise; absent for AI suggestions and older findings. */
  rule: z.string().optional(),
});
export type Finding = z.infer<typeof findingSchema>;

/**
 * A stored captured page as findings and scoring see it: one target at one viewport, what its
 * capture measured, and its screenshot on disk.
 */
export interface Snapshot {
  targetId: string;
  label: string;
  url: string;
  viewport: Viewport;
  extraction: Extraction;
  screenshotPath: string;
  /** The stored snapshot's id, and the earlier runs' samples its capture was given (for more timing loads). */
  snapshotId?: string;
  earlierSamples?: EarlierSample[];
  /** The site's page captured (pages per site), its role, and the colour scheme it was captured in; absent: the home page, light. */
  pageId?: string;
  role?: PageRole;
  colorScheme?: ColorScheme;
}
