// The editor's copy of the step rules answers as the server's does (src/modules/capture/steps/model.ts):
// the same message for a list that breaks a rule, and none for a list the server takes.
import { expect, test } from "bun:test";
import { type Step, stepsProblem, stepsSchema } from "#server/modules/capture/model";
import { emptyDraft, fromDraft, stepNamed, stepsError, toDraft } from "./steps";

const origin = "https://acme.test";

/** The server's verdict: the shape first (zod names the step by its index), then the site's rules. */
function serverSays(steps: unknown[]): { ok: boolean; step: number | null; message: string | null } {
  const parsed = stepsSchema.safeParse(steps);
  if (!parsed.success) {
    const at = parsed.error.issues[0]?.path[0];
    return { ok: false, step: typeof at === "number" ? at + 1 : null, message: null };
  }
  const problem = stepsProblem(parsed.data, origin);
  return { ok: problem === null, step: stepNamed(problem), message: problem };
}

const cases: Step[][] = [
  [],
  [{ type: "click", selector: "#ok" }],
  [{ type: "click" }],
  [{ type: "click", text: "Accept all" }],
  [
    { type: "fill", selector: "#email", value: "me@acme.test" },
    { type: "fill", selector: "#pw" },
  ],
  [{ type: "fill", value: "x" }],
  [{ type: "select", selector: "#plan" }],
  [{ type: "press" }],
  [{ type: "press", value: "Enter", selector: "#q" }],
  [{ type: "wait" }],
  [
    { type: "wait", ms: 500 },
    { type: "wait", selector: ".plans" },
  ],
  [{ type: "wait", ms: 10_001 }],
  [
    { type: "wait", ms: 10_000 },
    { type: "wait", ms: 10_000 },
    { type: "wait", ms: 10_000 },
    { type: "wait", ms: 1 },
  ],
  [{ type: "hide" }],
  [{ type: "hide", selector: "#chat, .promo" }],
  [{ type: "scroll" }],
  [{ type: "goto", url: "/pricing" }],
  [{ type: "goto", url: "https://acme.test/login?next=/app" }],
  [
    { type: "click", selector: "#a" },
    { type: "goto", url: "https://evil.test/pricing" },
  ],
  [{ type: "goto", url: "javascript:alert(1)" }],
  [{ type: "goto" }],
  [{ type: "click", selector: "x".repeat(1001) }],
  [{ type: "fill", selector: "#pw", value: "{{secret:password}}" }],
  Array.from({ length: 21 }, () => ({ type: "scroll" as const })),
];

test("the editor's rules give the server's answer, naming the same step", () => {
  for (const steps of cases) {
    const server = serverSays(steps);
    const client = stepsError(steps, origin);
    expect({ steps, ok: client === null }).toEqual({ steps, ok: server.ok });
    if (server.message) expect(client).toBe(server.message);
    else if (!server.ok && server.step) expect(stepNamed(client)).toBe(server.step);
  }
});

test("a draft keeps only the fields its type shows, and round-trips a saved step", () => {
  const d = { ...emptyDraft("goto"), url: " /pricing ", selector: "#left-over", ms: "300" };
  expect(fromDraft(d)).toEqual({ type: "goto", url: "/pricing" });
  expect(fromDraft({ ...emptyDraft("wait"), ms: "250" })).toEqual({ type: "wait", ms: 250 });
  expect(stepsError([fromDraft({ ...emptyDraft("wait"), ms: "1.5" })], origin)).toBe("Step 1: ms is a whole number of milliseconds");
  const saved: Step = { type: "fill", selector: "#pw", value: " {{secret:password}} " };
  expect(fromDraft(toDraft(saved))).toEqual(saved);
});
