export const ZOOMS = ["fit", "50", "100"] as const;
export type Zoom = (typeof ZOOMS)[number];
export const ZOOM_LABELS: Record<Zoom, string> = { fit: "Fit", "50": "50 %", "100": "100 %" };
export const isZoom = (v: string | null): v is Zoom => (ZOOMS as readonly string[]).includes(v ?? "");

/** Displayed width of a page `cssWidth` wide: the panel's width at Fit, else that share of its natural width. */
export function displayedWidth(zoom: Zoom, cssWidth: number, panelWidth: number): number {
  if (zoom === "fit") return panelWidth > 0 ? Math.min(panelWidth, cssWidth) : cssWidth;
  return cssWidth * (zoom === "50" ? 0.5 : 1);
}

export const MODES = ["side", "slider", "onion"] as const;
export type CompareMode = (typeof MODES)[number];
export const MODE_LABELS: Record<CompareMode, string> = { side: "Side by side", slider: "Slider", onion: "Onion skin" };
export const isMode = (v: string | null): v is CompareMode => (MODES as readonly string[]).includes(v ?? "");
