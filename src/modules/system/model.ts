// The agent system's on/off state (spec §3 "System status", §4 "Dashboard system").

export interface SystemStatusDto {
  /** The system is switched on (persisted; an active system resumes after a server restart). */
  isActive: boolean;
  /** The agents are actually running right now (false briefly while starting, or after a crash). */
  running: boolean;
  /** When it was last switched on, if it is on. */
  since: string | null;
}

export type SystemAction = "system.started" | "system.stopped" | "system.restarted";

export interface SystemActor {
  id: string | null;
  email: string | null;
}
