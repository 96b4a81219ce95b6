// Steps a capture takes on a page before it measures it (issue 33): dismiss a widget, open a tab,
// log in. Declared once here; the pages API validates with these and the capture runs them.
import { z } from "zod";

export const STEP_TYPES = ["click", "fill", "press", "select", "wait", "scroll", "hide", "goto"] as const;
export const stepTypeSchema = z.enum(STEP_TYPES, {
  error: `A step's type is one of ${STEP_TYPES.join(", ")}`,
});
export type StepType = z.infer<typeof stepTypeSchema>;

/** At most this many steps per page. */
export const MAX_STEPS = 20;
/** One `wait` for a time waits at most this long. */
export const MAX_WAIT_MS = 10_000;
/** A page's `wait` steps together wait at most this long, so a list cannot hold a capture slot for minutes. */
export const MAX_TOTAL_WAIT_MS = 30_000;
/** What a selector, a text, a value or a URL may be at most, in characters. */
export const MAX_STEP_FIELD = 1000;

const field = z.string().trim().min(1).max(MAX_STEP_FIELD);

/**
 * One step. Which fields a type needs: click (selector or text), fill (selector, value), press
 * (value: a key such as "Enter"; selector optional), select (selector, value), wait (selector or
 * ms), scroll (selector optional: to it, else to the bottom), hide (selector, a CSS list), goto
 * (url: a path or an absolute URL on the site's own origin). `value` may hold `{{secret:name}}`.
 */
export const stepSchema = z
  .object({
    type: stepTypeSchema,
    selector: field.optional(),
    text: field.optional(),
    value: z.string().max(MAX_STEP_FIELD).optional(),
    ms: z.number().int().min(0).max(MAX_WAIT_MS, `A wait is at most ${MAX_WAIT_MS} ms`).optional(),
    url: field.optional(),
  })
  .strict();
export type Step = z.infer<typeof stepSchema>;

/** `{{secret:name}}` in a step's value: the site's secret of that name, typed in at capture time. */
export const SECRET_REF = /\{\{\s*secret:([a-z][a-z0-9_-]{0,39})\s*\}\}/g;

/** The names of the secrets a step list uses. */
export function secretNamesIn(steps: readonly Step[]): string[] {
  const names = new Set<string>();
  for (const s of steps) for (const m of (s.value ?? "").matchAll(SECRET_REF)) names.add(m[1] as string);
  return [...names];
}

/** What a step of this type is missing, or null. */
function missingField(s: Step): string | null {
  switch (s.type) {
    case "click":
      return s.selector || s.text ? null : "a click needs a selector or a text";
    case "fill":
    case "select":
      if (!s.selector) return `a ${s.type} needs a selector`;
      return s.value === undefined ? `a ${s.type} needs a value` : null;
    case "press":
      return s.value ? null : "a press needs a key as its value (for example Enter)";
    case "wait":
      return s.selector || s.ms !== undefined ? null : "a wait needs a selector or ms";
    case "hide":
      return s.selector ? null : "a hide needs a selector";
    case "goto":
      return s.url ? null : "a goto needs a url";
    case "scroll":
      return null;
  }
}

/** Where a goto's url leads, resolved against the site; null when it is not a URL at all. */
export function gotoTarget(url: string, siteOrigin: string): URL | null {
  return URL.canParse(url, siteOrigin) ? new URL(url, siteOrigin) : null;
}

/**
 * The first rule a step list breaks, as a message naming the step (counted from 1), or null. The
 * shape of each step is checked by `stepsSchema`; this checks what needs the site: every goto stays
 * on its origin, and the waits fit the time limit.
 */
export function stepsProblem(steps: readonly Step[], siteOrigin: string): string | null {
  if (steps.length > MAX_STEPS) return `A page has at most ${MAX_STEPS} steps`;
  let waited = 0;
  for (const [i, s] of steps.entries()) {
    const n = i + 1;
    const missing = missingField(s);
    if (missing) return `Step ${n}: ${missing}`;
    if (s.type === "goto") {
      const to = gotoTarget(s.url as string, siteOrigin);
      if (!to || (to.protocol !== "http:" && to.protocol !== "https:")) return `Step ${n}: the goto url is not a web address`;
      if (to.origin !== siteOrigin) return `Step ${n}: a goto stays on the site (${siteOrigin})`;
    }
    if (s.type === "wait" && s.ms !== undefined) waited += s.ms;
    if (waited > MAX_TOTAL_WAIT_MS) return `Step ${n}: the waits add up to more than ${MAX_TOTAL_WAIT_MS} ms`;
  }
  return null;
}

/** A page's steps as the API takes them; zod names the step (path [i]) on a shape error. */
export const stepsSchema = z.array(stepSchema).max(MAX_STEPS, `A page has at most ${MAX_STEPS} steps`);

/** Where a step list stopped: its step number (from 1) and why. */
export const stepFailureSchema = z.object({ index: z.number().int().min(1), error: z.string() });
export type StepFailure = z.infer<typeof stepFailureSchema>;

/**
 * A page's login, as the steps up to it: every step up to and including the last one whose value
 * holds a secret, then the submit (a click or press right after it) and the waits right after that.
 * Pages of one site whose steps start with the same login share it within a run (steps/sessions.ts):
 * it runs once, and the others start from its session and skip these steps. 0 when no step uses a secret.
 */
export function loginPrefixLength(steps: readonly Step[]): number {
  let end = 0;
  for (const [i, s] of steps.entries()) if (secretNamesIn([s]).length > 0) end = i + 1;
  if (end === 0) return 0;
  if (steps[end]?.type === "click" || steps[end]?.type === "press") end++;
  while (steps[end]?.type === "wait") end++;
  return end;
}

/** A browser session as Playwright saves one (cookies, localStorage): held in memory for one run, never stored. */
export interface SessionState {
  cookies: {
    name: string;
    value: string;
    domain: string;
    path: string;
    expires: number;
    httpOnly: boolean;
    secure: boolean;
    sameSite: "Strict" | "Lax" | "None";
  }[];
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
}

/** A login another capture of the run already did: start from its session and skip its `skip` steps. */
export interface StepSession {
  state: SessionState;
  skip: number;
}
