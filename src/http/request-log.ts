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

/**
 * Without a logger, requests still get their id (echoed), and nothing is written. `finished` hears
 * every answer's status: one after-response hook for all the accounting, as each hook costs a
 * deferred call per request.
 */
export function requestLog(logger: Logger | undefined, finished?: (status: number) => void) {
  const write = logger ? lineWriter(logger) : undefined;
  return (
    new Elysia()
      // The context is only ever read and written through property accesses (never passed on or
      // aliased): Elysia reads its hooks' source, and a context handed around whole makes it parse
      // every request's cookies and headers up front in case they are needed.
      .onRequest((ctx) => {
        const id = pickRequestId(ctx.request.headers.get(REQUEST_ID_HEADER));
        (ctx as Timed).requestId = id;
        (ctx as Timed).requestStartedAt = performance.now();
        ctx.set.headers[REQUEST_ID_HEADER] = id;
      })
      .onAfterResponse({ as: "global" }, (ctx) => {
        const status = statusOf(ctx.response, ctx.set.status);
        finished?.(status);
        const requestId = (ctx as Timed).requestId;
        if (!write || requestId === undefined) return;
        // Routes behind the auth guard resolve `user`; others leave it unset.
        const user = (ctx as { user?: { id?: unknown } }).user;
        const ms = Math.round((performance.now() - (ctx as Timed).requestStartedAt!) * 10) / 10;
        const route = ctx.route ? JSON.stringify(ctx.route) : "null";
        const userId = typeof user?.id === "string" ? `,"userId":${JSON.stringify(user.id)}` : "";
        // The members written out directly (one JSON.stringify of a whole object per request showed
        // as ~4% of a small API answer's CPU). The id is plain by construction (pickRequestId).
        const members = `"reqId":"${requestId}","method":${JSON.stringify(ctx.request.method)},"route":${route},"status":${status},"ms":${ms}${userId}`;
        write(status >= 500 ? "error" : "info", "request", members);
      })
  );
}
