import { z } from "zod";
import { type PageRole, pageRoleSchema } from "#server/modules/capture/model";

export type { PageRole };

export const discoveredPageDto = z.object({
  /** Absolute URL on the site's origin. */
  url: z.string(),
  /** Path (and query, when the page has one) on the site's origin: what a page of the site is stored as. */
  path: z.string(),
  role: pageRoleSchema,
  /** The page's own <title> when it was fetched within the time budget, else the navigation link's text, else null. */
  title: z.string().nullable(),
  /** Where the page was found; a page in both the navigation and a sitemap is `nav`; the home page is `nav`. */
  source: z.enum(["sitemap", "nav"]),
});
export type DiscoveredPage = z.infer<typeof discoveredPageDto>;

export const discoveryDto = z.object({
  /** Up to 20 proposals, home first: same origin, one per path, none that robots.txt disallows. */
  pages: z.array(discoveredPageDto),
  /** Paths found in a sitemap or the navigation that robots.txt disallows for us: never fetched, never proposed. */
  disallowed: z.array(z.string()),
});
export type DiscoveryDto = z.infer<typeof discoveryDto>;
