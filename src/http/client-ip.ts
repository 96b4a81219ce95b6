import type { Server } from "bun";
import { Elysia } from "elysia";

/** X-Forwarded-For is believed only when TRUST_PROXY says a proxy sits in front. Process-wide by nature. */
const trustProxy = ["1", "true"].includes(process.env.TRUST_PROXY ?? "");

export function clientIp(request: Request, server: Server<unknown> | null | undefined): string {
  if (trustProxy) {
    const fwd = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (fwd) return fwd;
  }
  return server?.requestIP(request)?.address ?? "local";
}

/** Gives every route an `ip`. Modules `.use()` it for the type; the name makes Elysia apply it once. */
export const clientIpPlugin = new Elysia({ name: "client-ip" }).derive({ as: "global" }, ({ request, server }) => ({
  ip: clientIp(request, server),
}));
