// Captures one page at one viewport: open it in a fresh browser context, let it settle, measure
// it, take a capped full-page screenshot and read the dominant colours from its pixels.

import { mkdir, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import type { GrayImage } from "#server/lib/image/image";
import { paletteRoles } from "./phases/palette-roles";
import { summariseScreenshot } from "./screenshot/screenshot-summary";
import type { CaptureJob } from "./worker/protocol";
import { CaptureError } from "./phases/capture-error";
import { BLOCKED_HEADER, startEgressProxy, type EgressProxy } from "./browser/egress-proxy";
import { VIEWPORTS, type Extraction } from "./model";
import { filmstripDirFor, recordFilmstrip } from "./filmstrip/filmstrip";
import { watchNetworkQuiet } from "./watchers/network-quiet";
import { watchPageProblems } from "./watchers/page-problems";
import { fontsNotLoaded, readDrawnFonts } from "./fonts/rendered-fonts";
import { createPaintedSampler, decideLowContrast } from "./screenshot/painted-contrast";
import { browserLabel } from "./browser/browser-label";
import { couldMatter, MAX_SAMPLES, sampleTiming, type TimingProfile } from "./timing/timing-samples";
import { SETTLE_WAITS, settleFirstPass, settleNetwork, type SettleDeps } from "./timing/settle-page";
import { callPage, type ResourceTotals } from "./page-script/page-script";
import { openCaptureContext } from "./browser/capture-context";
import { takeScreenshot } from "./screenshot/screenshot";
import { createHostGuard, SSRF_MESSAGES, systemResolver, type HostVerdict, type Resolver } from "./browser/ssrf";

export type CaptureStage = "navigating" | "settling" | "measuring" | "screenshot";

export { CaptureError };

export interface CaptureDeps {
  /** DNS used by the capture-time SSRF guard; tests swap it to simulate public names offline. */
  resolve?: Resolver;
  /** Overrides the address rule (tests); defaults to every resolved address being public. */
  checkHost?: (host: string) => Promise<HostVerdict>;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

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

/** Counts every request and byte the page pulls, across origins (resource timing can't see cross-origin sizes). */
async function trackNetwork(context: BrowserContext, page: Page) {
  const totals = { requests: 0, bytes: 0, largest: null as ResourceTotals["largestResource"] };
  const info = new Map<string, { url: string; type: string }>();
  let session: CDPSession | null = null;
  try {
    session = await context.newCDPSession(page);
    session.on("Network.requestWillBeSent", (e) => {
      if (!/^https?:/.test(e.request.url)) return;
      totals.requests++;
      info.set(e.requestId, { url: e.request.url, type: (e.type ?? "other").toLowerCase() });
    });
    session.on("Network.loadingFinished", (e) => {
      const bytes = Math.max(0, Math.round(e.encodedDataLength));
      totals.bytes += bytes;
      const meta = info.get(e.requestId);
      if (meta && (!totals.largest || bytes > totals.largest.bytes)) totals.largest = { url: meta.url, bytes, type: meta.type };
    });
    await session.send("Network.enable");
  } catch {
    session = null;
  }
  return {
    available: () => session !== null,
    totals,
    detach: () => session?.detach().catch(() => {}),
  };
}

async function writeAtomically(path: string, data: Buffer) {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await Bun.write(tmp, data);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

export async function capturePage(
  browser: Browser,
  job: CaptureJob,
  onStage: (stage: CaptureStage) => void,
  deps: CaptureDeps = {},
): Promise<{ extraction: Extraction; screenshotPath: string; thumb: GrayImage }> {
  const started = Date.now();
  const remaining = () => job.totalTimeoutMs - (Date.now() - started);
  const viewport = VIEWPORTS[job.viewport];
  let proxy: EgressProxy | null = null;
  let context: BrowserContext | null = null;
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const totalLimitMessage = `The capture took longer than ${seconds(job.totalTimeoutMs)} and was stopped`;

  // Memoised: Playwright's close() returns at once if a close is already under way, and we want
  // every caller to wait for the real end of the context.
  let contextClosed: Promise<void> | null = null;
  const closeContext = () => {
    const ctx = context as BrowserContext | null;
    if (!ctx) return Promise.resolve();
    contextClosed ??= ctx.close().catch(() => {});
    return contextClosed;
  };
  const cleanup = async (): Promise<never> => {
    await closeContext();
    await (proxy as EgressProxy | null)?.close().catch(() => {});
    throw new CaptureError("stopped");
  };

  // The filmstrip is written in the background; a capture that fails must not leave it writing (or
  // written) after it returns: its snapshot will never exist.
  let filmstripSaved: (() => Promise<unknown>) | null = null;
  const discardFilmstrip = async () => {
    await filmstripSaved?.().catch(() => null);
    await rm(filmstripDirFor(job.screenshotPath), { recursive: true, force: true }).catch(() => {});
  };

  const work = async () => {
    const guard = job.allowPrivate ? null : (deps.checkHost ?? createHostGuard(deps.resolve ?? systemResolver));
    if (guard) proxy = await startEgressProxy(guard);
    if (timedOut) return cleanup();
    const blocked = proxy?.blocked ?? [];

    // Asked alongside the page's load (one DevTools round trip, the first time per browser); never rejects.
    const measuredIn = browserLabel(browser);
    // Every context of this capture (the page's, and the light timing loads') goes through the same guard.
    const openContext = () => openCaptureContext(browser, job.viewport, { proxy, guard, blocked });
    const pageContext = await openContext();
    context = pageContext;
    if (timedOut) return cleanup(); // the deadline passed while the context was being made

    const page = await pageContext.newPage();
    const crashed = new Promise<never>((_, reject) =>
      page.once("crash", () => reject(new CaptureError("The browser tab crashed while rendering this page"))),
    );
    crashed.catch(() => {});
    const race = <T>(p: Promise<T>) => Promise.race([p, crashed]);
    const quiet = watchNetworkQuiet(page);
    const problems = watchPageProblems(page);
    // Two DevTools sessions, opened side by side: each is a few round trips to a busy browser.
    const [network, filmstrip] = await Promise.all([
      trackNetwork(pageContext, page),
      recordFilmstrip(pageContext, page, job.screenshotPath, viewport.mobile),
    ]);
    filmstripSaved = filmstrip.saved;

    // The mobile viewport may be timed under Lighthouse's mobile preset; the desktop never is.
    const profile: TimingProfile = job.viewport === "mobile" ? (job.mobileTimingProfile ?? "unthrottled") : "unthrottled";

    onStage("navigating");
    const navTimeoutMs = Math.max(1000, Math.min(job.navigationTimeoutMs, remaining()));
    const response = await race(page.goto(job.url, { waitUntil: "domcontentloaded", timeout: navTimeoutMs })).catch((err) => {
      if (err instanceof CaptureError || timedOut) throw err;
      const failure = navigationFailure(err, job, blocked, navTimeoutMs);
      // When the total limit is what cut navigation short, say so rather than quote a shorter limit.
      if (navTimeoutMs < job.navigationTimeoutMs && failure.message.startsWith("The page did not finish loading")) {
        throw new CaptureError(totalLimitMessage);
      }
      throw failure;
    });
    if (response) {
      const headers = response.headers();
      if (headers[BLOCKED_HEADER]) throw new CaptureError(`Blocked: ${blocked[0]?.reason ?? SSRF_MESSAGES.private}`);
      if (response.status() >= 400) {
        throw new CaptureError(`The site answered HTTP ${response.status()}${response.statusText() ? ` ${response.statusText()}` : ""}`);
      }
    }

    onStage("settling");
    const settleDeps: SettleDeps = {
      race,
      budget: () => Math.max(0, remaining() - 8000),
      loadBudget: () => job.navigationTimeoutMs - (Date.now() - started),
      quiet,
      filmstrip,
      maxY: job.maxHeightPx,
    };
    const { vitals, reached } = await settleFirstPass(page, settleDeps);

    // Most pages show now what they will show once their network is quiet: look at the page while
    // waiting for that, and look again only if something moved meanwhile (a request, a change to
    // the document, a second scroll; decision 0014).
    const look = async () => {
      onStage("measuring");
      const dom = await race(
        callPage(page, "measure", { maxY: job.maxHeightPx, viewportWidth: viewport.width, viewportHeight: viewport.height }),
      );
      const drawn = await race(readDrawnFonts(pageContext, page));
      onStage("screenshot");
      const capturedHeight = Math.max(1, Math.min(dom.pageHeight, job.maxHeightPx));
      const png = await race(
        takeScreenshot(pageContext, page, {
          width: viewport.width,
          height: capturedHeight,
          viewportWidth: viewport.width,
          viewportHeight: viewport.height,
          mobile: viewport.mobile,
        }),
      );
      return { dom, drawn, capturedHeight, png };
    };
    const networkEvents = quiet.events();
    await race(callPage(page, "watchForChanges", undefined));
    const settling = settleNetwork(page, settleDeps, reached);
    settling.catch(() => {}); // awaited below; a crash meanwhile fails the look first
    let seen = await look();
    const { scrolledAgain } = await settling;
    if (scrolledAgain || quiet.events() !== networkEvents || (await race(callPage(page, "changedSinceWatch", undefined)))) {
      seen = await look();
    }
    const { dom, drawn, capturedHeight, png } = seen;

    const resources: ResourceTotals = network.available()
      ? { bytes: network.totals.bytes, requests: network.totals.requests, largestResource: network.totals.largest }
      : await race(callPage(page, "readResources", undefined));
    await network.detach();
    // Read before the context closes: that aborts whatever is still loading, which the page never failed on its own.
    problems.stop();
    const failures = problems.read();
    const fonts = drawn && {
      rendered: drawn.rendered,
      notLoaded: fontsNotLoaded(dom.typography.families, drawn.rendered, drawn.faces, failures.network.failed),
    };
    const finalUrl = page.url();
    await filmstrip.saved(); // written in the background meanwhile; the snapshot is stored with it
    // The browser is done with this page: let it tear the context down while we read the pixels.
    void closeContext();
    const writing = writeAtomically(job.screenshotPath, png);
    writing.catch(() => {}); // awaited just below; this only keeps a failure from going unhandled meanwhile
    const painted = createPaintedSampler(dom.contrastProbes, viewport.width, capturedHeight);
    const pixels = await summariseScreenshot(png, undefined, painted.push);
    await writing;
    // After the pixels are read, not meanwhile: decoding on the same cores would slow the very loads being timed.
    // A run that times its pages side by side (job.deferTiming) decides their extra loads itself,
    // once it has every site's first load; a throttled profile's loads are all extra ones, so taken here.
    const deferred = job.deferTiming === true && profile === "unthrottled";
    const browserName = await measuredIn;
    const samples = await race(
      sampleTiming(openContext, finalUrl, {
        profile,
        own: profile === "unthrottled" ? [vitals] : [],
        earlier: job.earlierSamples ?? [],
        browser: browserName,
        max: job.timingSamples ?? MAX_SAMPLES,
        matters: deferred ? () => false : couldMatter,
        budget: () => Math.max(0, remaining() - 3000),
        paintWaitMs: SETTLE_WAITS.paint,
      }),
    );

    const extraction: Extraction = {
      url: job.url,
      finalUrl,
      viewport: job.viewport,
      title: dom.title,
      metaDescription: dom.metaDescription,
      pageHeight: dom.pageHeight,
      capturedHeight,
      palette: {
        dominant: pixels.dominant,
        text: dom.palette.text,
        background: dom.palette.background,
        buttons: dom.palette.buttons,
        isDark: pixels.isDark,
        salient: dom.palette.salient,
        roles: paletteRoles(dom.palette),
      },
      typography: fonts ? { ...dom.typography, rendered: fonts.rendered, notLoaded: fonts.notLoaded } : dom.typography,
      layout: dom.layout,
      elements: dom.elements,
      copy: dom.copy,
      timing: { ...samples, ...resources, browser: browserName },
      accessibility: { ...dom.accessibility, lowContrast: decideLowContrast(dom.contrastProbes, painted.finish()) },
      network: failures.network,
      console: failures.console,
    };
    return { extraction, screenshotPath: job.screenshotPath, thumb: pixels.thumb };
  };

  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new CaptureError(totalLimitMessage));
      // Closing the context aborts whatever the page was still doing.
      void closeContext();
    }, job.totalTimeoutMs);
  });
  const running = work();
  running.catch(() => {});
  let succeeded = false;
  try {
    const captured = await Promise.race([running, deadline]);
    succeeded = true;
    return captured;
  } finally {
    clearTimeout(timer);
    // If the deadline won, `work` may still be creating these; it cleans up at its next timedOut check.
    await cleanup().catch(() => {});
    if (!succeeded) await discardFilmstrip();
  }
}
