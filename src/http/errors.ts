import { z } from "zod";

/** An error meant for the client: its message is safe to show and its status is deliberate. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new HttpError(400, message, extra);
export const unauthorized = (message = "Authentication required") => new HttpError(401, message);
export const forbidden = (message = "Admins only") => new HttpError(403, message);
export const notFound = (message = "Not found") => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooMany = (retryAfterSeconds: number) =>
  new HttpError(429, "Too many requests. Slow down and try again shortly.", { retryAfter: retryAfterSeconds }, {
    "retry-after": String(retryAfterSeconds),
  });
export const unavailable = (message: string, retryAfterSeconds = 60) =>
  new HttpError(503, message, {}, { "retry-after": String(retryAfterSeconds) });

/** Parses untrusted input; the first failing rule becomes the message, every failure goes in `details`. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const details = result.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  throw badRequest(details[0]?.message ?? "Invalid request", { details });
}

export function jsonError(status: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify({ error: message, ...extra }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}
