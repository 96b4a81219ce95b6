// A JSON answer built from a value a service hands out unchanged until its data changes (a cached
// list): the value is serialised once and its text reused for every request that gets it.

const texts = new WeakMap<object, string>();

/** Responds with `value` as JSON; the text is cached per object, so `value` must not be changed later. */
export function cachedJson(value: object): Response {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return new Response(text, { headers: { "content-type": "application/json" } });
}
