// The light part of analysis other modules use directly: capture summarises each screenshot as it
// lands and names its palette roles, watch compares colours, pixels and timings between runs. Kept apart from index.ts so these
// callers do not load the whole findings engine.
export { deltaE2000Hex, hexToRgb } from "./color";
export { paletteRoles, type PaletteRoles } from "./color-roles";
export { TIMING_MIN_GAP_MS, timingFindingReach } from "./findings/timing";
export { bytes, ms } from "./format";
export { decodePng, type RgbaImage } from "./image";
export { summariseScreenshot, type RowSink, type ScreenshotSummary } from "./screenshot-summary";
export { designFromParts } from "./similarity";
