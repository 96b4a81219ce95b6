// The egress of one capture (its page's load and its timing loads): which host guard its contexts
// use, and the proxy every connection of theirs goes through.
//
// A browser on this machine goes through the proxy only when private targets are refused (with
// them allowed it reaches the network as the worker does). A remote browser always goes through
// it: its host is firewalled to reach this worker's proxy and nothing else (docs/scaling.md), so
// the worker, not the browser host, resolves and connects, with the same rules either way.
import { isIP } from "node:net";
import type { HostGuard } from "./capture-context";
import { startEgressProxy, type EgressListen, type EgressProxy } from "./egress-proxy";
import { createHostGuard, systemResolver, type HostVerdict, type Resolver } from "./ssrf";

export interface EgressDeps {
  /** DNS used by the capture-time SSRF guard; tests swap it to simulate public names offline. */
  resolve?: Resolver;
  /** Overrides the address rule (tests); defaults to every resolved address being public. */
  checkHost?: (host: string) => Promise<HostVerdict>;
  /** Set when the browser is remote: where the proxy listens and what the browser dials. */
  remote?: EgressListen;
}

export const UNRESOLVED_REASON = "The site's domain name does not resolve";

/** The proxy's rule with private targets allowed: any address the name resolves to. */
function anyAddress(resolve: Resolver): HostGuard {
  return async (host) => {
    const bare = host.replace(/^\[|\]$/g, "");
    if (isIP(bare)) return { ok: true, addresses: [bare] };
    const addresses = await resolve(bare).catch(() => []);
    return addresses.length ? { ok: true, addresses } : { ok: false, reason: UNRESOLVED_REASON };
  };
}

export async function startCaptureEgress(
  allowPrivate: boolean,
  deps: EgressDeps,
): Promise<{ guard: HostGuard | null; proxy: EgressProxy | null }> {
  const resolve = deps.resolve ?? systemResolver;
  const guard = allowPrivate ? null : (deps.checkHost ?? createHostGuard(resolve));
  if (!deps.remote) return { guard, proxy: guard ? await startEgressProxy(guard) : null };
  return { guard, proxy: await startEgressProxy(guard ?? anyAddress(resolve), deps.remote) };
}
