// Discovery of one site: robots.txt first (nothing it disallows is fetched or proposed), then the
// home page's navigation, then the sitemaps (robots' `Sitemap:` lines and /sitemap.xml, indexes
// followed), then the chosen pages' titles, all through the guarded fetcher and within a time budget.
import { Candidates, pathOf, proposalOrder, roleOf, type Candidate } from "./candidates";
import { FetchFailure, type Fetched, type Fetcher, type FetchLimits } from "./fetch";
import { outlinePage, type PageOutline } from "./html";
import type { DiscoveredPage, DiscoveryDto, PageRole } from "./model";
import { siteRules, type SiteRules } from "./robots";
import { readSitemaps } from "./read-sitemaps";

const KIB = 1024;

export const DISCOVERY_LIMITS = {
  /** Pages proposed, home included. */
  pages: 20,
  /** On a first pass, at most this many pages of one role. */
  perRole: 3,
  /** Sitemap files read, indexes included. */
  sitemaps: 10,
  /** Each sitemap, as sent and again once gunzipped (the protocol allows 50 MB; 5 MB is ~40 000 URLs). */
  sitemapBytes: 5 * 1024 * KIB,
  /** Sitemap entries looked at, all files together. */
  sitemapUrls: 50_000,
  /** Google reads the first 500 KiB of a robots.txt and ignores the rest; so do we. */
  robotsBytes: 500 * KIB,
  /** A page's HTML is read this far (navigation and <title> come early). */
  htmlBytes: 1024 * KIB,
  /** One request, connection to last byte. */
  requestMs: 8_000,
  /** Everything before the titles: robots.txt, home page and sitemaps. */
  deadlineMs: 20_000,
  /** Titles of the chosen pages, fetched this many at a time (a browser opens 6 connections a host), within this budget. */
  titleConcurrency: 6,
  titlesMs: 5_000,
  redirects: 5,
  /** Paths listed in `disallowed`. */
  disallowedListed: 50,
};
export type DiscoveryLimits = typeof DISCOVERY_LIMITS;

/** The site cannot be discovered at all; `status` is the answer's (502 or 504). */
export class SiteUnreachable extends Error {
  constructor(
    readonly status: 502 | 504,
    message: string,
  ) {
    super(message);
  }
}

export interface DiscoverOptions {
  fetch: Fetcher;
  limits?: Partial<DiscoveryLimits>;
  now?: () => number;
  log?: (msg: string) => void;
}

const isHtml = (f: Fetched) => f.contentType === "" || /\bx?html\b/i.test(f.contentType);
const ok = (f: Fetched) => f.status >= 200 && f.status < 300;
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** How many times the home page may move the site to another origin (scheme, then www). */
const MAX_MOVES = 2;

/** Same host but for a leading `www.`, and the same scheme or http upgraded to https. */
function sameSite(from: URL, to: URL): boolean {
  const bare = (h: string) => h.replace(/^www\./i, "").toLowerCase();
  const schemeOk = from.protocol === to.protocol || (from.protocol === "http:" && to.protocol === "https:");
  return schemeOk && bare(from.hostname) === bare(to.hostname) && (from.port === to.port || to.port === "");
}

/** What steps 1 to 3 found of a site: its rules, home page and the pages its navigation and sitemaps list. */
interface Survey {
  limits: DiscoveryLimits;
  now: () => number;
  log: (msg: string) => void;
  rules: SiteRules;
  home: URL;
  homeAllowed: boolean;
  homeOutline: PageOutline | null;
  found: Candidates;
  /** Every sitemap known of was read (./read-sitemaps.ts). */
  sitemapsRead: boolean;
  outlineOf: (url: URL, rules: SiteRules, until: number) => Promise<{ outline: PageOutline | null; status: number }>;
}

async function surveySite(target: URL, opts: DiscoverOptions): Promise<Survey> {
  const limits = { ...DISCOVERY_LIMITS, ...opts.limits };
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => {});
  const fetchFn = opts.fetch;
  const deadline = now() + limits.deadlineMs;
  const remaining = (until: number) => until - now();

  const request = (url: URL, extra: Partial<FetchLimits> & Pick<FetchLimits, "maxBytes" | "overflow">, until = deadline) => {
    const ms = Math.min(limits.requestMs, remaining(until));
    if (ms <= 0) return Promise.reject(new FetchFailure("timeout", "Discovery ran out of time"));
    return fetchFn(url, {
      timeoutMs: ms,
      maxRedirects: limits.redirects,
      ...extra,
    });
  };

  /** robots.txt of an origin. Unreachable (no answer, a 5xx) stops discovery: RFC 9309 says assume "disallow all". */
  async function robotsOf(origin: string): Promise<SiteRules> {
    const url = new URL("/robots.txt", origin);
    let answer: Fetched;
    try {
      answer = await request(url, {
        maxBytes: limits.robotsBytes,
        overflow: "truncate",
        accept: "text/plain, */*",
      });
    } catch (e) {
      if (e instanceof FetchFailure && (e.kind === "redirects" || e.kind === "hop-refused")) return siteRules(origin, { kind: "none" });
      throw e;
    }
    if (answer.status >= 500 || answer.status === 429)
      throw new SiteUnreachable(502, `${url.host} answered HTTP ${answer.status} for robots.txt; discovery needs it to answer`);
    return siteRules(origin, ok(answer) ? { kind: "rules", text: decode(answer.body) } : { kind: "none" });
  }

  /** A page's outline, or null when it is not an HTML page that answered 2xx. Redirects stay on the origin and allowed paths. */
  async function outlineOf(url: URL, rules: SiteRules, until: number): Promise<{ outline: PageOutline | null; status: number }> {
    const origin = url.origin;
    const answer = await request(
      url,
      {
        maxBytes: limits.htmlBytes,
        overflow: "truncate",
        accept: "text/html, application/xhtml+xml",
        follow: (next) => next.origin === origin && rules.allows(next),
      },
      until,
    );
    if (!ok(answer) || !isHtml(answer)) return { outline: null, status: answer.status };
    return {
      outline: outlinePage(decode(answer.body), answer.url),
      status: answer.status,
    };
  }

  // 1. robots.txt, which says what may be fetched at all.
  let home = new URL(target.href);
  home.hash = "";
  let origin = home.origin;
  let rules = await robotsOf(origin);
  const found = new Candidates(origin, rules, home);

  // 2. The home page and its navigation. A home that moves to https or to www (or back) moves the
  // site with it, twice at most (http://acme → https://acme → https://www.acme), and the new
  // origin's robots.txt is read before anything there is fetched.
  let homeOutline: PageOutline | null = null;
  let homeAllowed = rules.allows(home);
  if (!homeAllowed) found.refuse(home);
  for (let moves = 0; homeAllowed; moves++) {
    let moved: URL | null = null;
    const here = origin;
    const hereRules = rules;
    try {
      const answer = await request(home, {
        maxBytes: limits.htmlBytes,
        overflow: "truncate",
        accept: "text/html, application/xhtml+xml",
        follow: (next) => {
          if (next.origin === here) return hereRules.allows(next);
          if (moves < MAX_MOVES && sameSite(target, next)) moved = next;
          return false;
        },
      });
      if (ok(answer) && isHtml(answer)) homeOutline = outlinePage(decode(answer.body), answer.url);
      else log(`discovery: ${home.href} answered ${answer.status} ${answer.contentType || "(no type)"}; no navigation read`);
    } catch (e) {
      if (!(e instanceof FetchFailure) || (e.kind !== "hop-refused" && e.kind !== "redirects")) throw e;
      if (!moved) log(`discovery: ${e.message}`);
    }
    // Assigned in the redirect callback, which the compiler does not follow.
    const next = moved as URL | null;
    if (!next) break;
    log(`discovery: ${origin} moved to ${next.origin}`);
    origin = next.origin;
    home = next;
    rules = await robotsOf(origin);
    found.moveTo(origin, rules, home);
    homeAllowed = rules.allows(home);
    if (!homeAllowed) found.refuse(home);
  }
  for (const link of homeOutline?.navLinks ?? []) found.add(link.url, "nav", link.text || null);

  // 3. Sitemaps: robots' `Sitemap:` lines, then /sitemap.xml; indexes add theirs to the queue.
  const sitemapsRead = await readSitemaps({
    origin,
    rules,
    found,
    limits,
    log,
    fetch: (url, follow) =>
      request(url, {
        maxBytes: limits.sitemapBytes,
        overflow: "fail",
        accept: "application/xml, text/xml, */*",
        follow,
      }),
    timeLeft: () => remaining(deadline) > 0,
  });
  return {
    limits,
    now,
    log,
    rules,
    home,
    homeAllowed,
    homeOutline,
    found,
    sitemapsRead,
    outlineOf,
  };
}

export async function discoverSite(target: URL, opts: DiscoverOptions): Promise<DiscoveryDto> {
  const { limits, now, log, rules, home, homeAllowed, homeOutline, found, outlineOf } = await surveySite(target, opts);

  // 4. Choose, then look at the chosen pages' titles and headings while the budget lasts.
  const homeCount = homeAllowed ? 1 : 0;
  const chosen = found.choose(limits.pages - homeCount, limits.perRole);
  const titlesUntil = now() + limits.titlesMs;
  const titled = await titlesOf(chosen, rules, titlesUntil, outlineOf, limits.titleConcurrency, (msg) => {
    if (now() < titlesUntil) log(msg);
  });

  const pages: (DiscoveredPage & { rank: number })[] = [];
  chosen.forEach((c, rank) => {
    const seen = titled.get(c);
    if (seen === "gone") return;
    const texts = seen ? [c.linkText, ...seen.headings, seen.title] : [c.linkText];
    pages.push({
      url: c.url.href,
      path: c.path,
      role: roleOf(c.path, texts),
      title: seen?.title ?? c.linkText,
      source: c.source,
      rank,
    });
  });
  const ordered = proposalOrder(pages);
  if (homeAllowed)
    ordered.unshift({
      url: home.href,
      path: pathOf(home),
      role: "home",
      title: homeOutline?.title ?? null,
      source: "nav",
    });
  return {
    pages: ordered,
    disallowed: found.disallowed(limits.disallowedListed),
  };
}

/** A page a site's navigation or sitemaps list, with the role its path and link text suggest. */
export interface ListedPage {
  path: string;
  role: PageRole;
}

/**
 * The same-origin pages a site's home navigation and its sitemaps list (robots.txt respected, the
 * home page left out), each source null when it could not be read in full: a set half read would
 * report the rest as removed. No page is fetched beyond robots.txt, the home page and the sitemaps.
 */
export async function listSitePages(
  target: URL,
  opts: DiscoverOptions,
): Promise<{ nav: ListedPage[] | null; sitemap: ListedPage[] | null }> {
  const survey = await surveySite(target, opts);
  const of = (source: "nav" | "sitemap") =>
    survey.found
      .all()
      .filter((c) => c.seenIn.has(source))
      .map((c) => ({ path: c.path, role: c.role }));
  return {
    nav: survey.homeOutline ? of("nav") : null,
    sitemap: survey.sitemapsRead ? of("sitemap") : null,
  };
}

type Seen = PageOutline | "gone";

/**
 * Titles and headings of the chosen pages, `concurrency` at a time, until `until`; a page that
 * answers 404 or 410 is `gone` (a stale sitemap entry), anything else that fails keeps no title
 * (`log` stays quiet about pages the budget ran out on).
 */
async function titlesOf(
  chosen: readonly Candidate[],
  rules: SiteRules,
  until: number,
  outlineOf: (url: URL, rules: SiteRules, until: number) => Promise<{ outline: PageOutline | null; status: number }>,
  concurrency: number,
  log: (msg: string) => void,
): Promise<Map<Candidate, Seen>> {
  const seen = new Map<Candidate, Seen>();
  let next = 0;
  async function worker() {
    while (next < chosen.length) {
      const c = chosen[next++]!;
      try {
        const { outline, status } = await outlineOf(c.url, rules, until);
        if (status === 404 || status === 410) seen.set(c, "gone");
        else if (outline) seen.set(c, outline);
      } catch (e) {
        if (!(e instanceof FetchFailure)) throw e;
        log(`discovery: title of ${c.path}: ${e.message}`);
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, chosen.length) }, worker));
  return seen;
}
