// What robots.txt lets discovery fetch and propose, read by a maintained parser (robots-parser,
// RFC 9309 matching: longest rule wins, `*` and `$` wildcards, percent-encoding normalised). The
// group for our product token applies when the file has one, otherwise the `*` group.
import robotsParser from "robots-parser";

/** The product token robots.txt groups name us by (`User-agent: DesignIntel`). */
export const ROBOTS_AGENT = "DesignIntel";
/** Sent with every discovery request; robots-parser reads the token before the `/`. */
export const DISCOVERY_USER_AGENT = `${ROBOTS_AGENT}/1.0 (page discovery; honours robots.txt)`;

export interface SiteRules {
  /** False for a URL robots.txt disallows for us, and for any URL off the site's origin. */
  allows(url: URL | string): boolean;
  /** The `Sitemap:` lines, as written (absolute URLs by the protocol; resolved against the site). */
  sitemaps: readonly string[];
}

/**
 * How robots.txt was answered (RFC 9309 §2.3.1): a 2xx body is read as rules; any 4xx means there are
 * none ("unavailable": everything is allowed). A 5xx or no answer means "unreachable", which the RFC
 * reads as "disallow everything": the caller reports the site as unreachable instead of guessing.
 */
export type RobotsAnswer = { kind: "rules"; text: string } | { kind: "none" };

export function siteRules(origin: string, answer: RobotsAnswer): SiteRules {
  const robotsUrl = `${origin}/robots.txt`;
  const robots = robotsParser(robotsUrl, answer.kind === "rules" ? answer.text : "");
  const sitemaps: string[] = [];
  for (const line of robots.getSitemaps()) {
    try {
      sitemaps.push(new URL(line, origin).href);
    } catch {
      /* not a URL: skipped */
    }
  }
  return {
    // robots-parser answers undefined for another origin's URL: those are not ours to fetch.
    allows: (url) => robots.isAllowed(typeof url === "string" ? url : url.href, DISCOVERY_USER_AGENT) === true,
    sitemaps,
  };
}
