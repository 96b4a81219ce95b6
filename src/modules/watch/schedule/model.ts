import { z } from "zod";

// A schedule as answered is declared with the comparison it belongs to (comparisons/model.ts).
export { scheduleView, type ScheduleView } from "#server/modules/comparisons/model";

// The body's shape only; what the cron and zone mean is checked by checkSchedule(), whose
// messages name the failing field or zone (a 400 `{ error }`).
export const scheduleBody = z.object({
  cron: z.string({ error: "cron must be a string" }).max(200, "The cron expression is too long"),
  timezone: z.string({ error: "timezone must be a string" }).max(100, "The time zone name is too long"),
});
export type ScheduleBody = z.infer<typeof scheduleBody>;
