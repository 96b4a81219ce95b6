import { z } from "zod";
import { emailSchema } from "#server/modules/auth/model";

export const WAITLIST_SOURCES = [
  "homepage",
  "cta",
  "pricing-professional",
  "pricing-cta",
  "features-hero",
  "features-cta",
  "header",
] as const;

export const betaSignupBody = z.object({
  email: emailSchema,
  source: z.enum(WAITLIST_SOURCES, { error: "Unknown signup source" }),
});
export type BetaSignupInput = z.infer<typeof betaSignupBody>;

export const betaSignupAnswer = z.object({
  ok: z.literal(true),
  message: z.string(),
});
export type BetaSignupAnswer = z.infer<typeof betaSignupAnswer>;
