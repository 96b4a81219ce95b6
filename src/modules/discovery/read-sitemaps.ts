// Discovery's sitemap step: robots.txt's `Sitemap:` lines, then /sitemap.xml, an index adding its
// sitemaps to the queue, until the file, entry or time limit. A sitemap that fails is skipped.
import type { Candidates } from "./candidates";
import { FetchFailure, type Fetched } from "./fetch";
import type { SiteRules } from "./robots";
import { parseSitemap, SitemapError, sitemapText } from "./sitemap";

export interface SitemapStep {
  origin: string;
  rules: SiteRules;
  found: Candidates;
  limits: { sitemaps: number; sitemapUrls: number; sitemapBytes: number };
  /** One guarded request; `follow` says which redirects to take. */
  fetch: (url: URL, follow: (next: URL) => boolean) => Promise<Fetched>;
  timeLeft: () => boolean;
  log: (msg: string) => void;
}

/**
 * Reads the sitemaps into `found`; true when every sitemap it knew of was read (one that is not
 * there, a 404 or 410, counts as read: the site has none), false when one failed or a limit stopped it.
 */
export async function readSitemaps({ origin, rules, found, limits, fetch, timeLeft, log }: SitemapStep): Promise<boolean> {
  let complete = true;
  const queue: URL[] = [];
  const queued = new Set<string>();
  const enqueue = (raw: string) => {
    let url: URL;
    try {
      url = new URL(raw, origin);
    } catch {
      return;
    }
    url.hash = "";
    if (queued.has(url.href)) return;
    queued.add(url.href);
    // A sitemap elsewhere would be fetched under another site's robots.txt, which we have not read.
    if (url.origin !== origin) return log(`discovery: sitemap ${url.href} is on another origin; not read`);
    if (!rules.allows(url)) return log(`discovery: sitemap ${url.pathname} is disallowed by robots.txt; not read`);
    queue.push(url);
  };
  for (const s of rules.sitemaps) enqueue(s);
  enqueue("/sitemap.xml");

  const sameOriginAllowed = (next: URL) => next.origin === origin && rules.allows(next);
  let read = 0;
  let entries = 0;
  while (queue.length > 0 && read < limits.sitemaps && entries < limits.sitemapUrls && timeLeft()) {
    const url = queue.shift()!;
    read++;
    try {
      const answer = await fetch(url, sameOriginAllowed);
      if (answer.status < 200 || answer.status >= 300) {
        if (answer.status !== 404 && answer.status !== 410) complete = false;
        log(`discovery: sitemap ${url.pathname} answered ${answer.status}`);
        continue;
      }
      const content = parseSitemap(sitemapText(answer.body, limits.sitemapBytes));
      if (content.kind === "index") {
        for (const s of content.sitemaps) enqueue(s);
        continue;
      }
      for (const loc of content.urls) {
        if (entries++ >= limits.sitemapUrls) {
          complete = false;
          break;
        }
        if (URL.canParse(loc)) found.add(new URL(loc), "sitemap");
      }
    } catch (e) {
      complete = false;
      if (e instanceof SitemapError) log(`discovery: sitemap ${url.pathname} ${e.message}`);
      else if (e instanceof FetchFailure) log(`discovery: sitemap ${url.pathname}: ${e.message}`);
      else throw e;
    }
  }
  if (queue.length > 0) log(`discovery: ${queue.length} sitemaps left unread (limit ${limits.sitemaps})`);
  return complete && queue.length === 0;
}
