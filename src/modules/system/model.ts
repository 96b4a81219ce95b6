// The agent system's on/off state (spec §3 "System status", §4 "Dashboard system").

import { z } from "zod";

export const systemStatusDto = z.object({
  /** The system is switched on (persisted; an active system resumes after a server restart). */
  isActive: z.boolean(),
  /** The agents are actually running right now (false briefly while starting, or after a crash). */
  running: z.boolean(),
  /** When it was last switched on, if it is on. */
  since: z.string().nullable(),
});
export type SystemStatusDto = z.infer<typeof systemStatusDto>;

export type SystemAction = "system.started" | "system.stopped" | "system.restarted";

export interface SystemActor {
  id: string | null;
  email: string | null;
}
