// A paged admin list (users, everyone's API keys, the audit log): its query and its answer, each
// written once, so the lists page alike and say the same thing about a bad page or search.
import { z } from "zod";

/** The page fields of every paged admin list (users, keys, audit log). */
export const pageFields = {
  page: z.coerce.number({ error: "page must be a number" }).int("page must be a whole number").min(1, "page starts at 1").default(1),
  pageSize: z.coerce
    .number({ error: "pageSize must be a number" })
    .int("pageSize must be a whole number")
    .min(1, "pageSize must be at least 1")
    .max(100, "pageSize must be at most 100")
    .default(25),
};

export const pagedSearchQuery = z.object({
  ...pageFields,
  q: z.string().trim().max(100, "Search must be under 100 characters").optional(),
});

/**
 * A paged list's answer: the page's items under `key`, then which page this is, its size, and how
 * many items there are in all.
 */
export function pagedAnswer<K extends string, T extends z.ZodType>(key: K, item: T) {
  const items = { [key]: z.array(item) } as Record<K, z.ZodArray<T>>;
  return z.object({ ...items, page: z.number(), pageSize: z.number(), total: z.number() });
}
