import { Elysia } from "elysia";
import { HttpError, jsonError, requestValidationError } from "./errors";
import type { Logger } from "#server/lib/logger";
import type { RequestMetrics } from "./request-metrics";
import { requestLog } from "./request-log";
import { RESOURCE_HEADER_ENTRIES, RESOURCE_HEADERS } from "./security-headers";
import { isDatabaseUnavailable } from "#server/db/sql/errors";
import { isStorageError, STORAGE_RETRY_AFTER_SECONDS, storageMessageOf } from "./storage-errors";

export const DATABASE_UNAVAILABLE_MESSAGE = "The database is not answering right now. Nothing was changed; try again shortly.";
const DATABASE_RETRY_AFTER_SECONDS = 5;

export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Bun.serve's own cap. Past it Bun answers a bare 413 before any of our code runs, so it sits far
 * above MAX_BODY_BYTES: every realistic oversized body reaches readLimited and gets a JSON 413.
 */
export const TRANSPORT_BODY_LIMIT = 64 * 1024 * 1024;

const tooLarge = () => new HttpError(413, "Request body is larger than 1 MB");

/** Reads at most MAX_BODY_BYTES, chunked bodies included: the read stops as soon as the limit is passed. */
async function readLimited(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      void reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * Cross-cutting behaviour for every route: bounded JSON parsing, `{error}` answers,
 * security headers and request accounting.
 */
export function httpBase(opts: { metrics: RequestMetrics; log?: (msg: string, err: unknown) => void; logger?: Logger }) {
  const requests = requestLog(opts.logger, (status) => opts.metrics.finished(status));
  return (
    new Elysia({ name: "http-base" })
      .onRequest(() => {
        opts.metrics.started();
      })
      .use(requests.plugin)
      .onParse({ as: "global" }, async ({ request, contentType }) => {
        const text = await readLimited(request);
        if (text.trim() === "") return {};
        if (contentType?.includes("application/json") || /^\s*[[{]/.test(text)) {
          try {
            return JSON.parse(text);
          } catch {
            throw new HttpError(400, "Malformed JSON body");
          }
        }
        return text;
      })
      // Property accesses only, never the context passed on whole (see request-log.ts).
      .onError({ as: "global" }, (ctx) => {
        const { error: thrown, code, request, path, set } = ctx;
        let error: unknown = thrown;
        let res: Response;
        // Elysia wraps whatever a parser throws in its own ParseError; ours carries the real status.
        const cause = (error as { cause?: unknown }).cause;
        if (cause instanceof HttpError) error = cause;
        if (error instanceof HttpError) res = jsonError(error.status, error.message, error.extra, error.headers);
        else if (code === "NOT_FOUND") res = jsonError(404, `No route for ${request.method} ${path}`);
        else if (code === "PARSE") res = jsonError(400, "Malformed request body");
        else if (code === "VALIDATION" && thrown.type === "response") {
          // Our answer broke its own declared schema (checked outside production only): our bug.
          opts.log?.(`response schema mismatch on ${request.method} ${path}`, thrown.all);
          res = jsonError(500, "Something went wrong on our side");
        } else if (code === "VALIDATION") {
          const e = requestValidationError(thrown);
          res = jsonError(e.status, e.message, e.extra);
        } else if (isDatabaseUnavailable(error)) {
          // PostgreSQL cannot be reached (down, restarting, out of connections): nothing was written; the client may retry.
          opts.log?.(`database unavailable on ${request.method} ${path}`, (error as Error).message);
          res = jsonError(503, DATABASE_UNAVAILABLE_MESSAGE, {}, { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) });
        } else if (isStorageError(error)) {
          // The write was rolled back (a transaction, or one atomic statement); the client may retry.
          opts.log?.(`storage unavailable on ${request.method} ${path}`, (error as Error).message);
          res = jsonError(503, storageMessageOf(error), {}, { "retry-after": String(STORAGE_RETRY_AFTER_SECONDS) });
        } else {
          opts.log?.(`unhandled error on ${request.method} ${path}`, error);
          res = jsonError(500, "Something went wrong on our side");
        }
        for (const [k, v] of RESOURCE_HEADER_ENTRIES) res.headers.set(k, v);
        set.status = res.status;
        requests.answered(
          {
            requestId: (ctx as { requestId?: string }).requestId,
            requestStartedAt: (ctx as { requestStartedAt?: number }).requestStartedAt,
            method: request.method,
            route: ctx.route,
            userId: (ctx as { user?: { id?: unknown } }).user?.id,
          },
          res.status,
        );
        return res;
      })
      // Elysia starts every response's headers from these (a copy of one object: cheaper per request
      // than an after-handle hook); a returned Response keeps its own values (an SSR document's
      // full policy with its nonce, the API reference page's).
      .headers({ ...RESOURCE_HEADERS })
  );
}
