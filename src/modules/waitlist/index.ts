import { Elysia } from "elysia";
import { clientIpPlugin } from "#server/http/client-ip";
import { errors, responds } from "#server/http/contract";
import type { Budget } from "#server/http/rate-limit";
import { betaSignupAnswer, betaSignupBody } from "./model";
import type { WaitlistService } from "./service";

export function waitlistRoutes(waitlist: WaitlistService, limits: { perIp: Budget; perAccount: Budget }) {
  return new Elysia({ prefix: "/api", tags: ["waitlist"] }).use(clientIpPlugin()).post(
    "/beta-signups",
    async ({ body, set }) => {
      await limits.perAccount.hit(`waitlist:${body.email.toLowerCase()}`);
      set.status = 201;
      return waitlist.join(body);
    },
    {
      // Counted before the body is checked: malformed attempts spend the budget too.
      transform: async ({ ip }) => limits.perIp.hit(`waitlist:${ip}`),
      body: betaSignupBody,
      response: { 201: responds(betaSignupAnswer), ...errors(400, 413, 429, 500, 503) },
      detail: { summary: "Join the beta waitlist" },
    },
  );
}
