// One log line per request, written after the answer: method, the matched route's pattern (never
// the raw path or query, which can carry ids and tokens), status, duration and the user when a
// route resolved one. Every request gets an id, echoed in X-Request-Id, so a user's report, a
// proxy's log and ours can be matched up.
import { Elysia } from "elysia";
import { type Logger, lineWriter } from "#server/lib/logger";

export const REQUEST_ID_HEADER = "x-request-id";
/** An id from a proxy or client is kept only if it is short and plain (it is echoed and logged). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:+=/-]{1,128}$/;

// Kept on the request's own context (the same object from onRequest to after the answer): a
// WeakMap keyed by Request cost the collector work on every request.
interface Timed {
  requestId?: string;
  requestStartedAt?: number;
}

// Generated ids are UUID-shaped: a random prefix drawn once per process and a counter in the last
// 48 bits. Unique within the process and, by the prefix, across restarts and replicas; a fresh
// random UUID per request showed as ~2% of the CPU of a small API answer.
const ID_PREFIX = crypto.randomUUID().slice(0, 24);
let idCounter = 0;
const newRequestId = () => ID_PREFIX + (idCounter++).toString(16).padStart(12, "0");

export function pickRequestId(incoming: string | null): string {
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : newRequestId();
}

/** The status actually sent, whichever way the answer was made (value + set.status, or a Response). */
export function statusOf(response: unknown, setStatus: unknown): number {
  if (response instanceof Response) return response.status;
  return typeof setStatus === "number" ? setStatus : 200;
}

// Methods and route patterns are a small fixed set (the app's own): each is serialised once.
const QUOTED_MAX = 1000;
const quotedStrings = new Map<string, string>();
function quoted(s: string): string {
  let q = quotedStrings.get(s);
  if (q === undefined) {
    q = JSON.stringify(s);
    if (quotedStrings.size < QUOTED_MAX) quotedStrings.set(s, q);
  }
  return q;
}

export interface RequestLog {
  /** Gives each request its id (echoed) and writes the line of every answer a route handled. */
  plugin: Elysia;
  /** Writes the line of an answer made by the error hook (which only it can see). */
  answered(
    request: { requestId?: string; requestStartedAt?: number; method: string; route: string | undefined; userId: unknown },
    status: number,
  ): void;
}

/**
 * Without a logger, requests still get their id (echoed), and nothing is written. `finished` hears
 * every answer's status. Lines are written from the after-handle hook and the error hook, not after
 * the response: an after-response hook is a deferred call per request (~1 µs of CPU on a small API
 * answer), and the answer is fully decided at either point.
 */
export function requestLog(logger: Logger | undefined, finished?: (status: number) => void): RequestLog {
  const write = logger ? lineWriter(logger) : undefined;
  const answered: RequestLog["answered"] = (r, status) => {
    finished?.(status);
    if (!write || r.requestId === undefined) return;
    const ms = Math.round((performance.now() - r.requestStartedAt!) * 10) / 10;
    const route = r.route ? quoted(r.route) : "null";
    const userId = typeof r.userId === "string" ? `,"userId":${JSON.stringify(r.userId)}` : "";
    // The members written out directly (one JSON.stringify of a whole object per request showed as
    // ~4% of a small API answer's CPU). The id is plain by construction (pickRequestId).
    const members = `"reqId":"${r.requestId}","method":${quoted(r.method)},"route":${route},"status":${status},"ms":${ms}${userId}`;
    write(status >= 500 ? "error" : "info", "request", members);
  };
  const plugin = new Elysia({ name: "request-log" })
    // The context is only ever read and written through property accesses (never passed on or
    // aliased): Elysia reads its hooks' source, and a context handed around whole makes it parse
    // every request's cookies and headers up front in case they are needed.
    .onRequest((ctx) => {
      const id = pickRequestId(ctx.request.headers.get(REQUEST_ID_HEADER));
      (ctx as Timed).requestId = id;
      (ctx as Timed).requestStartedAt = performance.now();
      ctx.set.headers[REQUEST_ID_HEADER] = id;
    })
    .onAfterHandle({ as: "global" }, (ctx) => {
      answered(
        {
          requestId: (ctx as Timed).requestId,
          requestStartedAt: (ctx as Timed).requestStartedAt,
          method: ctx.request.method,
          route: ctx.route,
          // Routes behind the auth guard resolve `user`; others leave it unset.
          userId: (ctx as { user?: { id?: unknown } }).user?.id,
        },
        statusOf(ctx.response, ctx.set.status),
      );
    });
  return { plugin: plugin as unknown as Elysia, answered };
}
