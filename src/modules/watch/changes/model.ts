import { z } from "zod";

export const changeKinds = ["copy", "cta", "palette", "typography", "layout", "meta", "timing", "visual"] as const;
export const changeKind = z.enum(changeKinds);
export type ChangeKind = z.infer<typeof changeKind>;

export const severities = ["low", "medium", "high"] as const;
export const severity = z.enum(severities);
export type Severity = z.infer<typeof severity>;

export const boxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export const changeSchema = z.object({
  kind: changeKind,
  severity,
  viewport: z.enum(["desktop", "mobile"]),
  /** One line with the before and after values, e.g. `CTA “Start free” → “Book a demo”`. */
  summary: z.string(),
  /** The value before/after as shown in the summary; null when the thing was added/removed. */
  before: z.string().nullable(),
  after: z.string().nullable(),
  /** Where to look: boxes in CSS px of the full-page screenshot of each side. */
  evidence: z.object({
    beforeBox: boxSchema.optional(),
    afterBox: boxSchema.optional(),
    /** For `visual`: the changed regions (after-side coordinates) and the share of the page that changed. */
    regions: z.array(boxSchema).optional(),
    changedShare: z.number().optional(),
    /** For `palette`: CIEDE2000 between the two colours. */
    deltaE: z.number().optional(),
    /** For `timing`: the usual range measured across the target's history. */
    usual: z.string().optional(),
  }),
});
export type Change = z.infer<typeof changeSchema>;

export const severityRank: Record<Severity, number> = { low: 0, medium: 1, high: 2 };
