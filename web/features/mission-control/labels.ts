import type { AgentDto } from "#server/modules/agents/model";

export const AGENT_TYPE_LABELS: Record<string, string> = {
  trend_detection: "Trend discovery",
  component_generation: "Component generation",
  testing: "A/B testing",
  analytics: "Analytics",
};

export type StatusTone = "green" | "gray" | "red" | "amber" | "blue";

/** Spec §3: anything other than active, idle, error or stopped is shown as idle. */
export function agentStatus(status: string): { label: string; tone: StatusTone; value: AgentDto["status"] } {
  switch (status) {
    case "active":
      return { label: "Active", tone: "green", value: "active" };
    case "error":
      return { label: "Error", tone: "red", value: "error" };
    case "stopped":
      return { label: "Stopped", tone: "gray", value: "stopped" };
    default:
      return { label: "Idle", tone: "amber", value: "idle" };
  }
}

export const ACTIVITY_STATUS_TONE: Record<string, StatusTone> = { success: "green", error: "red", warning: "amber", info: "blue" };
