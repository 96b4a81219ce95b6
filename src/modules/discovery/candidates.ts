// The pages discovery found, before and after choosing which to propose: one per path on the
// site's origin, none that robots.txt disallows (those are only counted in `disallowed`).
import { classifyRole } from "./roles";
import type { DiscoveredPage, PageRole } from "./model";
import type { SiteRules } from "./robots";

export interface Candidate {
  url: URL;
  /** Path and query, as proposed. */
  path: string;
  source: "nav" | "sitemap";
  /** The navigation link's text, when the page was linked from the navigation. */
  linkText: string | null;
  role: PageRole;
  /** Every source that listed it (the watch compares each source's set between runs). */
  seenIn: Set<"nav" | "sitemap">;
  /** Found order, the last tie-breaker. */
  order: number;
}

/** Proposal order of roles after home: the pages teams compare most first. */
const ROLE_RANK: Record<PageRole, number> = { home: 0, pricing: 1, features: 2, signup: 3, docs: 4, blog: 5, other: 6 };

export const pathOf = (url: URL) => url.pathname + url.search;

/** Only the site's home page is `home` (a target at /en/ makes / just another page). */
export const roleOf = (path: string, texts: readonly (string | null | undefined)[]): PageRole => {
  const role = classifyRole({ path, texts });
  return role === "home" ? "other" : role;
};

/** Paths that differ only by a trailing slash are one page. */
const keyOf = (url: URL) => (url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname) + url.search;

export class Candidates {
  private readonly found = new Map<string, Candidate>();
  private readonly refused = new Map<string, string>();
  private homeKey: string;
  private count = 0;

  constructor(
    private origin: string,
    private rules: SiteRules,
    home: URL,
  ) {
    this.homeKey = keyOf(home);
  }

  /** The site moved (its home redirected to https or www): what is found from now on is on `origin`. */
  moveTo(origin: string, rules: SiteRules, home: URL) {
    this.origin = origin;
    this.rules = rules;
    this.homeKey = keyOf(home);
  }

  /** Same origin, not the home page, allowed by robots.txt: kept (the first source and order stand, nav wins). */
  add(url: URL, source: "nav" | "sitemap", linkText: string | null = null): void {
    if (url.origin !== this.origin) return;
    const key = keyOf(url);
    // The home page under another spelling (/index.html, /?ref=nav) is the home page.
    if (key === this.homeKey || classifyRole({ path: url.pathname }) === "home") return;
    if (!this.rules.allows(url)) {
      if (!this.refused.has(key)) this.refused.set(key, pathOf(url));
      return;
    }
    const known = this.found.get(key);
    if (known) {
      known.seenIn.add(source);
      if (source === "nav" && known.source === "sitemap") {
        known.source = "nav";
        known.linkText = linkText;
        known.role = roleOf(known.path, [linkText]);
      }
      return;
    }
    const path = pathOf(url);
    this.found.set(key, { url, path, source, linkText, role: roleOf(path, [linkText]), seenIn: new Set([source]), order: this.count++ });
  }

  /** A disallowed path that was never fetched (the home page, a redirect's target). */
  refuse(url: URL): void {
    const key = keyOf(url);
    if (!this.refused.has(key)) this.refused.set(key, pathOf(url));
  }

  get size() {
    return this.found.size;
  }

  /** Everything found, in found order. */
  all(): Candidate[] {
    return [...this.found.values()];
  }

  disallowed(max: number): string[] {
    return [...this.refused.values()].sort().slice(0, max);
  }

  /**
   * Up to `max` pages worth proposing. Navigation links before sitemap-only pages, shallow paths
   * before deep ones, pages without a query first; at most `perRole` of a role on a first pass (so
   * fifty blog posts cannot crowd out pricing), then the rest fill what is left.
   */
  choose(max: number, perRole: number): Candidate[] {
    const all = [...this.found.values()].sort(byPriority);
    const chosen = new Set<Candidate>();
    const perRoleCount = new Map<PageRole, number>();
    for (const c of all) {
      if (chosen.size >= max) break;
      const n = perRoleCount.get(c.role) ?? 0;
      if (n >= perRole) continue;
      perRoleCount.set(c.role, n + 1);
      chosen.add(c);
    }
    for (const c of all) {
      if (chosen.size >= max) break;
      chosen.add(c);
    }
    return all.filter((c) => chosen.has(c));
  }
}

const depth = (c: Candidate) => c.url.pathname.split("/").filter(Boolean).length;

function byPriority(a: Candidate, b: Candidate): number {
  return (
    (a.source === "nav" ? 0 : 1) - (b.source === "nav" ? 0 : 1) ||
    depth(a) - depth(b) ||
    (a.url.search ? 1 : 0) - (b.url.search ? 1 : 0) ||
    a.order - b.order
  );
}

/** The proposal's order: home, then by role (pricing first), then as chosen. */
export function proposalOrder(pages: readonly (DiscoveredPage & { rank: number })[]): DiscoveredPage[] {
  return [...pages].sort((a, b) => ROLE_RANK[a.role] - ROLE_RANK[b.role] || a.rank - b.rank).map(({ rank: _rank, ...page }) => page);
}
