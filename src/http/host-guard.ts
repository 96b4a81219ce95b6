// Runs before routing: a Host the router would misread, or (with PUBLIC_URL) a Host or Origin that
// names another site, never reaches a route. Also marks the request with the TRUST_PROXY setting
// (client-ip.ts reads it) and adds HSTS to every HTTPS answer.
import { Elysia } from "elysia";
import { isHttps, markProxyTrust } from "./client-ip";
import { HttpError } from "./errors";
import { HSTS_HEADER } from "./security-headers";

export interface HostPolicy {
  /** PUBLIC_URL's origin; unset means any well-formed Host is served. */
  publicUrl?: string;
  trustProxy: boolean;
}

export const HOST_MESSAGES = {
  malformed: "Missing or malformed Host header",
  foreignHost: "This server does not answer for that host name",
  foreignOrigin: "Cross-site request refused",
} as const;

// A DNS name (underscores allowed: container names carry them), an IPv4 literal or a bracketed
// IPv6 literal, with an optional port.
const HOST_SYNTAX = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;
/** Elysia finds the path by searching for "/" from this offset of the URL, so a shorter scheme://host loses part of the path. */
const ELYSIA_PATH_SEARCH_FROM = 11;

// Nearly every request names the same host as the one before it: the last authority that passed
// is remembered, so the pattern runs once per change of host rather than per request.
let lastWellFormed = "";
function wellFormedAuthority(authority: string): boolean {
  if (authority === lastWellFormed) return true;
  if (!HOST_SYNTAX.test(authority)) return false;
  lastWellFormed = authority;
  return true;
}

export const isLoopbackHostname = (hostname: string) =>
  hostname === "localhost" || hostname === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(hostname);

/**
 * Why this request must be refused, or null. A loopback Host is always served: a DNS-rebinding page
 * makes the browser send its own name, never "localhost", and local health checks use loopback.
 */
export function hostProblem(request: Request, policy: HostPolicy): HttpError | null {
  // Without a Host header Bun hands over a bare path ("/api/health"), which the router misreads too.
  const url = request.url;
  const scheme = url.indexOf("://");
  const end = scheme === -1 ? -1 : url.indexOf("/", scheme + 3);
  if (end === -1 || url.indexOf("/", ELYSIA_PATH_SEARCH_FROM) !== end || !wellFormedAuthority(url.slice(scheme + 3, end)))
    return new HttpError(400, HOST_MESSAGES.malformed);
  if (!policy.publicUrl) return null;

  const pub = parsedPublicUrl(policy.publicUrl);
  const hostname = hostnameOf(url.slice(scheme + 3, end).toLowerCase());
  const loopback = isLoopbackHostname(hostname);
  if (!loopback && hostname !== pub.hostname) return new HttpError(421, HOST_MESSAGES.foreignHost);
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== pub.origin) {
    let originHost: string | null = null;
    try {
      originHost = new URL(origin).host;
    } catch {
      // "null" and garbage: no origin we could accept
    }
    if (!(loopback && originHost === new URL(url).host)) return new HttpError(403, HOST_MESSAGES.foreignOrigin);
  }
  return null;
}

/** The host name of a well-formed authority: the port is dropped, IPv6 brackets kept (as URL.hostname does). */
const hostnameOf = (authority: string) =>
  authority.startsWith("[") ? authority.slice(0, authority.indexOf("]") + 1) : authority.replace(/:\d*$/, "");

// Every request compares against PUBLIC_URL: parse it once.
const parsed = new Map<string, URL>();
function parsedPublicUrl(publicUrl: string): URL {
  let u = parsed.get(publicUrl);
  if (!u) parsed.set(publicUrl, (u = new URL(publicUrl)));
  return u;
}

export function hostGuard(policy: HostPolicy) {
  return new Elysia({ name: "host-guard", seed: policy }).onRequest(({ request, set }) => {
    markProxyTrust(request, policy.trustProxy);
    const problem = hostProblem(request, policy);
    if (problem) throw problem;
    if (isHttps(request)) set.headers["strict-transport-security"] = HSTS_HEADER;
  });
}
