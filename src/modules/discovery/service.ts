import type { Db } from "#server/db/connection";
import { badRequest, HttpError, notFound } from "#server/http/errors";
import type { HostVerdict } from "#server/modules/capture/public";
import { discoverSite, SiteUnreachable, type DiscoveryLimits } from "./discover";
import { createFetcher, FetchFailure } from "./fetch";
import type { DiscoveryDto } from "./model";
import { discoveryRepository } from "./repository";
import { DISCOVERY_USER_AGENT } from "./robots";

export interface DiscoveryDeps {
  db: Db;
  allowPrivateTargets: boolean;
  /** The SSRF host check (tests pin a made-up public name to loopback). */
  checkHost?: (host: string) => Promise<HostVerdict>;
  limits?: Partial<DiscoveryLimits>;
  now?: () => number;
  log?: (msg: string, err?: unknown) => void;
}

const NOT_FOUND = "Target not found";

export function discoveryService(deps: DiscoveryDeps) {
  const repo = discoveryRepository(deps.db);
  const log = deps.log ?? (() => {});

  return {
    /**
     * Proposes pages of the owner's target's site. A site that cannot be reached is a 502 (504 when
     * it is too slow) naming why; an address the SSRF guard refuses is a 400, as when it is added.
     */
    async discover(ownerId: string, targetId: string, signal?: AbortSignal): Promise<DiscoveryDto> {
      const raw = repo.targetUrl(ownerId, targetId);
      if (raw === null) throw notFound(NOT_FOUND);
      const fetcher = createFetcher({
        allowPrivate: deps.allowPrivateTargets,
        userAgent: DISCOVERY_USER_AGENT,
        checkHost: deps.checkHost,
        signal,
      });
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
      }
    },
  };
}
export type DiscoveryService = ReturnType<typeof discoveryService>;
