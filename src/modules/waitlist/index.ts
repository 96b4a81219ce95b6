import { Elysia } from "elysia";
import { clientIpPlugin } from "#server/http/client-ip";
import { errors, responds } from "#server/http/contract";
import type { RateLimiter } from "#server/http/rate-limit";
import { betaSignupAnswer, betaSignupBody } from "./model";
import type { WaitlistService } from "./service";

export function waitlistRoutes(waitlist: WaitlistService, limits: { perIp: RateLimiter; perAccount: RateLimiter }) {
  return new Elysia({ prefix: "/api", tags: ["waitlist"] }).use(clientIpPlugin()).post(
    "/beta-signups",
    ({ body, set }) => {
      limits.perAccount.hit(`waitlist:${body.email.toLowerCase()}`);
      set.status = 201;
      return waitlist.join(body);
    },
    {
      // Counted before the body is checked: malformed attempts spend the budget too.
      transform: ({ ip }) => limits.perIp.hit(`waitlist:${ip}`),
      body: betaSignupBody,
      response: { 201: responds(betaSignupAnswer), ...errors(400, 413, 429, 500, 503) },
      detail: { summary: "Join the beta waitlist" },
    },
  );
}
