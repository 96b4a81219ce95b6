// Overlay boxes are measured in the page's CSS px; the screenshot is shown at whatever width the
// panel has. Positioning boxes in percent of the page frame makes them follow the image at any size.
import type { Box, Extraction, Viewport } from "#server/modules/capture/model";
import type { SnapshotDto } from "#server/modules/comparisons/model";

/**
 * Mirrors VIEWPORTS in src/modules/capture/model (web/ may import only types from src/): the width
 * is a fallback for snapshots without a pixel size, the height is where the fold sits.
 */
export const VIEWPORT_SIZE: Record<Viewport, { width: number; height: number }> = {
  desktop: { width: 1440, height: 900 },
  mobile: { width: 390, height: 844 },
};

export interface PageFrame {
  /** Width and height of the screenshot in page CSS px. */
  cssWidth: number;
  cssHeight: number;
}

/**
 * The screenshot's size in CSS px. The image may be taken at a device pixel ratio above 1, which
 * the captured height (CSS px) against the image height (pixels) reveals.
 */
export function pageFrame(
  snapshot: Pick<SnapshotDto, "width" | "height" | "viewport"> & { extraction: Pick<Extraction, "capturedHeight"> | null },
): PageFrame {
  // A page whose steps stopped has no extraction: its screenshot is the viewport where it stopped.
  const captured = snapshot.extraction?.capturedHeight ?? 0;
  const { width, height } = snapshot;
  if (width > 0 && height > 0) {
    const ratio = captured > 0 ? height / captured : 1;
    const dpr = ratio >= 0.95 ? ratio : 1;
    return { cssWidth: width / dpr, cssHeight: height / dpr };
  }
  const cssWidth = VIEWPORT_SIZE[snapshot.viewport].width;
  return { cssWidth, cssHeight: captured > 0 ? captured : cssWidth };
}

export interface PercentBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A CSS-px box as percentages of the frame, clipped to it; null when nothing of it is visible. */
export function toPercentBox(box: Box, frame: PageFrame): PercentBox | null {
  const x0 = Math.max(0, box.x);
  const y0 = Math.max(0, box.y);
  const x1 = Math.min(frame.cssWidth, box.x + box.width);
  const y1 = Math.min(frame.cssHeight, box.y + box.height);
  if (x1 <= x0 || y1 <= y0 || frame.cssWidth <= 0 || frame.cssHeight <= 0) return null;
  return {
    left: (x0 / frame.cssWidth) * 100,
    top: (y0 / frame.cssHeight) * 100,
    width: ((x1 - x0) / frame.cssWidth) * 100,
    height: ((y1 - y0) / frame.cssHeight) * 100,
  };
}

export interface HeadingAnnotation {
  level: number;
  text: string;
  box: Box;
  /** "Inter 48px / 700" when the typography scan measured this heading. */
  font: string | null;
}

const family = (f: string) => f.split(",")[0]!.replace(/["']/g, "").trim() || f;

/**
 * Pairs each positioned heading with its measured font. Both lists come from the same page scan in
 * document order, so the n-th h2 in one is the n-th h2 in the other.
 */
export function headingAnnotations(ex: Pick<Extraction, "elements" | "typography">): HeadingAnnotation[] {
  const byLevel = new Map<number, Extraction["typography"]["headings"]>();
  for (const h of ex.typography.headings) byLevel.set(h.level, [...(byLevel.get(h.level) ?? []), h]);
  const used = new Map<number, number>();
  return ex.elements.headings.map((h) => {
    const n = used.get(h.level) ?? 0;
    used.set(h.level, n + 1);
    const t = byLevel.get(h.level)?.[n];
    return {
      level: h.level,
      text: h.text,
      box: h.box,
      font: t ? `${family(t.family)} ${Math.round(t.sizePx)}px / ${t.weight}` : null,
    };
  });
}

export const fontName = family;
