// A page's steps as the editor holds them, and the client's copy of the server's step rules
// (src/modules/capture/steps/model.ts: stepSchema, stepsSchema, stepsProblem). web/ may not import
// zod schemas or functions from src/ at runtime (decision 0008), so the rules are mirrored here with
// the server's exact messages, and steps.test.ts holds the two to the same answers. The server
// re-checks everything; this only spares the user a round trip.
import type { Step, StepType } from "#server/modules/capture/model";

export const STEP_TYPES = ["click", "fill", "press", "select", "wait", "scroll", "hide", "goto"] as const satisfies readonly StepType[];
export const MAX_STEPS = 20;
export const MAX_WAIT_MS = 10_000;
export const MAX_TOTAL_WAIT_MS = 30_000;
export const MAX_STEP_FIELD = 1000;

export type StepField = "selector" | "text" | "value" | "ms" | "url";

/** The fields the editor shows for a type, in order, with their labels and hints. */
export const STEP_FIELDS: Record<StepType, { field: StepField; label: string; placeholder: string }[]> = {
  click: [
    { field: "selector", label: "Selector", placeholder: "button.accept (or use the text)" },
    { field: "text", label: "Visible text", placeholder: "Sign in" },
  ],
  fill: [
    { field: "selector", label: "Selector", placeholder: "#email" },
    { field: "value", label: "Value", placeholder: "me@example.com or {{secret:password}}" },
  ],
  press: [
    { field: "value", label: "Key", placeholder: "Enter" },
    { field: "selector", label: "Selector (optional)", placeholder: "#search" },
  ],
  select: [
    { field: "selector", label: "Selector", placeholder: "select#plan" },
    { field: "value", label: "Value", placeholder: "yearly" },
  ],
  wait: [
    { field: "selector", label: "Selector", placeholder: ".pricing-table (or a time)" },
    { field: "ms", label: "Milliseconds", placeholder: "1000" },
  ],
  scroll: [{ field: "selector", label: "Selector (optional)", placeholder: "#plans (else to the bottom)" }],
  hide: [{ field: "selector", label: "Selectors", placeholder: "#chat-widget, .promo-bar" }],
  goto: [{ field: "url", label: "URL", placeholder: "/pricing" }],
};

/** One step while it is edited: every field a string, as the inputs hold it. */
export interface StepDraft {
  type: StepType;
  selector: string;
  text: string;
  value: string;
  ms: string;
  url: string;
}

export const emptyDraft = (type: StepType = "click"): StepDraft => ({ type, selector: "", text: "", value: "", ms: "", url: "" });

export function toDraft(step: Step): StepDraft {
  return {
    type: step.type,
    selector: step.selector ?? "",
    text: step.text ?? "",
    value: step.value ?? "",
    ms: step.ms === undefined ? "" : String(step.ms),
    url: step.url ?? "",
  };
}

/**
 * The step a draft stands for: only the fields its type shows, blanks left out (a fill's value is
 * kept as typed, spaces and all, as the server keeps it). A time that is not a whole number stays
 * NaN, for `stepsError` to name.
 */
export function fromDraft(d: StepDraft): Step {
  const shown = new Set(STEP_FIELDS[d.type].map((f) => f.field));
  const step: Step = { type: d.type };
  if (shown.has("selector") && d.selector.trim()) step.selector = d.selector.trim();
  if (shown.has("text") && d.text.trim()) step.text = d.text.trim();
  if (shown.has("value") && d.value !== "") step.value = d.value;
  if (shown.has("url") && d.url.trim()) step.url = d.url.trim();
  if (shown.has("ms") && d.ms.trim()) step.ms = /^\d+$/.test(d.ms.trim()) ? Number(d.ms.trim()) : Number.NaN;
  return step;
}

/** The shape rules (the server's stepSchema) for one step, as a message, or null. */
function shapeProblem(s: Step): string | null {
  if (!STEP_TYPES.includes(s.type)) return `A step's type is one of ${STEP_TYPES.join(", ")}`;
  for (const f of ["selector", "text", "url"] as const) {
    const v = s[f];
    if (v !== undefined && (v.trim().length === 0 || v.trim().length > MAX_STEP_FIELD))
      return `the ${f} is at most ${MAX_STEP_FIELD} characters`;
  }
  if (s.value !== undefined && s.value.length > MAX_STEP_FIELD) return `the value is at most ${MAX_STEP_FIELD} characters`;
  if (s.ms !== undefined) {
    if (!Number.isInteger(s.ms) || s.ms < 0) return "ms is a whole number of milliseconds";
    if (s.ms > MAX_WAIT_MS) return `A wait is at most ${MAX_WAIT_MS} ms`;
  }
  return null;
}

/** What a step of this type is missing, or null (the server's words). */
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

/**
 * The first rule a step list breaks, as the server words it ("Step 3: a goto stays on the site
 * (https://acme.com)"), or null. Mirrors stepsSchema then stepsProblem.
 */
export function stepsError(steps: readonly Step[], siteOrigin: string): string | null {
  if (steps.length > MAX_STEPS) return `A page has at most ${MAX_STEPS} steps`;
  for (const [i, s] of steps.entries()) {
    const shape = shapeProblem(s);
    if (shape) return `Step ${i + 1}: ${shape}`;
  }
  let waited = 0;
  for (const [i, s] of steps.entries()) {
    const n = i + 1;
    const missing = missingField(s);
    if (missing) return `Step ${n}: ${missing}`;
    if (s.type === "goto") {
      const to = URL.canParse(s.url as string, siteOrigin) ? new URL(s.url as string, siteOrigin) : null;
      if (!to || (to.protocol !== "http:" && to.protocol !== "https:")) return `Step ${n}: the goto url is not a web address`;
      if (to.origin !== siteOrigin) return `Step ${n}: a goto stays on the site (${siteOrigin})`;
    }
    if (s.type === "wait" && s.ms !== undefined) waited += s.ms;
    if (waited > MAX_TOTAL_WAIT_MS) return `Step ${n}: the waits add up to more than ${MAX_TOTAL_WAIT_MS} ms`;
  }
  return null;
}

/** The step (from 1) a message names, "Step 3: …", or null. */
export function stepNamed(message: string | null): number | null {
  const m = message ? /^Step (\d+):/.exec(message) : null;
  return m ? Number(m[1]) : null;
}

/** `{{secret:name}}`: the names a list's values use, for the editor to say which secrets it needs. */
export function secretNames(steps: readonly Step[]): string[] {
  const names = new Set<string>();
  for (const s of steps)
    for (const m of (s.value ?? "").matchAll(/\{\{\s*secret:([a-z][a-z0-9_-]{0,39})\s*\}\}/g)) names.add(m[1] as string);
  return [...names];
}
