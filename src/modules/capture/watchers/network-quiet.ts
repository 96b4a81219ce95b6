// Knows when a page's network has gone quiet: nothing in flight and nothing started or finished
// for a short window. Playwright's "networkidle" wants 500 ms of silence and, once fired, never
// waits again; this one can be asked as often as needed (after load, and again after the scroll
// that wakes lazy images) and returns at once when the page has long been quiet.

/** What we need from a Playwright Page: its request lifecycle events (they cover every frame). */
export interface RequestEvents {
  on(event: "request" | "requestfinished" | "requestfailed", listener: (request: object) => void): unknown;
}

export interface NetworkQuiet {
  /** Requests in flight right now, e.g. to ignore a hung one in a later wait. */
  inFlight(): Set<object>;
  /** Requests seen so far (every hop of a redirect counts). */
  started(): number;
  /** Requests started, finished or failed so far: unchanged between two reads means nothing happened on the network. */
  events(): number;
  /**
   * Resolves true once no request (other than those in `ignore`) is in flight and the network
   * has been silent for `quietMs`; false when `timeoutMs` passes first.
   */
  waitForQuiet(quietMs: number, timeoutMs: number, ignore?: ReadonlySet<object>): Promise<boolean>;
}

export function watchNetworkQuiet(page: RequestEvents, now: () => number = Date.now): NetworkQuiet {
  const inflight = new Set<object>();
  const waiters = new Set<() => void>();
  let lastActivity = now();
  let count = 0;
  let events = 0;
  const touch = () => {
    lastActivity = now();
    events++;
    for (const check of [...waiters]) check();
  };
  page.on("request", (request) => {
    inflight.add(request);
    count++;
    touch();
  });
  const settled = (request: object) => {
    if (inflight.delete(request)) touch();
  };
  page.on("requestfinished", settled);
  page.on("requestfailed", settled);

  const busy = (ignore?: ReadonlySet<object>) => {
    for (const request of inflight) if (!ignore?.has(request)) return true;
    return false;
  };

  return {
    inFlight: () => new Set(inflight),
    started: () => count,
    events: () => events,
    waitForQuiet(quietMs, timeoutMs, ignore) {
      const deadline = now() + Math.max(0, timeoutMs);
      return new Promise<boolean>((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const finish = (quiet: boolean) => {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(quiet);
        };
        function check() {
          clearTimeout(timer);
          const t = now();
          const pending = busy(ignore);
          if (!pending && t - lastActivity >= quietMs) return finish(true);
          if (t >= deadline) return finish(false);
          // While requests are pending only an event (or the deadline) can change the answer.
          const next = pending ? deadline - t : Math.min(quietMs - (t - lastActivity), deadline - t);
          timer = setTimeout(check, Math.max(1, next));
        }
        waiters.add(check);
        check();
      });
    },
  };
}
