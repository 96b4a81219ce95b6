// The query of a paged, searchable admin list (users, everyone's API keys): one schema, so the
// lists page and search alike and say the same thing about a bad page or search.
import { z } from "zod";

export const pagedSearchQuery = z.object({
  page: z.coerce.number({ error: "page must be a number" }).int("page must be a whole number").min(1, "page starts at 1").default(1),
  pageSize: z.coerce
    .number({ error: "pageSize must be a number" })
    .int("pageSize must be a whole number")
    .min(1, "pageSize must be at least 1")
    .max(100, "pageSize must be at most 100")
    .default(25),
  q: z.string().trim().max(100, "Search must be under 100 characters").optional(),
});
