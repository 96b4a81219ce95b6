// What other modules may use of capture besides its model: font-name normalisation (analysis
// compares families the same way capture records them) and the SSRF guard for anything the server
// fetches (comparison targets, alert webhooks).
export { familySlug, isGenericFamily, normaliseFamily } from "./font-names";
export { checkHost, checkTargetUrl, parseTargetUrl, systemResolver, type HostVerdict, type Resolver } from "./ssrf";
// Where the load filmstrip recorded beside a screenshot lives, and its manifest (served by the filmstrip module).
export { filmstripDirFor, filmstripManifestSchema, MANIFEST_FILE, type FilmstripManifest } from "./filmstrip";
// Recent captures' timing samples, handed back to a capture of the same page (the comparison run reads them).
export {
  EARLIER_SAMPLES_MAX_AGE_MS,
  MAX_SAMPLES,
  TIMING_PROFILES,
  type EarlierSample,
  type TimingProfile,
  type TimingSummary,
} from "./timing-samples";
export type { Vitals } from "./page/types";
// The capture's context options, so the CLI's second look at a page (ignore selectors) sees what the capture saw.
export { captureContextOptions } from "./capture-context";
