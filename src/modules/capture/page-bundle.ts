// The page script's text. From source it is built on first use, once per process (under 100 ms idle),
// so an edit to a gatherer is live at the next run without a build step. scripts/build-binary.ts
// replaces this module with one that returns the text built at build time: the executable carries
// no sources to build from.

import { buildPageBundle } from "./page-bundle-build";

let built: Promise<string> | null = null;

export function pageBundle(): Promise<string> {
  if (!built) {
    built = buildPageBundle();
    built.catch(() => (built = null)); // a failed build is tried again by the next capture
  }
  return built;
}
