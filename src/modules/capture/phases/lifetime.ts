// One capture's total time limit and what it holds open meanwhile (the egress proxy, the page's
// browser context, the filmstrip being written), so that however the capture ends (done, failed,
// out of time) they are closed, and a capture that fails leaves no filmstrip behind.

import { rm } from "node:fs/promises";
import type { BrowserContext } from "playwright-core";
import type { EgressProxy } from "../browser/egress-proxy";
import { filmstripDirFor } from "../filmstrip/filmstrip";
import type { CaptureJob } from "../worker/protocol";
import { CaptureError } from "./capture-error";

export const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** What the phases see of the capture's limit and hold. */
export interface CaptureLifetime {
  /** Date.now() when the capture began. */
  readonly started: number;
  /** ms left of the capture's total limit. */
  remaining(): number;
  timedOut(): boolean;
  /** What a capture stopped by its total limit fails with. */
  readonly limitMessage: string;
  holdProxy(proxy: EgressProxy): void;
  holdContext(context: BrowserContext): void;
  /** The filmstrip's background write, awaited before a failed capture deletes it. */
  holdFilmstrip(saved: () => Promise<unknown>): void;
  /** When the limit passed meanwhile, closes what is held and stops the capture. */
  stopIfLate(): Promise<void>;
  /** Closes the page's context (once: every caller waits for the same close). */
  closeContext(): Promise<void>;
}

export interface OwnedLifetime extends CaptureLifetime {
  /** Marks the limit as passed (the deadline's timer). */
  expire(): void;
  /** Closes the context, then the proxy. */
  release(): Promise<void>;
  /** Waits for the filmstrip's write and deletes it. */
  discardFilmstrip(): Promise<void>;
}

export function captureLifetime(job: CaptureJob): OwnedLifetime {
  const started = Date.now();
  let timedOut = false;
  let proxy: EgressProxy | null = null;
  let context: BrowserContext | null = null;
  let filmstripSaved: (() => Promise<unknown>) | null = null;
  // Memoised: Playwright's close() returns at once if a close is already under way, and every
  // caller must wait for the real end of the context.
  let contextClosed: Promise<void> | null = null;
  const closeContext = () => {
    if (!context) return Promise.resolve();
    contextClosed ??= context.close().catch(() => {});
    return contextClosed;
  };
  const release = async () => {
    await closeContext();
    await proxy?.close().catch(() => {});
  };
  return {
    started,
    remaining: () => job.totalTimeoutMs - (Date.now() - started),
    timedOut: () => timedOut,
    limitMessage: `The capture took longer than ${seconds(job.totalTimeoutMs)} and was stopped`,
    holdProxy: (p) => void (proxy = p),
    holdContext: (c) => void (context = c),
    holdFilmstrip: (saved) => void (filmstripSaved = saved),
    async stopIfLate() {
      if (!timedOut) return;
      await release();
      throw new CaptureError("stopped");
    },
    closeContext,
    expire: () => void (timedOut = true),
    release,
    async discardFilmstrip() {
      await filmstripSaved?.().catch(() => null);
      await rm(filmstripDirFor(job.screenshotPath), { recursive: true, force: true }).catch(() => {});
    },
  };
}

/**
 * Runs `work` within the job's total limit. Past it the capture fails with the limit's message and
 * its context is closed at once, which aborts whatever the page was still doing; `work` itself
 * stops at its next stopIfLate(). Whatever the outcome, what it held is closed before this returns.
 */
export async function withinDeadline<T>(job: CaptureJob, work: (lifetime: CaptureLifetime) => Promise<T>): Promise<T> {
  const lifetime = captureLifetime(job);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      lifetime.expire();
      reject(new CaptureError(lifetime.limitMessage));
      void lifetime.closeContext();
    }, job.totalTimeoutMs);
  });
  const running = work(lifetime);
  running.catch(() => {});
  let succeeded = false;
  try {
    const result = await Promise.race([running, deadline]);
    succeeded = true;
    return result;
  } finally {
    clearTimeout(timer);
    // If the deadline won, `work` may still be opening these; it releases them at its next stopIfLate().
    await lifetime.release();
    // The filmstrip is written in the background; a failed capture's snapshot will never exist.
    if (!succeeded) await lifetime.discardFilmstrip();
  }
}
