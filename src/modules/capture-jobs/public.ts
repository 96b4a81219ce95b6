// What the roles wire: the run side's capture and time tools and its pair scoring (a serve or
// scheduler driving runs), the worker side's job handlers (a worker with a capture pool and an
// analyser), and the prune the scheduler runs.
export { jobCaptureTools, type JobCaptureDeps, type JobCaptureTools } from "./run-side";
export { jobAnalyser } from "./pair-side";
export { captureJobHandlers, type CaptureWorkerDeps } from "./worker";
export { pairJobHandlers, type PairWorkerDeps } from "./pair-worker";
export { storedCopies, type StoredCopies } from "./stored-copies";
export { pruneCaptureResults, KEEP_UNREAD_MS, type PruneDeps } from "./retention";
export { CAPTURE_KIND, CAPTURE_MAX_ATTEMPTS, PAIR_KIND, TIME_KIND } from "./model";
export { CAPTURE_CHANNEL } from "./signals";
