// Bundles the page script (page/entry.ts, the gatherers and the libraries they use) into one
// classic browser script. scripts/build-binary.ts runs this at build time and embeds the text; from
// source, page-bundle.ts runs it on first use.

import { join } from "node:path";

export const PAGE_ENTRY = join(import.meta.dir, "page", "entry.ts");

export async function buildPageBundle(): Promise<string> {
  const result = await Bun.build({
    entrypoints: [PAGE_ENTRY],
    target: "browser",
    // A classic script: init scripts and page.evaluate take no modules.
    format: "iife",
    // Names are kept so an error inside a captured page names the gatherer that threw.
    minify: { whitespace: true, syntax: true, identifiers: false },
    sourcemap: "none",
  });
  if (!result.success || result.outputs.length !== 1) {
    throw new Error(`page script build failed: ${result.logs.map((l) => l.message).join("; ") || "no output"}`);
  }
  return result.outputs[0]!.text();
}
