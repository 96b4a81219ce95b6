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

/**
 * A response schema for a route's `response` map. The declared value is the schema itself (its
 * type, its JSON Schema); only the runtime check differs. The check never rewrites the answer
 * (zod would strip unknown keys, so tests would see a different body than production), and a
 * string is a pre-serialised JSON body (see cached-json.ts), checked once parsed.
 */
export function responds<S extends z.ZodType>(schema: S): S {
  const std = schema["~standard"];
  const validate: Standard["validate"] = CHECK_RESPONSES
    ? (value) => {
        const parsed = typeof value === "string" ? JSON.parse(value) : value;
        const result = std.validate(parsed) as ReturnType<Standard["validate"]>;
        if (result instanceof Promise) throw new Error("async response schemas are not supported");
        return result.issues ? result : { value };
      }
    : (value) => ({ value });
  const wrapper = Object.create(schema) as S;
  Object.defineProperty(wrapper, "~standard", { value: { ...std, validate }, enumerable: false });
  return wrapper;
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
