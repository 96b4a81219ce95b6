import type { Server } from "bun";

/** The peer address; X-Forwarded-For is believed only when TRUST_PROXY says a proxy sits in front. */
export function clientIp(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const fwd = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (fwd) return fwd;
  }
  return server?.requestIP(request)?.address ?? "local";
}
