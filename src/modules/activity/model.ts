// The activity log (spec §3 "Activity log entry"): every module writes through `record`, the
// dashboard and /activity read it newest first.
import { z } from "zod";

export const ACTIVITY_TYPES = ["trend", "component", "test", "system", "comparison"] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
export const ACTIVITY_STATUSES = ["success", "error", "warning", "info"] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

/**
 * What a module hands to `record`. A userId makes the entry private to its owner (and admins): the
 * workspace the entry is about (a comparison's or an agent output's owner), whose members see it.
 */
export interface ActivityInput {
  type: ActivityType;
  message: string;
  details?: string | null;
  status: ActivityStatus;
  agentName?: string | null;
  metadata?: Record<string, unknown>;
  userId?: string | null;
}

export const activityEntryDto = z.object({
  id: z.string(),
  type: z.enum(ACTIVITY_TYPES),
  message: z.string(),
  details: z.string().nullable(),
  status: z.enum(ACTIVITY_STATUSES),
  agentName: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type ActivityEntryDto = z.infer<typeof activityEntryDto>;

const limit = z.coerce
  .number({ error: "limit must be a number" })
  .int("limit must be a whole number")
  .min(1, "limit must be between 1 and 100")
  .max(100, "limit must be between 1 and 100");

export const activityQuery = z.object({
  limit: limit.default(50),
  type: z.enum(ACTIVITY_TYPES, { error: "Unknown activity type" }).optional(),
  status: z.enum(ACTIVITY_STATUSES, { error: "Unknown activity status" }).optional(),
  /** Cursor: entries strictly older than this entry id (ids are time-ordered UUIDv7). */
  before: z.string().max(64).optional(),
});
export type ActivityQuery = z.infer<typeof activityQuery>;

/** Who reads the log: the current workspace, and the reader's site role (admins see every entry). */
export interface ActivityViewer {
  id: string;
  role: "user" | "admin";
}
