// What the roles wire: the run side's capture and time tools (a serve or scheduler driving runs), the
// worker side's job handlers (a worker with a capture pool), and the prune the scheduler runs.
export { jobCaptureTools, type JobCaptureDeps, type JobCaptureTools } from "./run-side";
export { captureJobHandlers, type CaptureWorkerDeps } from "./worker";
export { pruneCaptureResults, KEEP_UNREAD_MS, type PruneDeps } from "./retention";
export { CAPTURE_KIND, CAPTURE_MAX_ATTEMPTS, TIME_KIND } from "./model";
export { CAPTURE_CHANNEL } from "./signals";
