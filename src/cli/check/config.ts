// design-intel.json: what `design-intel check` compares and the budgets it enforces. The schema is
// the one source: parsing, the messages (named by path) and `--print-schema` all come from it.
import { z } from "zod";
import { isHttpUrl } from "#server/modules/comparisons/model";

const page = z.strictObject({
  url: z.string({ error: "expected a URL" }).refine(isHttpUrl, "expected an absolute http(s) URL"),
  label: z.string({ error: "expected a label" }).trim().min(1, "expected a label").max(50, "must be under 50 characters"),
});

const max = z.strictObject({
  max: z.number({ error: "expected a number" }).min(0, "must be 0 or more"),
});

const rank = z.strictObject({ max: z.int({ error: "expected a whole number" }).min(1, "1 is the best place") });

const share = z.number({ error: "expected a number" }).min(0, "must be between 0 and 1").max(1, "must be between 0 and 1");
/** A part of your page masked out of the visual diff, in CSS px of the full-page screenshot. */
const region = z.strictObject({
  x: z.number({ error: "expected a number" }).min(0, "must be 0 or more"),
  y: z.number({ error: "expected a number" }).min(0, "must be 0 or more"),
  width: z.number({ error: "expected a number" }).positive("must be more than 0"),
  height: z.number({ error: "expected a number" }).positive("must be more than 0"),
  /** Only at this viewport; both when absent. */
  viewport: z.enum(["desktop", "mobile"], { error: 'expected "desktop" or "mobile"' }).optional(),
});

const similarityBounds = z
  .strictObject({ max: share.optional(), min: share.optional() })
  .refine((b) => b.max !== undefined || b.min !== undefined, "expected max or min");

/** The measured value behind each absolute budget, per viewport; null when the page did not report it. */
export const ABSOLUTE_BUDGETS = [
  "lcpMs",
  "fcpMs",
  "cls",
  "lowContrast",
  "imagesWithoutAlt",
  "inputsWithoutLabel",
  "accessibilityViolations",
  "failedRequests",
  "speedIndex",
  "tbt",
] as const;
export type AbsoluteBudget = (typeof ABSOLUTE_BUDGETS)[number];

export const checkConfig = z
  .strictObject({
    $schema: z.string().optional(),
    site: page,
    // A comparison needs two pages: yours and at least one competitor.
    competitors: z
      .array(page, { error: "expected a list of { url, label }" })
      .min(1, "name at least one competitor")
      .max(5, "at most 5 competitors"),
    viewports: z
      .array(z.enum(["desktop", "mobile"], { error: 'expected "desktop" or "mobile"' }), { error: "expected a list of viewports" })
      .min(1, "name at least one viewport")
      .default(["desktop", "mobile"]),
    budgets: z
      .strictObject({
        lcpMs: z
          .strictObject({
            max: z.number({ error: "expected a number" }).min(0, "must be 0 or more").optional(),
            /** Your LCP over the fastest competitor's, e.g. 1.2: at most 20 % slower than the best. */
            maxVsBestCompetitor: z.number({ error: "expected a number" }).positive("must be more than 0").optional(),
          })
          .optional(),
        fcpMs: max.optional(),
        cls: max.optional(),
        lowContrast: max.optional(),
        imagesWithoutAlt: max.optional(),
        inputsWithoutLabel: max.optional(),
        /** Elements failing any axe-core rule (WCAG A/AA and best practices), all rules together. */
        accessibilityViolations: max.optional(),
        /** Requests the page made that failed or got an error status (its own document excluded). */
        failedRequests: max.optional(),
        /** Speed Index of your page's own load, in ms (how soon the first screen looks complete). */
        speedIndex: max.optional(),
        /** Total Blocking Time of your page's own load, in ms (main-thread tasks over 50 ms, from FCP). */
        tbt: max.optional(),
        /** Share (0..1) of your page's pixels that changed against the baseline (see --baseline-dir). */
        visual: z.strictObject({ maxChangedShare: share }).optional(),
        /** Your place among the set, 1 = best (fastest LCP, highest body-text contrast). */
        rank: z.strictObject({ lcpMs: rank.optional(), bodyContrast: rank.optional() }).optional(),
        /** Overall similarity (0..1) to a competitor, by its label: max = don't look like them, min = stay close. */
        similarity: z.record(z.string(), similarityBounds, { error: "expected { <label>: { max | min } }" }).optional(),
      })
      .default({}),
    /** What the visual diff leaves out on your page: elements by CSS selector, and fixed regions. */
    ignore: z
      .strictObject({
        selectors: z
          .array(
            z
              .string({ error: "expected a CSS selector" })
              .trim()
              .min(1, "expected a CSS selector")
              .max(300, "must be under 300 characters"),
          )
          .max(50, "at most 50 selectors")
          .default([]),
        regions: z.array(region, { error: "expected a list of { x, y, width, height }" }).max(50, "at most 50 regions").default([]),
      })
      .default({ selectors: [], regions: [] }),
  })
  .superRefine((c, ctx) => {
    const labels = [c.site.label, ...c.competitors.map((p) => p.label)];
    labels.forEach((l, i) => {
      if (labels.indexOf(l) !== i)
        ctx.addIssue({
          code: "custom",
          path: i === 0 ? ["site", "label"] : ["competitors", i - 1, "label"],
          message: `the label "${l}" is used twice`,
        });
    });
    const competitorLabels = c.competitors.map((p) => p.label);
    for (const label of Object.keys(c.budgets.similarity ?? {}))
      if (!competitorLabels.includes(label))
        ctx.addIssue({ code: "custom", path: ["budgets", "similarity", label], message: `no competitor is labelled "${label}"` });
  });
export type CheckConfig = z.infer<typeof checkConfig>;

export class ConfigError extends Error {}

const pathText = (path: PropertyKey[]) =>
  path.reduce<string>((s, p) => (typeof p === "number" ? `${s}[${p}]` : s ? `${s}.${String(p)}` : String(p)), "");

/** The config, or a ConfigError whose message names the first wrong field: `budgets.lcpMs.max: expected a number`. */
export function parseConfig(text: string, source: string): CheckConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${source}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const r = checkConfig.safeParse(raw);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const where = pathText(issue.path);
  const message =
    issue.code === "unrecognized_keys"
      ? `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`
      : issue.message;
  return fail(`${source}: ${where ? `${where}: ` : ""}${message}`);
}

function fail(message: string): never {
  throw new ConfigError(message);
}

/** The JSON Schema shipped for editors and CI linting (`design-intel check --print-schema`). */
export function configJsonSchema() {
  return z.toJSONSchema(checkConfig, { io: "input", unrepresentable: "any" });
}
