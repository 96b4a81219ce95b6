// The contract between the capture worker (which measures a page), the analysis code (which
// compares pages) and the comparisons module (which stores both). Change it in one place only.

export type Viewport = "desktop" | "mobile";

export const VIEWPORTS: Record<Viewport, { width: number; height: number; mobile: boolean }> = {
  desktop: { width: 1440, height: 900, mobile: false },
  mobile: { width: 390, height: 844, mobile: true },
};

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PaletteEntry {
  /** "#rrggbb" */
  hex: string;
  /** Fraction of sampled pixels, 0..1 */
  share: number;
}

export interface Extraction {
  url: string;
  finalUrl: string;
  viewport: Viewport;
  title: string;
  metaDescription: string;
  /** Full-page height in CSS px before the cap. */
  pageHeight: number;
  /** Height actually captured (capped). */
  capturedHeight: number;
  palette: {
    /** Dominant colours from the screenshot's pixels, most prominent first. */
    dominant: PaletteEntry[];
    /** Computed colours from the DOM, weighted by painted area. */
    text: PaletteEntry[];
    background: PaletteEntry[];
    buttons: PaletteEntry[];
    /** Page background luminance decided from pixels: dark pages are < 0.5 */
    isDark: boolean;
  };
  typography: {
    families: { family: string; share: number }[];
    /** Distinct font sizes in px with how much text uses each, largest first. */
    sizeScale: { px: number; share: number }[];
    weights: { weight: number; share: number }[];
    headings: { level: number; family: string; sizePx: number; weight: number; lineHeightPx: number }[];
    body: { family: string; sizePx: number; weight: number; lineHeightPx: number } | null;
  };
  layout: {
    regions: { kind: "header" | "nav" | "hero" | "section" | "footer" | "main" | "aside"; box: Box }[];
    /** Most common column count among content sections. */
    columns: number;
    /** Radius of buttons/cards in px (median), used as a design token. */
    radiusPx: number;
    /** Median vertical gap between sections in px. */
    spacingPx: number;
  };
  elements: {
    ctas: { text: string; box: Box; aboveFold: boolean; href: string | null; bg: string; fg: string }[];
    links: number;
    linksAboveFold: number;
    forms: { box: Box; inputs: number; aboveFold: boolean }[];
    inputs: number;
    images: number;
    imagesAboveFold: number;
    headings: { level: number; text: string; box: Box; aboveFold: boolean }[];
  };
  copy: {
    headline: string;
    visibleText: string;
    wordCount: number;
    /** Flesch reading ease, 0..100 (higher is easier). */
    readability: number;
  };
  timing: {
    ttfbMs: number | null;
    fcpMs: number | null;
    lcpMs: number | null;
    /** The element that painted the LCP, selector-like ("img#hero", "section.hero>h1"); absent in captures made before it was recorded. */
    lcpElement?: string | null;
    cls: number | null;
    domContentLoadedMs: number | null;
    loadMs: number | null;
    bytes: number;
    requests: number;
    /** Largest single resource, to explain a slow LCP. */
    largestResource: { url: string; bytes: number; type: string } | null;
  };
  accessibility: {
    /** Text runs below WCAG AA contrast, worst first. */
    lowContrast: { text: string; ratio: number; required: number; fg: string; bg: string }[];
    /** Contrast of the dominant body text against its background. */
    bodyContrast: number | null;
    imagesWithoutAlt: number;
    inputsWithoutLabel: number;
  };
}

export interface SimilarityScores {
  colorSimilarity: number;
  layoutSimilarity: number;
  contentSimilarity: number;
  overallSimilarity: number;
}

export type FindingGroup = "design" | "ux" | "copy" | "timing";

export interface Finding {
  id: string;
  group: FindingGroup;
  severity: "high" | "medium" | "low";
  /** Target the finding is about (the one that should change). */
  targetId: string;
  viewport: Viewport;
  title: string;
  /** The measured values behind it, e.g. { "Alpha LCP": "3.4 s", "Beta LCP": "1.1 s" } */
  evidence: Record<string, string>;
  fix: string;
  source: "rules" | "llm";
}
