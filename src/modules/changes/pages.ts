// `pages` changes: a page of a site that appeared in or disappeared from its navigation or its
// sitemap between two runs. Each run lists its sites' pages once (the discovery module's reading of
// robots.txt, the home page's navigation and the sitemaps, wired in app.ts); a source that could not
// be read in full in either run is not compared, so a slow or failing site reports nothing rather
// than every page as removed.
import type { PageRole } from "#server/modules/capture/model";
import type { Change, DetectedChange, Severity } from "./model";

/** A page one source of a site listed, with the role its path and link text suggest. */
export interface ListedPage {
  path: string;
  role: PageRole;
}

/** What a run found a site's navigation and sitemaps list; a source is null when it was not read in full. */
export interface PageSet {
  nav: ListedPage[] | null;
  sitemap: ListedPage[] | null;
}

/** One of the site's own pages, to name the page a change is about when it is one of them. */
export interface SitePage {
  id: string;
  path: string;
  role: PageRole;
}

type Source = "nav" | "sitemap";
const SOURCES: readonly Source[] = ["nav", "sitemap"];
const SOURCE_NAME: Record<Source, string> = { nav: "navigation", sitemap: "sitemap" };
/** A navigation link is what every visitor sees; a sitemap entry is for crawlers. */
const SEVERITY: Record<Source, Severity> = { nav: "medium", sitemap: "low" };
/**
 * Pages listed one by one per source and direction; past this, one change counts the rest (a blog
 * that publishes fifty posts is one move, not fifty alerts).
 */
export const LISTED_PAGE_CHANGES = 20;

/** Paths that differ only by a trailing slash are one page (as discovery counts them). */
const keyOf = (path: string) => {
  const q = path.indexOf("?");
  const [p, search] = q < 0 ? [path, ""] : [path.slice(0, q), path.slice(q)];
  return (p.length > 1 ? p.replace(/\/+$/, "") : p) + search;
};

export type PagesChange = DetectedChange & Omit<Change, keyof DetectedChange>;

/** The pages that appeared in or disappeared from each source read in full in both runs: navigation first, new before removed. */
export function pageSetChanges(before: PageSet, after: PageSet, sitePages: readonly SitePage[] = []): PagesChange[] {
  const own = new Map(sitePages.map((p) => [keyOf(p.path), p]));
  const out: PagesChange[] = [];
  for (const source of SOURCES) {
    const was = before[source];
    const is = after[source];
    if (!was || !is) continue;
    const wasKeys = new Set(was.map((p) => keyOf(p.path)));
    const isKeys = new Set(is.map((p) => keyOf(p.path)));
    const added = is.filter((p) => !wasKeys.has(keyOf(p.path)));
    const removed = was.filter((p) => !isKeys.has(keyOf(p.path)));
    out.push(...listed(added, "added", source, own), ...listed(removed, "removed", source, own));
  }
  return out;
}

function listed(pages: readonly ListedPage[], how: "added" | "removed", source: Source, own: Map<string, SitePage>): PagesChange[] {
  const name = SOURCE_NAME[source];
  const sorted = [...pages].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const out = sorted.slice(0, LISTED_PAGE_CHANGES).map((p): PagesChange => {
    const page = own.get(keyOf(p.path));
    return {
      kind: "pages",
      severity: SEVERITY[source],
      viewport: "desktop",
      summary: how === "added" ? `New page in ${name}: ${p.path}` : `Page removed from ${name}: ${p.path}`,
      before: how === "added" ? null : p.path,
      after: how === "added" ? p.path : null,
      evidence: { source },
      pageId: page?.id ?? null,
      role: page?.role ?? p.role,
      path: p.path,
      colorScheme: "light",
    };
  });
  const more = sorted.length - out.length;
  if (more > 0)
    out.push({
      kind: "pages",
      severity: SEVERITY[source],
      viewport: "desktop",
      summary: how === "added" ? `${more} more new pages in ${name}` : `${more} more pages removed from ${name}`,
      before: null,
      after: null,
      evidence: { source },
      pageId: null,
      role: "other",
      path: "/",
      colorScheme: "light",
    });
  return out;
}

/** A stored set's JSON, or null (not read in full, or a row that does not parse). */
export function parseListed(json: string | null): ListedPage[] | null {
  if (json === null) return null;
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as ListedPage[]) : null;
  } catch {
    return null;
  }
}
