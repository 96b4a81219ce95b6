// Runs axe-core in a captured page (decision 0015). axe's source is evaluated into the page the
// first time it is needed, the way the page script is, inside a scope where the page's own AMD
// `define` and CommonJS `module` cannot capture it, and moved to AXE_GLOBAL so a page that has its
// own `window.axe` keeps it. The page script's `audit` runs it and keeps the summary its
// accessibility gatherer reports.

import type { Page } from "playwright-core";
import { AXE_GLOBAL } from "../page/global";
import { axeSource } from "./axe-source";
import { callPage } from "./page-script";

/** How long axe may take on one page; past it the page is reported unaudited. */
export const AXE_TIMEOUT_MS = 20_000;

/** axe's source wrapped for the page: no module system sees it, and `window.axe` stays the page's. */
export function wrapAxe(source: string): string {
  return `(function () {
var hadAxe = "axe" in window, pageAxe = window.axe;
(function (define, module, exports) {
${source}
})();
window[${JSON.stringify(AXE_GLOBAL)}] = window.axe;
if (hadAxe) window.axe = pageAxe; else delete window.axe;
})();`;
}

let wrapped: Promise<string> | null = null;
const wrappedAxe = () => (wrapped ??= axeSource().then(wrapAxe));

/** Runs the audit; its outcome reaches the extraction through the next `measure`. */
export async function auditPage(page: Page, timeoutMs = AXE_TIMEOUT_MS): Promise<"done" | "failed" | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));
  const run = async (): Promise<"done" | "failed"> => {
    let outcome = await callPage(page, "audit", undefined);
    if (outcome === "no-axe") {
      await page.evaluate(await wrappedAxe());
      outcome = await callPage(page, "audit", undefined);
    }
    return outcome === "no-axe" ? "failed" : outcome;
  };
  // A failure here (a document replaced meanwhile, say) leaves the page unaudited, not the capture failed.
  const running = run().catch((): "failed" => "failed");
  try {
    return await Promise.race([running, late]);
  } finally {
    clearTimeout(timer);
  }
}
