import type { Server } from "bun";
import { Elysia } from "elysia";

/**
 * X-Forwarded-For and X-Forwarded-Proto are believed only when TRUST_PROXY says a proxy sits in
 * front: without one, any client can write them. The app's own setting (hostGuard marks each
 * request with it) wins; the process environment is the fallback for code outside an app.
 */
const processTrust = ["1", "true"].includes(process.env.TRUST_PROXY ?? "");
const requestTrust = new WeakMap<Request, boolean>();

/**
 * Records an app's own TRUST_PROXY setting on a request, where it differs from the process's (tests
 * run apps with either): marking every request would cost a WeakMap entry, and the collector's work
 * on it, per request.
 */
export function markProxyTrust(request: Request, trusted: boolean): void {
  if (trusted !== processTrust) requestTrust.set(request, trusted);
}

const trustsProxy = (request: Request) => requestTrust.get(request) ?? processTrust;

/** The first value of a forwarded header: the one the outermost (our) proxy wrote. */
const forwarded = (request: Request, name: string) => request.headers.get(name)?.split(",")[0]?.trim() || undefined;

/**
 * The server listening for this process (src/boot/serve.ts registers it). Elysia's own `server` is
 * only set by `app.listen`, and the app is served by our own Bun.serve, so reading the peer through
 * Elysia's context answered "local" for every client: per-IP rate limits were one bucket for
 * everyone and audit entries had no address. Named here rather than taken from the context: a hook
 * that mentions `server` makes Elysia define it on every request's context, routes that never use it
 * included. Unset (requests handed to app.handle in-process, as tests do), the address is "local".
 */
let listening: Pick<Server<unknown>, "requestIP"> | null = null;

export function servePeerAddressesFrom(server: Pick<Server<unknown>, "requestIP"> | null): void {
  listening = server;
}

export function clientIp(request: Request): string {
  if (trustsProxy(request)) {
    const fwd = forwarded(request, "x-forwarded-for");
    if (fwd) return fwd;
  }
  return listening?.requestIP(request)?.address ?? "local";
}

/** HTTPS directly, or at a trusted proxy that says so. */
export function isHttps(request: Request): boolean {
  if (request.url.startsWith("https:")) return true;
  return trustsProxy(request) && forwarded(request, "x-forwarded-proto")?.toLowerCase() === "https";
}

/**
 * Gives the routes of the module that uses it an `ip`. Scoped to that module rather than global:
 * reading the peer address is a native call (~2 µs of CPU per request, as much as a small API
 * answer's whole handler), and most routes never need it.
 */
export const clientIpPlugin = () =>
  new Elysia().derive({ as: "scoped" }, ({ request }) => ({
    ip: clientIp(request),
  }));
