// The capture pool: a fair, bounded queue in front of a few capture workers (one Chromium each,
// one page at a time unless told otherwise, each page in its own context), so a crashed browser
// only ever fails the pages it was rendering.
//
// With remote browsers (BROWSER_WS_ENDPOINTS) each worker connects to one of the browser servers
// instead of launching Chromium, new workers going to the server with the fewest. A server that
// goes away is taken out (remote-endpoints.ts) and the pages its browsers had in hand go back to
// the head of the queue for another one, a bounded number of times.

import { readFileSync } from "node:fs";
import { HttpError } from "#server/http/errors";
import type { GrayImage } from "#server/lib/image/image";
import type { CaptureEvent, CaptureJob, CaptureRequest, TimingJob } from "../worker/protocol";
import { spawnWorker } from "#server/lib/spawn-worker";
import type { Extraction, Viewport } from "../model";
import type { EgressListen } from "./egress-proxy";
import { FairQueue } from "./fair-queue";
import { LOST_REASON, RemoteEndpoints, type RemoteEndpoint, type RemoteReadiness } from "./remote-endpoints";
import { checkTargetUrl, type Resolver } from "./ssrf";
import type { Vitals } from "../page/types";
import type { SessionState, StepFailure } from "../steps/model";
import { MAX_SAMPLES, summariseSamples, type EarlierSample, type TimingProfile, type TimingSummary } from "../timing/timing-samples";

export type CaptureStageName = Extract<CaptureEvent, { type: "stage" }>["stage"];

/** What a capture answers: the page's extraction and screenshot (with the grey thumbnail scoring compares), or why not. */
export type CaptureResult =
  | { ok: true; extraction: Extraction; screenshotPath: string; thumb?: GrayImage; session?: SessionState }
  | { ok: false; reason: string }
  /** A step could not be done (`reason` is "Step N: error"); the screenshot shows the viewport where it stopped. */
  | { ok: false; reason: string; step: StepFailure; screenshotPath: string | null; session?: SessionState };
export type TimingResult = { ok: true; timing: TimingSummary } | { ok: false; reason: string };

/** What a caller asks the pool to capture (the worker's CaptureJob adds the limits and an id). */
export interface CaptureJobInput {
  url: string;
  viewport: Viewport;
  /** The page's colour scheme; absent: light. */
  colorScheme?: CaptureJob["colorScheme"];
  /** Absolute path the PNG is written to. */
  screenshotPath: string;
  /** Loads of the same page measured by recent captures, newest first: they can spare extra timing loads. */
  earlierSamples?: EarlierSample[];
  /** The page's own load only: the caller asks for more loads with submitTiming once it can tell which pages need them. */
  deferTiming?: boolean;
  /** What to do about a consent banner (the comparison's setting); absent: nothing. */
  consent?: CaptureJob["consent"];
  /** The page's steps, the values of the secrets they name, the site's origin, a shared login (steps/sessions.ts sets the last two). */
  steps?: CaptureJob["steps"];
  secrets?: CaptureJob["secrets"];
  siteOrigin?: CaptureJob["siteOrigin"];
  session?: CaptureJob["session"];
  keepSession?: CaptureJob["keepSession"];
}

/** More timing loads of a page already captured (capture/timing/time-page.ts). */
export interface TimingJobInput {
  url: string;
  viewport: Viewport;
  profile: TimingProfile;
  own: Vitals[];
  earlier: EarlierSample[];
  /** The capture's colour scheme; absent: light. */
  colorScheme?: TimingJob["colorScheme"];
}

export interface CapturePoolOptions {
  concurrency: number;
  /**
   * Pages one worker's browser renders at once, each in its own context; default 1. A second page
   * beside the first costs no memory, but on a saturated 2-core machine the pages' loads slow each
   * other: their paints land later, so more of them need extra timing loads, and the analysis took
   * longer (bench/analysis.bench.ts on a loaded 2-core host: 2.31x bare with 2 pages a browser, 1.52x with 1).
   */
  pagesPerBrowser?: number;
  chromiumPath: string | null;
  allowPrivate: boolean;
  navigationTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxHeightPx?: number;
  /** Loads each page's timing is taken from, at most (capture/timing/timing-samples.ts); default 3. */
  timingSamples?: number;
  /** How mobile captures are timed; default "unthrottled". */
  mobileTimingProfile?: "unthrottled" | "lighthouse-mobile";
  /** Pages waiting across all owners before new ones are turned away. */
  maxQueued?: number;
  /** Pages one owner may have waiting. */
  maxQueuedPerOwner?: number;
  /** A worker idle this long closes its browser to give the memory back (a warm pool starts a fresh one instead). */
  idleMs?: number;
  /** Used by the add-time URL check; tests inject one. */
  resolve?: Resolver;
  /**
   * Starts a capture worker; default the Chromium one (src/modules/capture/worker/capture.worker.ts). A bench
   * hands in a stand-in that speaks the same protocol, to drive this queue at a scale where real
   * browsers would not fit on the machine (bench/watch-drain.bench.ts).
   */
  spawn?: () => Worker;
  log?: (message: string) => void;
  /** Remote browsers instead of launched ones; `chromiumPath` is then not used. */
  remote?: RemotePoolOptions;
}

export interface RemotePoolOptions {
  /** Playwright browser-server endpoints (ws:// or wss://). */
  endpoints: readonly string[];
  /** Where each capture's egress proxy listens, and the address the browser servers dial it at. */
  egress: EgressListen;
  /** Browsers a page may lose (their server going away under it) before it fails; default 3. */
  maxLosses?: number;
  /** How long pages wait while no browser server is reachable before they fail; default the total capture limit. */
  strandedMs?: number;
  retryMinMs?: number;
  retryMaxMs?: number;
}

export const NO_CHROMIUM_REASON = "No Chromium browser found: install chromium or set CHROMIUM_PATH";
export const QUEUE_FULL_REASON = "The capture queue is full right now. Try again in a few minutes.";
export const OWNER_QUEUE_FULL_REASON = "You already have many pages waiting to be captured. Let them finish first.";
export const POOL_CLOSED_REASON = "The capture service is shutting down";
const WORKER_DIED_REASON = "The capture worker stopped unexpectedly";
const NO_REMOTE_REASON = "No browser server can be reached right now";
const STUCK_REASON = "The browser stopped responding while capturing this page";

/**
 * The pool's own trouble rather than the page's: its browser went away or would not start, its
 * worker died, it is closing or full. A capture run as a job (src/modules/capture-jobs) fails its
 * attempt on these, so another worker, with browsers of its own, takes the page. A page that lost
 * its browser several times, or hung one, is the page's answer: another worker would fare the same.
 */
export function isPoolFault(reason: string): boolean {
  return (
    [LOST_REASON, POOL_CLOSED_REASON, NO_CHROMIUM_REASON, WORKER_DIED_REASON, QUEUE_FULL_REASON, OWNER_QUEUE_FULL_REASON].includes(
      reason,
    ) || reason.startsWith(NO_REMOTE_REASON)
  );
}

function isCaptureBrowser(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--design-intel-capture=");
  } catch {
    return false;
  }
}

/** Extra time the worker gets past its own total limit before the pool gives up on it. */
const WATCHDOG_GRACE_MS = 15_000;

type Work = { kind: "capture"; input: CaptureJobInput } | { kind: "time"; input: TimingJobInput };

interface Job {
  id: string;
  ownerId: string;
  work: Work;
  onStage?: (stage: CaptureStageName) => void;
  /** The worker answers a capture with "done" and a timing job with "timed", so each caller gets its own outcome. */
  resolve: (outcome: CaptureResult | TimingResult) => void;
  /** Remote browsers that went away while they had this job in hand. */
  losses: number;
}

interface Slot {
  worker: Worker;
  pid: number | null;
  browser: string | null;
  /** The pages in hand, each with the watchdog that retires the worker if it hangs on it. */
  jobs: Map<string, { job: Job; watchdog: ReturnType<typeof setTimeout> }>;
  idleTimer?: ReturnType<typeof setTimeout>;
  closing: boolean;
  /** The browser server this worker's browser is on; null for a launched browser. */
  endpoint: RemoteEndpoint | null;
}

export interface CapturePoolStats {
  available: boolean;
  concurrency: number;
  queued: number;
  running: number;
  owners: Record<string, { queued: number; running: number }>;
  workers: { pid: number | null; browser: string | null; busy: boolean; endpoint?: string }[];
}

export interface CaptureReadiness {
  available: boolean;
  /** Launched browsers; a warm pool has `concurrency` of them once boot has settled. */
  browsers: number;
  concurrency: number;
  /** Browsers launch on the first capture rather than at boot (CAPTURE_LAZY): none running is not a fault. */
  onDemand: boolean;
  /** With remote browsers: which browser servers answer. */
  remote?: RemoteReadiness;
}

export class CapturePool {
  readonly available: boolean;
  readonly unavailableReason: string | null;
  private readonly concurrency: number;
  private readonly pagesPerBrowser: number;
  private readonly navigationTimeoutMs: number;
  private readonly totalTimeoutMs: number;
  private readonly maxHeightPx: number;
  private readonly idleMs: number;
  private readonly log: (message: string) => void;
  private readonly queue: FairQueue<Job>;
  private readonly slots: Slot[] = [];
  private closed = false;
  private keepWarm = false;
  private sequence = 0;
  private readonly remote: RemoteEndpoints | null = null;
  private readonly maxLosses: number;
  /** Set while pages wait with no browser server reachable; they fail when it fires. */
  private strandedTimer?: ReturnType<typeof setTimeout>;

  constructor(private readonly options: CapturePoolOptions) {
    this.concurrency = Math.max(1, Math.floor(options.concurrency));
    this.pagesPerBrowser = Math.max(1, Math.floor(options.pagesPerBrowser ?? 1));
    this.navigationTimeoutMs = options.navigationTimeoutMs ?? 30_000;
    this.totalTimeoutMs = options.totalTimeoutMs ?? 60_000;
    this.maxHeightPx = options.maxHeightPx ?? 16_000;
    this.queue = new FairQueue(options.maxQueued ?? 200, options.maxQueuedPerOwner ?? 40);
    this.idleMs = options.idleMs ?? 120_000;
    this.log = options.log ?? ((m) => console.warn(m));
    this.maxLosses = Math.max(1, options.remote?.maxLosses ?? 3);
    if (options.remote) {
      this.remote = new RemoteEndpoints(options.remote.endpoints, {
        log: this.log,
        onReachable: () => {
          this.topUp();
          this.dispatch();
        },
        retryMinMs: options.remote.retryMinMs,
        retryMaxMs: options.remote.retryMaxMs,
      });
    }
    this.available = options.chromiumPath !== null || this.remote !== null;
    this.unavailableReason = this.available ? null : NO_CHROMIUM_REASON;
    if (!this.available) {
      this.log(`[capture] ${NO_CHROMIUM_REASON}. Every capture will fail with that reason until one is installed.`);
    }
  }

  /**
   * Starts every worker and its Chromium now and keeps them running from then on, so no capture
   * waits for a browser launch (~105 MB PSS per idle browser). The server calls it at boot; tests
   * leave pools cold.
   */
  warm(): void {
    this.keepWarm = true;
    // Remote browsers: once each server has been looked at, so none is spent on one that is down.
    if (this.remote) void this.remote.looked.then(() => this.topUp());
    else this.topUp();
  }

  submit(ownerId: string, input: CaptureJobInput, onStage?: (stage: CaptureStageName) => void): Promise<CaptureResult> {
    return this.enqueue(ownerId, { kind: "capture", input }, onStage) as Promise<CaptureResult>;
  }

  /** More timing loads of a page captured with `deferTiming`; queued fairly like a capture. */
  submitTiming(ownerId: string, input: TimingJobInput): Promise<TimingResult> {
    // Configured for fewer loads than the page has (CAPTURE_TIMING_SAMPLES=1): nothing to load.
    if (input.own.length >= (this.options.timingSamples ?? MAX_SAMPLES)) {
      return Promise.resolve({ ok: true, timing: summariseSamples(input.own, input.profile) });
    }
    return this.enqueue(ownerId, { kind: "time", input }) as Promise<TimingResult>;
  }

  private async enqueue(ownerId: string, work: Work, onStage?: (stage: CaptureStageName) => void): Promise<CaptureResult | TimingResult> {
    const { input } = work;
    if (!this.available) return { ok: false, reason: NO_CHROMIUM_REASON };
    if (this.closed) return { ok: false, reason: POOL_CLOSED_REASON };
    try {
      // The same rule as at add time: the stored URL may have been added under other settings,
      // and its DNS may have changed since.
      await checkTargetUrl(input.url, { allowPrivate: this.options.allowPrivate, resolve: this.options.resolve });
    } catch (err) {
      return { ok: false, reason: err instanceof HttpError ? err.message : "Please enter a valid URL" };
    }
    // The pool may have closed while the URL was being checked.
    if (this.closed) return { ok: false, reason: POOL_CLOSED_REASON };

    let resolveJob!: (o: CaptureResult | TimingResult) => void;
    const outcome = new Promise<CaptureResult | TimingResult>((resolve) => (resolveJob = resolve));
    const job: Job = { id: `c${++this.sequence}`, ownerId, work, onStage, resolve: resolveJob, losses: 0 };
    const pushed = this.queue.push(ownerId, job);
    if (pushed === "full") return { ok: false, reason: QUEUE_FULL_REASON };
    if (pushed === "owner-full") return { ok: false, reason: OWNER_QUEUE_FULL_REASON };
    this.dispatch();
    return outcome;
  }

  stats(): CapturePoolStats {
    const owners: CapturePoolStats["owners"] = {};
    for (const [owner, queued] of this.queue.owners()) owners[owner] = { queued, running: 0 };
    for (const slot of this.slots) {
      for (const { job } of slot.jobs.values()) {
        const entry = (owners[job.ownerId] ??= { queued: 0, running: 0 });
        entry.running++;
      }
    }
    return {
      available: this.available,
      concurrency: this.concurrency,
      queued: this.queue.size,
      running: this.slots.reduce((n, s) => n + s.jobs.size, 0),
      owners,
      workers: this.slots.map((s) => ({
        pid: s.pid,
        browser: s.browser,
        busy: s.jobs.size > 0,
        ...(s.endpoint ? { endpoint: s.endpoint.label } : {}),
      })),
    };
  }

  /** For health checks: how many capture browsers are launched and waiting for work or working. */
  readiness(): CaptureReadiness {
    const browsers = this.slots.filter((s) => !s.closing && s.browser !== null).length;
    const readiness: CaptureReadiness = { available: this.available, browsers, concurrency: this.concurrency, onDemand: !this.keepWarm };
    if (this.remote) readiness.remote = this.remote.readiness();
    return readiness;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.remote?.close();
    clearTimeout(this.strandedTimer);
    for (const job of this.queue.drain()) job.resolve({ ok: false, reason: POOL_CLOSED_REASON });
    await Promise.all([...this.slots].map((slot) => this.retire(slot, POOL_CLOSED_REASON)));
  }

  // ---- internals ------------------------------------------------------------------------------

  private dispatch() {
    if (this.closed) return;
    while (this.queue.size > 0) {
      // An idle worker first, then a new one, and only then a second page beside a busy one.
      let slot = this.slots.find((s) => s.jobs.size === 0 && !s.closing);
      if (!slot && this.slots.length < this.concurrency) slot = this.spawn() ?? undefined;
      slot ??= this.slots.filter((s) => !s.closing && s.jobs.size < this.pagesPerBrowser).sort((a, b) => a.jobs.size - b.jobs.size)[0];
      if (!slot) return this.watchStranded();
      const next = this.queue.shift();
      if (!next) return;
      this.start(slot, next.item);
    }
  }

  /** A warm pool keeps all its workers running (and their browsers launched) while idle. */
  private topUp() {
    if (!this.keepWarm || !this.available || this.closed) return;
    while (this.slots.filter((s) => !s.closing).length < this.concurrency) {
      if (!this.spawn()) return;
    }
  }

  /** A new worker; null when remote browsers are used and no browser server can take one. */
  private spawn(): Slot | null {
    const endpoint = this.remote?.pick((e) => this.slots.filter((s) => s.endpoint === e && !s.closing).length) ?? null;
    if (this.remote && !endpoint) return null;
    const worker = this.options.spawn?.() ?? spawnWorker("modules/capture/worker/capture.worker.ts");
    const slot: Slot = { worker, pid: null, browser: null, jobs: new Map(), closing: false, endpoint };
    worker.onmessage = (event: MessageEvent<CaptureEvent>) => this.onEvent(slot, event.data);
    worker.onerror = (event) => {
      this.log(`[capture] worker error: ${event.message}`);
      void this.retire(slot, WORKER_DIED_REASON);
    };
    worker.addEventListener("close", () => {
      if (!slot.closing) void this.retire(slot, WORKER_DIED_REASON);
    });
    this.slots.push(slot);
    if (endpoint) this.send(slot, { type: "connect", endpoint: endpoint.url, egress: this.options.remote!.egress });
    else this.send(slot, { type: "init", chromiumPath: this.options.chromiumPath! });
    return slot;
  }

  /**
   * Pages wait while no browser server is reachable (one may come back in seconds), but not
   * forever: after `strandedMs` with none, they fail with that reason.
   */
  private watchStranded() {
    if (!this.remote || this.closed) return;
    const stranded = this.queue.size > 0 && !this.remote.anyUsable() && this.slots.every((s) => s.closing);
    if (!stranded) {
      clearTimeout(this.strandedTimer);
      this.strandedTimer = undefined;
      return;
    }
    if (this.strandedTimer) return;
    this.strandedTimer = setTimeout(() => {
      this.strandedTimer = undefined;
      if (this.remote!.anyUsable() || this.slots.some((s) => !s.closing)) return this.dispatch();
      const { reachable, total } = this.remote!.readiness();
      const reason = `${NO_REMOTE_REASON} (${reachable} of ${total} reachable)`;
      for (const job of this.queue.drain()) job.resolve({ ok: false, reason });
    }, this.options.remote!.strandedMs ?? this.totalTimeoutMs);
    this.strandedTimer.unref?.();
  }

  /**
   * The worker's remote browser went away (or never connected): its server is taken out, the
   * worker retired, and the pages it had go to another server.
   */
  private lose(slot: Slot, reason: string) {
    if (slot.closing) return;
    if (slot.endpoint) this.remote!.failed(slot.endpoint, reason);
    void this.retire(slot, LOST_REASON, { requeue: true });
    this.topUp();
  }

  /** A page whose browser went away goes back to the head of its owner's queue, until it has lost too many. */
  private requeue(job: Job, ranInBrowser: boolean) {
    // A browser that never connected did not have the page in hand: no loss counted.
    if (ranInBrowser) job.losses++;
    if (job.losses >= this.maxLosses) {
      const reason = `${LOST_REASON}, ${job.losses} times; the page may be crashing the browser`;
      job.resolve({ ok: false, reason });
      return;
    }
    this.queue.unshift(job.ownerId, job);
  }

  private send(slot: Slot, message: CaptureRequest) {
    slot.worker.postMessage(message);
  }

  private start(slot: Slot, job: Job) {
    clearTimeout(slot.idleTimer);
    // The worker enforces the total limit itself; this catches a worker or browser that hangs outright.
    const watchdog = setTimeout(() => void this.retire(slot, STUCK_REASON), this.totalTimeoutMs + WATCHDOG_GRACE_MS);
    slot.jobs.set(job.id, { job, watchdog });
    this.send(slot, this.request(job.id, job.work));
  }

  private request(jobId: string, work: Work): CaptureRequest {
    const { allowPrivate, timingSamples } = this.options;
    if (work.kind === "time") {
      const { input } = work;
      const job: TimingJob = { jobId, ...input, allowPrivate, max: timingSamples ?? MAX_SAMPLES, totalTimeoutMs: this.totalTimeoutMs };
      return { type: "time", job };
    }
    const { input } = work;
    const job: CaptureJob = {
      jobId,
      url: input.url,
      viewport: input.viewport,
      ...(input.colorScheme ? { colorScheme: input.colorScheme } : {}),
      screenshotPath: input.screenshotPath,
      allowPrivate,
      navigationTimeoutMs: this.navigationTimeoutMs,
      totalTimeoutMs: this.totalTimeoutMs,
      maxHeightPx: this.maxHeightPx,
      timingSamples,
      mobileTimingProfile: this.options.mobileTimingProfile,
      earlierSamples: input.earlierSamples,
      deferTiming: input.deferTiming,
      consent: input.consent,
      steps: input.steps,
      secrets: input.secrets,
      siteOrigin: input.siteOrigin,
      session: input.session,
      keepSession: input.keepSession,
    };
    return { type: "capture", job };
  }

  private finish(slot: Slot, jobId: string, outcome: CaptureResult | TimingResult) {
    const held = slot.jobs.get(jobId);
    if (!held) return;
    clearTimeout(held.watchdog);
    slot.jobs.delete(jobId);
    held.job.resolve(outcome);
    if (!this.closed && slot.jobs.size === 0) {
      slot.idleTimer = setTimeout(() => {
        // A warm pool swaps the idle browser for a fresh one: memory a long session left behind
        // is given back, and the next capture still finds a browser ready.
        if (slot.jobs.size === 0) void this.retire(slot, null).then(() => this.topUp());
      }, this.idleMs);
      slot.idleTimer.unref?.();
    }
    this.dispatch();
  }

  private onEvent(slot: Slot, event: CaptureEvent) {
    switch (event.type) {
      case "ready":
        slot.pid = event.pid;
        slot.browser = event.browser;
        if (slot.endpoint && !slot.closing) this.remote!.connected(slot.endpoint);
        break;
      case "stage":
        try {
          slot.jobs.get(event.jobId)?.job.onStage?.(event.stage);
        } catch {
          // A listener's failure is not the capture's failure.
        }
        break;
      case "done":
        this.finish(slot, event.jobId, {
          ok: true,
          extraction: event.extraction,
          screenshotPath: event.screenshotPath,
          thumb: event.thumb,
          ...(event.session ? { session: event.session } : {}),
        });
        break;
      case "stepFailed": {
        const { step, screenshotPath, session } = event;
        this.finish(slot, event.jobId, {
          ok: false,
          reason: `Step ${step.index}: ${step.error}`,
          step,
          screenshotPath,
          ...(session ? { session } : {}),
        });
        break;
      }
      case "timed":
        this.finish(slot, event.jobId, { ok: true, timing: event.timing });
        break;
      case "failed":
        if (event.lost && slot.endpoint) this.lose(slot, "the browser server closed the connection");
        else this.finish(slot, event.jobId, { ok: false, reason: event.reason });
        break;
      case "lost":
        this.lose(slot, event.reason);
        break;
      case "fatal":
        // Chromium would not start; the job (if any) fails on its own with the reason.
        this.log(`[capture] ${event.reason}`);
        break;
    }
  }

  /**
   * Stops a worker (and its browser, by pid, if it won't go quietly); its pages fail with `reason`,
   * or with `requeue` go back to the queue for another worker.
   */
  private async retire(slot: Slot, reason: string | null, { requeue = false } = {}) {
    if (slot.closing) return;
    slot.closing = true;
    clearTimeout(slot.idleTimer);
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    const held = [...slot.jobs.values()];
    slot.jobs.clear();
    for (const { job, watchdog } of held) {
      clearTimeout(watchdog);
      if (requeue && !this.closed) this.requeue(job, slot.browser !== null);
      else job.resolve({ ok: false, reason: reason ?? WORKER_DIED_REASON });
    }

    const exited = new Promise<void>((resolve) => slot.worker.addEventListener("close", () => resolve(), { once: true }));
    const graceful = reason === null || reason === POOL_CLOSED_REASON;
    if (graceful) {
      try {
        this.send(slot, { type: "shutdown" });
      } catch {
        // already gone
      }
      await Promise.race([exited, Bun.sleep(5000)]);
    }
    slot.worker.terminate();
    // Terminating the thread leaves its Chromium behind; end it by the pid the worker reported,
    // after making sure that pid is still our browser and not a recycled number.
    if (!graceful && slot.pid !== null && isCaptureBrowser(slot.pid)) {
      try {
        process.kill(slot.pid, "SIGKILL");
      } catch {
        // already exited
      }
    }
    if (!this.closed) this.dispatch();
  }
}
