// The capture worker: owns one Chromium and captures the pages the pool hands it, each in its own
// context (the pool bounds how many at once, and runs several workers, so a browser crash only
// ever takes down the pages in hand). When the browser dies mid-job, those jobs fail with a reason
// and the next job gets a fresh browser.
//
// Or, told to "connect", it drives a remote browser (a Playwright browser server) instead. A remote
// browser that goes away is not this worker's to replace: it says "lost" once, marks the jobs in
// hand as lost (the pool sends them to another browser server) and waits to be retired.

import { readdirSync, readFileSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM_ARGS } from "#server/lib/chromium";
import { workerLogger } from "#server/lib/logger";
import { capturePage, CaptureError, StepFailedError } from "../capture";
import { timePage } from "../timing/time-page";
import { pageBundles } from "../page-script/page-bundle";
import { consentAssets } from "../consent/assets";
import { instrumentVolatility } from "../watchers/volatility-probe";
import { withVolatility } from "../watchers/volatility";
import { scrubber, scrubDeep } from "../steps/secrets";
import { connectRemoteBrowser } from "../browser/remote-browser";
import { LOST_REASON } from "../browser/remote-endpoints";
import type { EgressListen } from "../browser/egress-proxy";
import type { CaptureDeps } from "../phases/open";
import type { CaptureEvent, CaptureJob, CaptureRequest, TimingJob } from "./protocol";

declare const self: Worker;

const post = (event: CaptureEvent) => self.postMessage(event);
// Never the page's URL (it may carry a user's query tokens): jobs are named by id.
const logger = workerLogger("capture");

// Chromium ignores switches it doesn't know; this one lets us find our own browser's pid.
const marker = `--design-intel-capture=${crypto.randomUUID()}`;
const LAUNCH_ARGS = [
  ...CHROMIUM_ARGS,
  marker,
  // WebRTC's UDP would bypass the per-context egress proxy that enforces the SSRF rules.
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
];

let chromiumPath: string | null = null;
let browser: Browser | null = null;
let launching: Promise<Browser> | null = null;
/** Set by "connect": the remote browser server, and the egress every capture's contexts then use. */
let remote: { endpoint: string; egress: EgressListen } | null = null;
/** Why the remote browser is gone, once it is; this worker then connects no more. */
let lost: string | null = null;
let shuttingDown = false;
const deps = (): CaptureDeps => (remote ? { remote: remote.egress } : {});

function loseRemote(reason: string) {
  if (lost !== null || shuttingDown) return;
  lost = reason;
  logger.warn({ reason }, "remote capture browser lost");
  post({ type: "lost", reason });
}

function connectRemote(endpoint: string): Promise<Browser> {
  if (lost !== null) return Promise.reject(new CaptureError(LOST_REASON));
  launching ??= connectRemoteBrowser(endpoint)
    .then((b) => {
      browser = b;
      b.on("disconnected", () => {
        if (browser === b) browser = null;
        loseRemote("the browser server closed the connection");
      });
      post({ type: "ready", browser: b.version(), pid: null });
      return b;
    })
    .catch((err: unknown) => {
      loseRemote(err instanceof Error ? err.message : String(err));
      throw new CaptureError(LOST_REASON);
    })
    .finally(() => {
      launching = null;
    });
  return launching;
}

/** The browser's main process: the one carrying our marker and no --type= (children have one). */
function findBrowserPid(): number | null {
  if (process.platform !== "linux") return null;
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let cmdline: string;
      try {
        cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      } catch {
        continue;
      }
      const args = cmdline.split("\0");
      if (args.includes(marker) && !args.some((a) => a.startsWith("--type="))) return Number(entry);
    }
  } catch {
    // /proc unreadable: the pid is only a convenience.
  }
  return null;
}

async function ensureBrowser(): Promise<Browser> {
  if (browser?.isConnected()) return browser;
  if (remote) return connectRemote(remote.endpoint);
  if (!chromiumPath) throw new CaptureError("No Chromium browser found: install chromium or set CHROMIUM_PATH");
  launching ??= chromium
    .launch({ executablePath: chromiumPath, headless: true, args: LAUNCH_ARGS, timeout: 30_000 })
    .then((b) => {
      browser = b;
      b.on("disconnected", () => {
        if (browser === b) browser = null;
      });
      const pid = findBrowserPid();
      logger.debug({ browser: b.version(), pid }, "capture browser ready");
      post({ type: "ready", browser: b.version(), pid });
      return b;
    })
    .catch((err: unknown) => {
      logger.error({ err }, "Chromium could not start");
      throw new CaptureError(`Chromium could not start: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
    })
    .finally(() => {
      launching = null;
    });
  return launching;
}

async function runJob(job: CaptureJob) {
  await inBrowser(job.jobId, async (used) => {
    // What moves by itself while the page is captured (carousels, tickers), stored with the
    // extraction so change detection between runs can tell motion from change (decision 0006).
    const probe = instrumentVolatility(used);
    let result: Awaited<ReturnType<typeof capturePage>>;
    try {
      result = await capturePage(probe.browser, job, (stage) => post({ type: "stage", jobId: job.jobId, stage }), deps());
    } catch (err) {
      if (!(err instanceof StepFailedError)) throw err;
      const { step, screenshotPath, session } = err;
      return post({ type: "stepFailed", jobId: job.jobId, step, screenshotPath, ...(session ? { session } : {}) });
    }
    // What moved holds the page's texts: no more a place for a secret than the extraction is.
    const moved = probe.report();
    const extraction = withVolatility(result.extraction, job.secrets ? scrubDeep(moved, scrubber(Object.values(job.secrets))) : moved);
    const { screenshotPath, thumb, session } = result;
    const done: CaptureEvent = { type: "done", jobId: job.jobId, extraction, screenshotPath, thumb, ...(session ? { session } : {}) };
    self.postMessage(done, [result.thumb.data.buffer]);
  });
}

async function runTiming(job: TimingJob) {
  await inBrowser(job.jobId, async (used) => post({ type: "timed", jobId: job.jobId, timing: await timePage(used, job, deps()) }));
}

/** Runs a job in the browser, reporting why it failed as the job's "failed" event. */
async function inBrowser(jobId: string, work: (browser: Browser) => Promise<void>) {
  let used: Browser | null = null;
  try {
    used = await ensureBrowser();
    await work(used);
  } catch (err) {
    let reason: string;
    // The "disconnected" event can trail the error it caused by a moment.
    if (used?.isConnected() && /closed|disconnected|crash/i.test(err instanceof Error ? err.message : "")) await Bun.sleep(200);
    if (remote && (lost !== null || (used && !used.isConnected()))) {
      loseRemote("the browser server closed the connection");
      return post({ type: "failed", jobId, reason: LOST_REASON, lost: true });
    }
    if (used && !used.isConnected()) {
      reason = "The browser crashed while capturing this page";
      browser = null;
      logger.warn({ jobId }, "capture browser crashed");
    } else if (err instanceof CaptureError) reason = err.message;
    else {
      reason = `Capture failed: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`;
      // Not one of capture's own reasons: worth a look. The message can quote the page's URL, so
      // only the error's type and stack frames are logged.
      const e = err instanceof Error ? err : new Error(String(err));
      logger.warn({ jobId, errorType: e.name, frames: e.stack?.split("\n").slice(1).join("\n") }, "capture failed unexpectedly");
    }
    post({ type: "failed", jobId, reason });
  }
}

async function shutdown() {
  shuttingDown = true;
  const b = browser;
  browser = null;
  await b?.close().catch(() => {});
  process.exit(0);
}

self.onmessage = (event: MessageEvent<CaptureRequest>) => {
  const message = event.data;
  switch (message.type) {
    case "init":
      chromiumPath = message.chromiumPath;
      // Warm up now so the first job doesn't pay for the launch; a failure is reported on that job.
      ensureBrowser().catch((err: unknown) => post({ type: "fatal", reason: err instanceof Error ? err.message : String(err) }));
      // From source the page script is built on first use: build it while the browser launches (a
      // failure is tried again, and reported, by the first job).
      pageBundles().catch(() => {});
      // The consent rules too (680 KB of JSON): the first page with a policy would wait for them.
      consentAssets().catch(() => {});
      break;
    case "connect":
      remote = { endpoint: message.endpoint, egress: message.egress };
      // Connected now so the first job doesn't wait; a failure is reported as "lost".
      connectRemote(message.endpoint).catch(() => {});
      pageBundles().catch(() => {});
      break;
    case "capture":
      // Side by side with the pages already in hand: the pool decides how many that may be.
      void runJob(message.job);
      break;
    case "time":
      void runTiming(message.job);
      break;
    case "shutdown":
      // Not queued behind the page in hand: the pool has already failed that job, and closing the
      // browser now ends it at once instead of when the page finally settles (up to a minute).
      void shutdown();
      break;
  }
};
