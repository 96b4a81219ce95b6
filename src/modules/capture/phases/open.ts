// The capture's first phase: open the page in a fresh browser context behind the egress proxy,
// start watching it (network quiet, problems, requests and bytes, the load filmstrip) and navigate
// to it. Ends once the document has loaded its DOM and answered with a status the capture accepts.

import type { Browser, BrowserContext, Page } from "playwright-core";
import { browserLabel } from "../browser/browser-label";
import { openCaptureContext } from "../browser/capture-context";
import { startCaptureEgress, type EgressDeps } from "../browser/capture-egress";
import { BLOCKED_HEADER, type EgressProxy } from "../browser/egress-proxy";
import { SSRF_MESSAGES } from "../browser/ssrf";
import { watchConsent, type ConsentWatch } from "../consent/consent";
import { recordFilmstrip, type FilmstripRecorder } from "../filmstrip/filmstrip";
import { VIEWPORTS } from "../model";
import { watchNetworkQuiet, type NetworkQuiet } from "../watchers/network-quiet";
import { trackNetwork, type NetworkTotals } from "../watchers/network-totals";
import { watchPageProblems, type PageProblems } from "../watchers/page-problems";
import type { CaptureJob, CaptureStage } from "../worker/protocol";
import { CaptureError } from "./capture-error";
import { seconds, type CaptureLifetime } from "./lifetime";

/** The guard's DNS and rule (tests swap them), the proxy's address for a remote browser, and whether to audit. */
export type CaptureDeps = EgressDeps & {
  /** Leaves axe-core out (bench/axe.bench.ts measures what it adds); the page is then reported unaudited. */
  skipAudit?: boolean;
};

/** A page the capture has opened and navigated, with everything watching it. */
export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /** Another context through the same egress rules: the light timing loads run in these. */
  openContext: () => Promise<BrowserContext>;
  /** Races a step against the tab crashing (a crash fails the capture with its own reason). */
  race: <T>(p: Promise<T>) => Promise<T>;
  quiet: NetworkQuiet;
  problems: PageProblems;
  network: NetworkTotals;
  filmstrip: FilmstripRecorder;
  /** Which browser measured the page, asked alongside the load; never rejects. */
  measuredIn: Promise<string>;
  /** The consent banner handling started with the page (the job's policy); null when the job asks for none. */
  consent: ConsentWatch | null;
}

export async function openPage(
  browser: Browser,
  job: CaptureJob,
  onStage: (stage: CaptureStage) => void,
  deps: CaptureDeps,
  lifetime: CaptureLifetime,
): Promise<OpenedPage> {
  const { guard, proxy } = await startCaptureEgress(job.allowPrivate, deps);
  if (proxy) lifetime.holdProxy(proxy);
  await lifetime.stopIfLate();
  const blocked = proxy?.blocked ?? [];

  // Asked alongside the page's load (one DevTools round trip, the first time per browser).
  const measuredIn = browserLabel(browser);
  // Every context of this capture (the page's, and the light timing loads') goes through the same guard.
  const openContext = () => openCaptureContext(browser, job.viewport, { proxy, guard, blocked }, job.colorScheme);
  const context = await openContext();
  lifetime.holdContext(context);
  await lifetime.stopIfLate(); // the limit passed while the context was being made
  // A login another capture of this run did (steps/sessions.ts): its cookies and storage, before the first document.
  if (job.session) await context.setStorageState(job.session.state);

  // Before the page exists, so the consent script is in its first document.
  const consent = job.consent ? await watchConsent(context, job.consent, job.url) : null;
  const page = await context.newPage();
  const crashed = new Promise<never>((_, reject) =>
    page.once("crash", () => reject(new CaptureError("The browser tab crashed while rendering this page"))),
  );
  crashed.catch(() => {});
  const race = <T>(p: Promise<T>) => Promise.race([p, crashed]);
  const quiet = watchNetworkQuiet(page);
  const problems = watchPageProblems(page);
  // Two DevTools sessions, opened side by side: each is a few round trips to a busy browser.
  const [network, filmstrip] = await Promise.all([
    trackNetwork(context, page),
    recordFilmstrip(context, page, job.screenshotPath, VIEWPORTS[job.viewport].mobile),
  ]);
  lifetime.holdFilmstrip(filmstrip.saved);

  const opened: OpenedPage = { page, context, openContext, race, quiet, problems, network, filmstrip, measuredIn, consent };
  await navigate(opened, job, onStage, blocked, lifetime);
  return opened;
}

async function navigate(
  { page, race }: OpenedPage,
  job: CaptureJob,
  onStage: (stage: CaptureStage) => void,
  blocked: EgressProxy["blocked"],
  lifetime: CaptureLifetime,
): Promise<void> {
  onStage("navigating");
  const navTimeoutMs = Math.max(1000, Math.min(job.navigationTimeoutMs, lifetime.remaining()));
  const response = await race(page.goto(job.url, { waitUntil: "domcontentloaded", timeout: navTimeoutMs })).catch((err) => {
    if (err instanceof CaptureError || lifetime.timedOut()) throw err;
    const failure = navigationFailure(err, job, blocked, navTimeoutMs);
    // When the total limit is what cut navigation short, say so rather than quote a shorter limit.
    if (navTimeoutMs < job.navigationTimeoutMs && failure.message.startsWith("The page did not finish loading")) {
      throw new CaptureError(lifetime.limitMessage);
    }
    throw failure;
  });
  if (response) {
    const headers = response.headers();
    if (headers[BLOCKED_HEADER]) throw new CaptureError(`Blocked: ${blocked[0]?.reason ?? SSRF_MESSAGES.private}`);
    // A page behind a sign-in may answer 401 or 403 with its form: the page's steps are there to sign in.
    if (response.status() >= 400 && !(job.steps?.length && (response.status() === 401 || response.status() === 403))) {
      throw new CaptureError(`The site answered HTTP ${response.status()}${response.statusText() ? ` ${response.statusText()}` : ""}`);
    }
  }
}

/** Turns Playwright/Chromium navigation errors into something a user can act on. */
function navigationFailure(err: unknown, job: CaptureJob, blocked: EgressProxy["blocked"], navTimeoutMs: number): CaptureError {
  const message = err instanceof Error ? err.message : String(err);
  if (blocked.length > 0 && /ERR_BLOCKED_BY_CLIENT|ERR_TUNNEL_CONNECTION_FAILED|ERR_FAILED|ERR_ABORTED/.test(message)) {
    return new CaptureError(`Blocked: ${blocked[0]!.reason} (${blocked[0]!.host})`);
  }
  if (/Timeout|timed out/i.test(message)) return new CaptureError(`The page did not finish loading within ${seconds(navTimeoutMs)}`);
  const code = /net::(ERR_[A-Z_]+)/.exec(message)?.[1];
  switch (code) {
    case "ERR_NAME_NOT_RESOLVED":
      return new CaptureError("The site's domain name does not resolve");
    case "ERR_CONNECTION_REFUSED":
      return new CaptureError("The site refused the connection");
    case "ERR_CONNECTION_RESET":
    case "ERR_CONNECTION_CLOSED":
    case "ERR_EMPTY_RESPONSE":
      return new CaptureError("The site closed the connection without answering");
    case "ERR_CONNECTION_TIMED_OUT":
    case "ERR_TIMED_OUT":
      return new CaptureError(`The page did not finish loading within ${seconds(navTimeoutMs)}`);
    case "ERR_TOO_MANY_REDIRECTS":
      return new CaptureError("The page redirects in a loop");
    case undefined:
      break;
    default:
      if (code.startsWith("ERR_CERT") || code.startsWith("ERR_SSL")) return new CaptureError("The site's HTTPS certificate is not valid");
      return new CaptureError(`Could not open ${job.url} (${code})`);
  }
  return new CaptureError(`Could not open ${job.url}: ${message.split("\n")[0]}`);
}
