// A step's `{{secret:name}}` typed in, and the values kept out of everything a capture hands back:
// every error's text and the extraction (a page may echo what was typed into it).
import { SECRET_REF } from "./model";

export const SECRET_MASK = "[secret]";

/** Raised for a step whose secret the site does not have; the caller names the step. */
export class MissingSecret extends Error {}

/** `value` with each `{{secret:name}}` replaced by its value. */
export function substitute(value: string, secrets: Readonly<Record<string, string>>): string {
  return value.replace(SECRET_REF, (_, name: string) => {
    const found = Object.hasOwn(secrets, name) ? secrets[name] : undefined;
    if (found === undefined) throw new MissingSecret(`the site has no secret named "${name}"`);
    return found;
  });
}

/** The spellings a value can take in text: as typed, escaped in a JSON string or HTML, encoded in a URL or a form. */
function spellings(values: readonly string[]): string[] {
  const all = new Set<string>();
  for (const v of values) {
    if (!v) continue;
    all.add(v);
    all.add(JSON.stringify(v).slice(1, -1));
    all.add(Bun.escapeHTML(v));
    all.add(encodeURIComponent(v));
    all.add(new URLSearchParams({ v }).toString().slice(2));
  }
  // Longest first, so a value that holds another is masked whole.
  return [...all].sort((a, b) => b.length - a.length);
}

/** Returns `text` with every secret value masked. */
export function scrubber(values: readonly string[]): (text: string) => string {
  const masked = spellings(values);
  if (masked.length === 0) return (text) => text;
  return (text) => masked.reduce((t, v) => (t.includes(v) ? t.replaceAll(v, SECRET_MASK) : t), text);
}

/** A copy of `value` (plain data: objects, arrays, strings) with every string scrubbed; untouched when nothing matched. */
export function scrubDeep<T>(value: T, scrub: (text: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return scrub(v);
    if (Array.isArray(v)) {
      let changed = false;
      const out = v.map((x) => {
        const y = walk(x);
        if (y !== x) changed = true;
        return y;
      });
      return changed ? out : v;
    }
    if (v && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const [key, y] = [scrub(k), walk(x)];
        if (y !== x || key !== k) changed = true;
        out[key] = y;
      }
      return changed ? out : v;
    }
    return v;
  };
  return walk(value) as T;
}
