import { Elysia } from "elysia";
import { type BearerResolver, bearerToken } from "./auth-guard";
import { unavailable } from "./errors";

/** Paths that keep answering everyone during maintenance: signing in, the waitlist, health probes and the flag itself. */
const OPEN = /^\/api\/(?:auth\/|beta-signups$|health$|maintenance$)/;

/**
 * While maintenance is on, API calls from anyone but an admin answer 503 with Retry-After.
 * Runs at transform, before every route's own guard and input validation, so anonymous callers
 * and malformed requests see 503 too rather than 401 or 400.
 */
export function maintenanceGate(opts: { isOn: () => boolean; resolve: BearerResolver; message: string; retryAfterSeconds?: number }) {
  // Outside maintenance the hook answers at once; only then does it ask who the caller is.
  return new Elysia({ name: "maintenance-gate" }).onTransform({ as: "global" }, async ({ path, request }) => {
    if (!opts.isOn() || !path.startsWith("/api/") || OPEN.test(path)) return;
    const token = bearerToken(request.headers.get("authorization"));
    if (token && (await opts.resolve(token))?.role === "admin") return;
    throw unavailable(opts.message, opts.retryAfterSeconds ?? 120);
  });
}
