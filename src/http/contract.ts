// Helpers for declaring a route's contract in its options: the error body every non-2xx answer
// carries, response schemas, and the OpenAPI detail (tag, security, non-JSON content).
import { z } from "zod";

/** `{ error }` plus what some errors add: validation `details`, a 429's `retryAfter`. */
export const apiError = z.object({
  error: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  retryAfter: z.number().optional(),
});
export type ApiError = z.infer<typeof apiError>;

/** `{ ok: true }`: the answer of an action that has nothing else to say. */
export const okAnswer = z.object({ ok: z.literal(true) });

/** A route's single `:id` path parameter. */
export const idParams = z.object({ id: z.string() });

/**
 * Responses are checked against their schemas everywhere but production (tests and dev catch a
 * drifting schema); production trusts the compiler, which already holds every handler's return
 * type to its schema. See docs/decisions/0004-route-schemas-and-openapi.md.
 */
const CHECK_RESPONSES = process.env.NODE_ENV !== "production";

type Standard = z.ZodType["~standard"];

/** Where a production response declaration keeps the schema it stands for (see declaredSchema). */
const DECLARED = Symbol("declared response schema");

/**
 * A response schema for a route's `response` map. The declared type is the schema's own, and so is
 * the JSON Schema in the OpenAPI document; only what Elysia gets at runtime differs.
 *
 * Outside production, the schema checks every answer. The check never rewrites the answer (zod
 * would strip unknown keys, so tests would see a different body than production), and a string is
 * a pre-serialised JSON body (see cached-json.ts), checked once parsed.
 *
 * In production, Elysia gets no validator at all: a schema of any kind is a call per answer, and a
 * Standard Schema one makes Elysia compile every route with it as an async function, an await and
 * a promise per request even when nothing else is asynchronous. What Elysia gets instead is the
 * shape it skips (a non-schema object whose `schema.noValidate` is set); the OpenAPI document
 * reads the real schema back through declaredSchema. See docs/decisions/0011-no-response-validators-in-production.md.
 */
export function responds<S extends z.ZodType>(schema: S): S {
  if (!CHECK_RESPONSES) return Object.freeze({ schema: Object.freeze({ noValidate: true }), [DECLARED]: schema }) as unknown as S;
  const std = schema["~standard"];
  const validate: Standard["validate"] = (value) => {
    const parsed = typeof value === "string" ? JSON.parse(value) : value;
    const result = std.validate(parsed) as ReturnType<Standard["validate"]>;
    if (result instanceof Promise) throw new Error("async response schemas are not supported");
    return result.issues ? result : { value };
  };
  const wrapper = Object.create(schema) as S;
  Object.defineProperty(wrapper, "~standard", { value: { ...std, validate }, enumerable: false });
  return wrapper;
}

/** The schema a `responds()` value declares (itself outside production). */
export function declaredSchema(value: unknown): unknown {
  return (value && typeof value === "object" && (value as { [DECLARED]?: unknown })[DECLARED]) || value;
}

/** The error statuses a route can answer with, each with the `{ error }` body. */
export function errors<const C extends readonly number[]>(...codes: C): { [K in C[number]]: typeof apiError } {
  const out = {} as Record<number, typeof apiError>;
  for (const c of codes) out[c] = errorBody;
  return out as { [K in C[number]]: typeof apiError };
}
const errorBody = responds(apiError);

/**
 * OpenAPI detail of a route whose 200 answer is not JSON (a file, an image). The generator only
 * knows schemas, so the content types ride on an extension that the document builder turns into
 * the 200 response (src/http/openapi.ts).
 */
export function binaryResponse(contentType: string | readonly string[], description: string) {
  const types = typeof contentType === "string" ? [contentType] : contentType;
  return { "x-binary-response": { description, contentTypes: [...types] } };
}

/**
 * OpenAPI detail of a route that answers with a redirect (a browser navigation, not a JSON call);
 * the document builder turns this into the 302 response with its Location (src/http/openapi.ts).
 */
export function redirectResponse(description: string) {
  return { "x-redirect": { description } };
}

/**
 * OpenAPI detail of a route that answers 204 with no body (the generator only knows schemas; the
 * document builder turns this into the 204 response, see src/http/openapi.ts).
 */
export function noContentResponse(description: string) {
  return { "x-no-content": { description } };
}
