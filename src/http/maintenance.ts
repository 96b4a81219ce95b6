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
  const refuseUnlessAdmin = async (authorization: string | null) => {
    const token = bearerToken(authorization);
    const user = token ? await opts.resolve(token) : null;
    if (user?.role === "admin") return;
    throw unavailable(opts.message, opts.retryAfterSeconds ?? 120);
  };
  // Not an async function: maintenance is off for nearly every request, which then passes without a
  // promise. Elysia awaits the hook all the same (it reads the source, and a returned call counts as
  // asynchronous); tests/api/admin-maintenance.test.ts fails if it ever stopped awaiting it.
  return new Elysia({ name: "maintenance-gate" }).onTransform({ as: "global" }, ({ path, request }) => {
    if (!opts.isOn() || !path.startsWith("/api/") || OPEN.test(path)) return;
    return refuseUnlessAdmin(request.headers.get("authorization"));
  });
}
