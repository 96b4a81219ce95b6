// The shell's own view of the data it shows. Routes map API answers onto these, so the shell
// never depends on a feature's wire format.

export type ShellAgentStatus = "active" | "idle" | "error" | "stopped";

export interface ShellAgent {
  id: string;
  name: string;
  status: ShellAgentStatus;
}

/** The spec's rail lifecycle, plus "warning" so warning-level log entries (alerts) never read as "completed". */
export type ShellActivityStatus = "running" | "completed" | "error" | "queued" | "warning";

export interface ShellActivityItem {
  id: string;
  type: string;
  title: string;
  description: string | null;
  /** ms since epoch */
  timestamp: number;
  status: ShellActivityStatus;
  /** 0-100 when the entry reports progress. */
  progress: number | null;
  agent: string | null;
}

export interface ShellUser {
  name: string;
  email: string;
}

/** Where the shell's lists stand: loaded (maybe empty) or unavailable (endpoint missing or failing). */
export type ShellDataState = "loading" | "ready" | "unavailable";
