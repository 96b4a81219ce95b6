// Runs axe-core in a captured page (decision 0015). axe's source is evaluated into the page the
// first time it is needed, inside a scope where the page's own AMD `define` and CommonJS `module`
// cannot capture it, and moved to AXE_GLOBAL so a page that has its own `window.axe` keeps it. The
// page script's `audit` runs it and answers with the summary.

import type { Page, Route } from "playwright-core";
import type { AuditAnswer } from "../page/axe-audit";
import { AXE_GLOBAL } from "../page/global";
import type { CaptureJob } from "../worker/protocol";
import { axeSource } from "./axe-source";
import { callPage } from "./page-script";

/** How long axe may take on one page; past it the page is reported unaudited. */
export const AXE_TIMEOUT_MS = 20_000;

/**
 * A page is audited once, on its desktop capture: accessibility findings are the page's (reported
 * once per site), and evaluating axe costs more than the audit itself. What only another width
 * shows (a menu button of the phone layout, say) is therefore not audited.
 */
export const auditsAccessibility = (job: Pick<CaptureJob, "viewport">) => job.viewport === "desktop";

/** The audit, and which of the last measurement's contrast probes axe left undecided (null: all of them). */
export type AuditOutcome = AuditAnswer;

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

/**
 * Where the page loads axe's source from when it can: a host that cannot resolve, answered by the
 * page's own route, so no request leaves the browser and no service worker (blocked anyway) sees it.
 */
const AXE_SCRIPT_URL = "https://axe.design-intel.invalid/axe.min.js";

/**
 * Loads axe's source as a script element. A script the page fetches is parsed and compiled off the
 * main thread while it streams in, which Runtime.evaluate does on it: loading and auditing took
 * 1 571 against 1 811 ms (medians of 24 audits of the fixture and corpus pages, alternated, at
 * load average 7-12), and the element was faster in 15 of the 24 pairs. False
 * where the page's CSP or Trusted Types refuse a script from another origin, or it did not run.
 */
async function loadAxeAsScript(page: Page): Promise<boolean> {
  const source = await wrappedAxe();
  const answer = (route: Route) => route.fulfill({ status: 200, contentType: "text/javascript", body: source });
  await page.route(AXE_SCRIPT_URL, answer);
  try {
    return await page.evaluate(
      ({ src, name }) =>
        new Promise<boolean>((resolve) => {
          try {
            const el = document.createElement("script");
            // Loaded is not enough: the script may have thrown before it got as far as axe.
            el.onload = () => (el.remove(), resolve(name in window));
            el.onerror = () => (el.remove(), resolve(false));
            el.src = src;
            (document.head ?? document.documentElement).append(el);
          } catch {
            resolve(false);
          }
        }),
      { src: AXE_SCRIPT_URL, name: AXE_GLOBAL },
    );
  } finally {
    await page.unroute(AXE_SCRIPT_URL, answer).catch(() => {});
  }
}

/**
 * Evaluates axe's source in the page's main world straight through DevTools (not subject to the
 * page's CSP): for pages that refuse the script element. Not page.evaluate: Playwright hands a
 * string to an `eval` inside its own helper script, which cost the browser about 150 ms more CPU
 * for axe's 650 KB than evaluating it as a script (830 vs 680 ms, medians of six on a loaded 2-core host).
 */
async function evaluateAxe(page: Page): Promise<void> {
  const session = await page.context().newCDPSession(page);
  try {
    const { exceptionDetails } = await session.send("Runtime.evaluate", { expression: await wrappedAxe(), silent: true });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description?.split("\n")[0] ?? exceptionDetails.text);
  } finally {
    await session.detach().catch(() => {});
  }
}

async function loadAxe(page: Page): Promise<void> {
  if (!(await loadAxeAsScript(page))) await evaluateAxe(page);
}

const unaudited = (error: string): AuditOutcome => ({
  audit: { engine: "axe-core", ms: 0, violations: [], incomplete: [], error },
  undecidedProbes: null,
});

/** Audits the page as it is now; never rejects: a page axe could not audit says why. */
export async function auditPage(page: Page, timeoutMs = AXE_TIMEOUT_MS): Promise<AuditOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<AuditOutcome>(
    (resolve) => (timer = setTimeout(() => resolve(unaudited("axe-core did not finish in time")), timeoutMs)),
  );
  const run = async (): Promise<AuditOutcome> => {
    let answer = await callPage(page, "audit", undefined);
    if (answer === "no-axe") {
      await loadAxe(page);
      answer = await callPage(page, "audit", undefined);
    }
    return answer === "no-axe" ? unaudited("axe-core could not be loaded into this page") : answer;
  };
  // A failure here (a document replaced meanwhile, say) leaves the page unaudited, not the capture failed.
  const running = run().catch((e: unknown) => unaudited(`axe-core failed: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300)));
  try {
    return await Promise.race([running, late]);
  } finally {
    clearTimeout(timer);
  }
}
