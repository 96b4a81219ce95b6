// Pages of a site (issue 33): request and response shapes, declared once. A target is a site; its
// pages are paths on its origin, each with a role that results match across sites.
import { z } from "zod";
import { MAX_STEPS, pageRoleSchema, stepSchema } from "#server/modules/capture/model";

/** Pages a site has at most, its home page included. */
export const MAX_PAGES_PER_SITE = 20;

export const pageDto = z.object({
  id: z.string(),
  targetId: z.string(),
  /** Path, query and fragment on the site's origin ("/pricing"). */
  path: z.string(),
  /** The page's full address: the site's origin and the path. */
  url: z.string(),
  role: pageRoleSchema,
  steps: z.array(stepSchema),
});
export type PageDto = z.infer<typeof pageDto>;

const pathField = z
  .string({ error: "A page needs a path" })
  .trim()
  .min(1, "A page needs a path")
  .max(2048, "A page's path is at most 2048 characters");

/**
 * Steps arrive as a list of anything and are checked one by one in the service, so that a broken
 * step is answered as "Step 3: …" (a schema error would only name its place in the list).
 */
const stepsField = z
  .array(z.unknown(), { error: "Steps are a list of steps" })
  .max(MAX_STEPS, `A page has at most ${MAX_STEPS} steps`)
  .describe("Step objects: { type: click | fill | press | select | wait | scroll | hide | goto, selector?, text?, value?, ms?, url? }");

export const createPageBody = z
  .object({
    /** A path on the site ("/pricing"), or an absolute URL on the site's own origin. */
    path: pathField,
    role: pageRoleSchema,
    steps: stepsField.optional(),
  })
  .strict();
export type CreatePageInput = z.infer<typeof createPageBody>;

export const updatePageBody = z
  .object({ path: pathField.optional(), role: pageRoleSchema.optional(), steps: stepsField.optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, "Nothing to change: send path, role or steps");
export type UpdatePageInput = z.infer<typeof updatePageBody>;
