// What the capture takes from @duckduckgo/autoconsent: its content script built for Playwright
// (dist/autoconsent.playwright.js, a classic script that talks to us through two globals) and its
// rules (rules/rules.json: the declarative consent-platform rules; the rules written as code are
// inside the script). From source both are read from the installed package on first use;
// scripts/build-binary.ts replaces this module with one returning the texts it read at build time,
// since the executable carries no node_modules.

import { dirname, join } from "node:path";

export interface ConsentAssets {
  /** The content script's text. */
  script: string;
  /** rules/rules.json's text. */
  rules: string;
}

/** The package's files, read now (the build embeds what this returns). */
export async function readConsentAssets(): Promise<ConsentAssets> {
  // The package exports its ES build and its rules; the Playwright build sits beside the former.
  const dist = dirname(Bun.resolveSync("@duckduckgo/autoconsent", import.meta.dir));
  const [script, rules] = await Promise.all([
    Bun.file(join(dist, "autoconsent.playwright.js")).text(),
    Bun.file(Bun.resolveSync("@duckduckgo/autoconsent/rules/rules.json", import.meta.dir)).text(),
  ]);
  return { script, rules };
}

let read: Promise<ConsentAssets> | null = null;

export function consentAssets(): Promise<ConsentAssets> {
  if (!read) {
    read = readConsentAssets();
    read.catch(() => (read = null)); // tried again by the next capture
  }
  return read;
}
