import type { Server } from "bun";
import { Elysia } from "elysia";

/**
 * X-Forwarded-For and X-Forwarded-Proto are believed only when TRUST_PROXY says a proxy sits in
 * front: without one, any client can write them. The app's own setting (hostGuard marks each
 * request with it) wins; the process environment is the fallback for code outside an app.
 */
const processTrust = ["1", "true"].includes(process.env.TRUST_PROXY ?? "");
const requestTrust = new WeakMap<Request, boolean>();

export function markProxyTrust(request: Request, trusted: boolean): void {
  requestTrust.set(request, trusted);
}

const trustsProxy = (request: Request) => requestTrust.get(request) ?? processTrust;

/** The first value of a forwarded header: the one the outermost (our) proxy wrote. */
const forwarded = (request: Request, name: string) => request.headers.get(name)?.split(",")[0]?.trim() || undefined;

export function clientIp(request: Request, server: Server<unknown> | null | undefined): string {
  if (trustsProxy(request)) {
    const fwd = forwarded(request, "x-forwarded-for");
    if (fwd) return fwd;
  }
  return server?.requestIP(request)?.address ?? "local";
}

/** HTTPS directly, or at a trusted proxy that says so. */
export function isHttps(request: Request): boolean {
  if (request.url.startsWith("https:")) return true;
  return trustsProxy(request) && forwarded(request, "x-forwarded-proto")?.toLowerCase() === "https";
}

/** Gives every route an `ip`. Modules `.use()` it for the type; the name makes Elysia apply it once. */
export const clientIpPlugin = new Elysia({ name: "client-ip" }).derive({ as: "global" }, ({ request, server }) => ({
  ip: clientIp(request, server),
}));
