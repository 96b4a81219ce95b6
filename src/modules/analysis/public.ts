// The light part of analysis other modules use directly: change detection compares colours, pixels
// and timings between runs, a comparison run asks which pages a timing finding could reach and
// scores design from its parts. Kept apart from index.ts so these callers do not load the findings
// step. The colour and PNG helpers are
// src/lib/image's, offered here too for those callers.
export { deltaE2000Hex, hexToRgb } from "#server/lib/image/color";
export { timingFindingReach } from "./findings/timing";
export { bytes, ms } from "./format";
export { decodePng, type RgbaImage } from "#server/lib/image/image";
export { designFromParts } from "./similarity";
