// A JSON answer built from a value a service hands out unchanged until its data changes (a cached
// list): the value is serialised once and its text reused for every request that gets it.

const texts = new WeakMap<object, string>();

/**
 * `value` as JSON text, with the content type set on the response. The text is cached per object,
 * so `value` must never be changed afterwards. Text rather than a Response: Elysia would copy a
 * returned Response to merge in the security headers. Typed as the value it stands for, so the
 * route's declared response schema still describes (and outside production checks) the answer.
 */
export function cachedJson<T extends object>(value: T, set: { headers: Record<string, unknown> }): T {
  set.headers["content-type"] = "application/json";
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text as unknown as T;
}
