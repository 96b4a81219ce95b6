// The page script's texts. From source they are built on first use, once per process (under 100 ms
// idle), so an edit to a gatherer is live at the next run without a build step. scripts/build-binary.ts
// replaces this module with one that returns the texts built at build time: the executable carries
// no sources to build from.

import { buildPageBundles, type PageBundles } from "./page-bundle-build";

let built: Promise<PageBundles> | null = null;

export function pageBundles(): Promise<PageBundles> {
  if (!built) {
    built = buildPageBundles();
    built.catch(() => (built = null)); // a failed build is tried again by the next capture
  }
  return built;
}
