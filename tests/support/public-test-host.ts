// Offline there is no public host: the capture-time guard tests let "public.test" stand for one,
// living on 127.0.0.1, while every other host gets the real rules. The browser itself cannot
// resolve the name, so a page that loads from it came through the egress proxy.
import { checkHost, systemResolver, type HostVerdict } from "#server/modules/capture/browser/ssrf";
import type { FixtureServer } from "./fixture-server";

export const publicTestGuard = async (host: string): Promise<HostVerdict> =>
  host === "public.test" ? { ok: true, addresses: ["127.0.0.1"] } : checkHost(host, systemResolver);

/** DNS in which "public.test" is 127.0.0.1 (for a proxy that lets every address through). */
export const publicTestResolve = async (host: string): Promise<string[]> => (host === "public.test" ? ["127.0.0.1"] : systemResolver(host));

/** The fixture server's `path`, named as the public host. */
export const publicTestUrl = (server: FixtureServer, path: string) => `http://public.test:${server.port}${path}`;
