// What other modules may use of comparisons: the runs and files history reads back, and the
// viewports and pages a run covers (watch and history both need them).
export { screenshotFiles, type ScreenshotFiles } from "./files";
export { comparisonsRepository, type RunRow } from "./repository";
export { RUN_VIEWPORTS, pagesInRun } from "./active-runs";
export { toDiffDto, toFindingDto, toSnapshotDto } from "./service";
export { contentKey, fileSha256, isScreenshotKey, pngSize, putFilmstrip } from "./files";
export type { CaptureJobInput, CaptureResult, StoredScreenshot } from "./run/tools";
