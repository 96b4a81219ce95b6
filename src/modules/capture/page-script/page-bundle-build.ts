// Bundles the page script into classic browser scripts: the early part (page/early-entry.ts, the
// init script) and the whole (page/entry.ts: the gatherers and the libraries they use), each
// self-contained. scripts/build-binary.ts runs this at build time and embeds the texts; from
// source, page-bundle.ts runs it on first use. The sources are in ../page.

import { join } from "node:path";

export const PAGE_ENTRY = join(import.meta.dir, "..", "page", "entry.ts");
export const EARLY_PAGE_ENTRY = join(import.meta.dir, "..", "page", "early-entry.ts");

export interface PageBundles {
  /** Installed in every document before its own scripts. */
  early: string;
  /** Evaluated into the page when the capture first calls a gatherer. */
  full: string;
}

async function bundle(entry: string, keepNames: boolean): Promise<string> {
  const result = await Bun.build({
    entrypoints: [entry],
    target: "browser",
    // A classic script: init scripts and page.evaluate take no modules.
    format: "iife",
    // The gatherers keep their names, so an error inside a captured page names the one that threw;
    // the early part is parsed on every load, before the page's own scripts, so it is kept small.
    minify: { whitespace: true, syntax: true, identifiers: !keepNames },
    sourcemap: "none",
  });
  if (!result.success || result.outputs.length !== 1) {
    throw new Error(`page script build failed: ${result.logs.map((l) => l.message).join("; ") || "no output"}`);
  }
  return result.outputs[0]!.text();
}

export async function buildPageBundles(): Promise<PageBundles> {
  const [early, full] = await Promise.all([bundle(EARLY_PAGE_ENTRY, false), bundle(PAGE_ENTRY, true)]);
  return { early, full };
}
