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
  new HttpError(
    429,
    "Too many requests. Slow down and try again shortly.",
    { retryAfter: retryAfterSeconds },
    {
      "retry-after": String(retryAfterSeconds),
    },
  );
export const unavailable = (message: string, retryAfterSeconds = 60) =>
  new HttpError(503, message, {}, { "retry-after": String(retryAfterSeconds) });

interface Issue {
  message: string;
  path?: readonly (PropertyKey | { key: PropertyKey })[];
}

/** The first failing rule becomes the message, every failure goes in `details`. */
function invalid(issues: readonly Issue[]): HttpError {
  const details = issues.map((i) => ({
    path: (i.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join("."),
    message: i.message,
  }));
  return badRequest(details[0]?.message ?? "Invalid request", { details });
}

/** Parses untrusted input that no route schema covers (e.g. a value read from a path). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw invalid(result.error.issues);
}

interface StandardLike {
  "~standard": { validate(value: unknown): { issues?: readonly Issue[] } | Promise<unknown> };
}

/**
 * The answer to a request Elysia's validation refused (a route's params, query or body schema):
 * the same message and `details` that parsing by hand gave. An absent body is checked as `{}`,
 * so it names the first missing field rather than "expected object".
 */
export function requestValidationError(failure: { validator?: unknown; value?: unknown; type?: string }): HttpError {
  const v = failure.validator as { schema?: unknown } | undefined;
  const schema = (v && typeof v === "object" && "~standard" in v ? v : v?.schema) as StandardLike | undefined;
  const value = failure.value ?? (failure.type === "body" || failure.type === "query" ? {} : failure.value);
  const result = schema?.["~standard"].validate(value);
  if (!result || result instanceof Promise || !result.issues?.length) return badRequest("Invalid request");
  return invalid(result.issues);
}

export function jsonError(status: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify({ error: message, ...extra }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}
