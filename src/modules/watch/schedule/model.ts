import { z } from "zod";

// The body's shape only; what the cron and zone mean is checked by checkSchedule(), whose
// messages name the failing field or zone (a 400 `{ error }`).
export const scheduleBody = z.object({
  cron: z.string({ error: "cron must be a string" }).max(200, "The cron expression is too long"),
  timezone: z.string({ error: "timezone must be a string" }).max(100, "The time zone name is too long"),
});
export type ScheduleBody = z.infer<typeof scheduleBody>;

export const scheduleView = z.object({
  cron: z.string(),
  timezone: z.string(),
  /** ISO 8601 instant; null once the pattern can never fire again. */
  nextRunAt: z.string().nullable(),
});
export type ScheduleView = z.infer<typeof scheduleView>;

export const runTrigger = z.enum(["manual", "schedule"]);
export type RunTrigger = z.infer<typeof runTrigger>;
