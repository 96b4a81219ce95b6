export const OVERLAY_KINDS = ["colors", "layout", "typography", "elements"] as const;
export type OverlayKind = (typeof OVERLAY_KINDS)[number];
export const OVERLAY_LABELS: Record<OverlayKind, string> = {
  colors: "Colors",
  layout: "Layout",
  typography: "Typography",
  elements: "Elements",
};
