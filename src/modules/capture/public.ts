// What other modules may use of capture besides its model: font-name normalisation (analysis
// compares families the same way capture records them) and the SSRF guard for anything the server
// fetches (comparison targets, alert webhooks).
export { familySlug, isGenericFamily, normaliseFamily } from "./fonts/font-names";
export { checkHost, checkTargetUrl, parseTargetUrl, systemResolver, type HostVerdict, type Resolver } from "./browser/ssrf";
// Where the load filmstrip recorded beside a screenshot lives, and its manifest (served by the filmstrip module).
export { filmstripDirFor, filmstripManifestSchema, MANIFEST_FILE, type FilmstripManifest } from "./filmstrip/filmstrip";
// The palette roles a capture names (analysis compares them, and names them for captures stored without).
export { paletteRoles, type PaletteRoles } from "./phases/palette-roles";
// Recent captures' timing samples, handed back to a capture of the same page (the comparison run
// reads them), and the smallest timing gaps worth a finding (analysis's timing rules use them).
export {
  EARLIER_SAMPLES_MAX_AGE_MS,
  MAX_SAMPLES,
  TIMING_MIN_GAP_MS,
  TIMING_PROFILES,
  type EarlierSample,
  type TimingProfile,
  type TimingSummary,
} from "./timing/timing-samples";
export type { Vitals } from "./page/types";
// A site's login shared by the pages of one run (one StepSessions a run; steps/sessions.ts). Which
// of a page's steps are its login (loginPrefixLength) and the step types come with the model.
export { createStepSessions, type StepSessions, type SubmitCapture } from "./steps/sessions";
// How ready the capture pool is (the health check reports it), and what it is asked and answers (a run's tools).
export type { CaptureJobInput, CaptureReadiness, CaptureResult, TimingJobInput, TimingResult } from "./browser/pool";
// Which of the pool's answers are its own trouble, not the page's (a capture job retries those elsewhere).
export { isPoolFault } from "./browser/pool";
// The capture's context options, so the CLI's second look at a page (ignore selectors) sees what the capture saw.
export { captureContextOptions } from "./browser/capture-context";
// What moves on a page by itself, as a capture records it (change detection reads it).
export {
  emptyVolatility,
  mergeVolatility,
  volatilityOf,
  withVolatility,
  type Volatility,
  type WithVolatility,
} from "./watchers/volatility";
