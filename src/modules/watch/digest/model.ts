import { z } from "zod";

export const digestFrequency = z.enum(["off", "daily", "weekly"], { error: 'frequency must be "off", "daily" or "weekly"' });

/** PUT /api/watch/digest. Daily digests go out at 08:00 in the zone, weekly ones on Monday at 08:00. */
export const digestBody = z.object({
  frequency: digestFrequency,
  timezone: z.string({ error: "timezone must be a string" }).max(100, "The time zone name is too long").default("UTC"),
});
export type DigestBody = z.infer<typeof digestBody>;

export const digestView = z.object({
  frequency: digestFrequency,
  timezone: z.string().nullable(),
  nextSendAt: z.string().nullable(),
  lastSentAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type DigestView = z.infer<typeof digestView>;
