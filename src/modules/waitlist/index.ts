import { Elysia } from "elysia";
import { clientIpPlugin } from "../../http/client-ip";
import { parseInput } from "../../http/errors";
import type { RateLimiter } from "../../http/rate-limit";
import { betaSignupBody } from "./model";
import type { WaitlistService } from "./service";

export function waitlistRoutes(waitlist: WaitlistService, limits: { perIp: RateLimiter; perAccount: RateLimiter }) {
  return new Elysia({ prefix: "/api" })
    .use(clientIpPlugin)
    .post("/beta-signups", ({ body, ip, set }) => {
    limits.perIp.hit(`waitlist:${ip}`);
    const input = parseInput(betaSignupBody, body);
    limits.perAccount.hit(`waitlist:${input.email.toLowerCase()}`);
    set.status = 201;
    return waitlist.join(input);
  });
}
