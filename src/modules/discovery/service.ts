import type { SqlDb } from "#server/db/sql";
import { badRequest, HttpError, notFound, tooMany } from "#server/http/errors";
import { RateLimiter } from "#server/http/rate-limit";
import type { HostVerdict } from "#server/modules/capture/public";
import { discoverSite, listSitePages, SiteUnreachable, type DiscoveryLimits, type ListedPage } from "./discover";
import { createFetcher, FetchFailure } from "./fetch";
import type { DiscoveryDto } from "./model";
import { discoveryRepository } from "./repository";
import { DISCOVERY_USER_AGENT } from "./robots";

export interface DiscoveryDeps {
  db: SqlDb;
  allowPrivateTargets: boolean;
  /** The SSRF host check (tests pin a made-up public name to loopback). */
  checkHost?: (host: string) => Promise<HostVerdict>;
  limits?: Partial<DiscoveryLimits>;
  /** Discoveries an owner may start a minute (each is up to ~40 requests to someone's site). */
  perMinute?: number;
  now?: () => number;
  log?: (msg: string, err?: unknown) => void;
}

const NOT_FOUND = "Target not found";
/**
 * What the watch's listing of a site may take in all (robots.txt, home page, sitemaps): it runs
 * while a run is scored, and a run's changes wait for it at most this long.
 */
export const LISTING_MS = 5_000;
const PER_MINUTE = 20;
/** Discoveries of one owner at the same time: the server is not a crawler for hire. */
const AT_ONCE = 2;

export function discoveryService(deps: DiscoveryDeps) {
  const repo = discoveryRepository(deps.db);
  const log = deps.log ?? (() => {});
  const budget = new RateLimiter(deps.perMinute ?? PER_MINUTE, 60_000, deps.now);
  const running = new Map<string, number>();

  const fetcherFor = (signal?: AbortSignal) =>
    createFetcher({ allowPrivate: deps.allowPrivateTargets, userAgent: DISCOVERY_USER_AGENT, checkHost: deps.checkHost, signal });

  return {
    /**
     * The same-origin pages a site's navigation and sitemaps list, for the watch (once per site per
     * run, within `ms`); null when the site could not be read at all. Not rate-limited per owner:
     * runs are (the watch's schedules and the run limits).
     */
    async listPages(siteUrl: string, ms = LISTING_MS): Promise<{ nav: ListedPage[] | null; sitemap: ListedPage[] | null } | null> {
      try {
        return await listSitePages(new URL(siteUrl), {
          fetch: fetcherFor(AbortSignal.timeout(ms)),
          limits: { ...deps.limits, deadlineMs: ms, requestMs: Math.min(ms, deps.limits?.requestMs ?? ms) },
          now: deps.now,
        });
      } catch (e) {
        if (!(e instanceof SiteUnreachable || e instanceof FetchFailure)) throw e;
        log(`listing the pages of ${siteUrl}: ${e.message}`);
        return null;
      }
    },

    /**
     * Proposes pages of a target's site, the target being one of the workspace `ownerId`'s (its
     * budget is per workspace). A site that cannot be reached is a 502 (504 when it is too slow)
     * naming why; an address the SSRF guard refuses is a 400, as when it is added.
     */
    async discover(ownerId: string, targetId: string, signal?: AbortSignal): Promise<DiscoveryDto> {
      const raw = await repo.targetUrl(ownerId, targetId);
      if (raw === null) throw notFound(NOT_FOUND);
      const going = running.get(ownerId) ?? 0;
      if (going >= AT_ONCE) throw tooMany(5);
      budget.hit(ownerId);
      running.set(ownerId, going + 1);
      const fetcher = fetcherFor(signal);
      try {
        return await discoverSite(new URL(raw), { fetch: fetcher, limits: deps.limits, now: deps.now, log: (msg) => log(msg) });
      } catch (e) {
        if (e instanceof SiteUnreachable) throw new HttpError(e.status, e.message);
        if (e instanceof FetchFailure) {
          if (e.detail) log(`discovery of ${raw}: ${e.detail}`);
          if (e.kind === "blocked") throw badRequest(e.message);
          if (e.kind === "timeout") throw new HttpError(504, e.message);
          throw new HttpError(502, e.message);
        }
        throw e;
      } finally {
        const left = (running.get(ownerId) ?? 1) - 1;
        if (left > 0) running.set(ownerId, left);
        else running.delete(ownerId);
      }
    },
  };
}
export type DiscoveryService = ReturnType<typeof discoveryService>;
