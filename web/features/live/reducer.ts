// Spec §4 "Live message handling" as a pure function: the next state plus what to re-read.
import type { LiveMessage } from "#web/lib/live-socket";
import type { ActivityEntryDto, AgentDto, ComponentDto, ExperimentDto, MetricsDto, TrendDto } from "./types";

export const KEEP = { trends: 20, components: 10, completedTests: 10 } as const;

export interface MissionData {
  agents: AgentDto[];
  trends: TrendDto[];
  components: ComponentDto[];
  activeTests: ExperimentDto[];
  completedTests: ExperimentDto[];
  metrics: MetricsDto | null;
  activity: ActivityEntryDto[];
  /** The latest SYSTEM_METRICS payload, as delivered. */
  systemMetrics: unknown;
}

export const EMPTY_MISSION: MissionData = {
  agents: [],
  trends: [],
  components: [],
  activeTests: [],
  completedTests: [],
  metrics: null,
  activity: [],
  systemMetrics: null,
};

export interface Effects {
  refreshMetrics: boolean;
  refreshActivity: boolean;
  /** An agent's status changed: the system may have been switched on or off. */
  refreshSystem: boolean;
}

export interface Reduction {
  state: MissionData;
  effects: Effects;
  /** Set when the message was malformed for its type (the caller logs it; nothing else happens). */
  rejected?: string;
}

const NONE: Effects = { refreshMetrics: false, refreshActivity: false, refreshSystem: false };

const hasId = (v: unknown): v is { id: string } => !!v && typeof v === "object" && typeof (v as { id?: unknown }).id === "string";

/** Newest first, no duplicates, at most `keep`. */
function prepend<T extends { id: string }>(list: T[], item: T, keep: number): T[] {
  return [item, ...list.filter((x) => x.id !== item.id)].slice(0, keep);
}

export function reduceLive(state: MissionData, message: LiveMessage, now: number): Reduction {
  const every: Effects = { refreshMetrics: true, refreshActivity: true, refreshSystem: false };
  const p = message.payload;
  switch (message.type) {
    case "TREND_DISCOVERED":
      if (!hasId(p)) return { state, effects: NONE, rejected: "TREND_DISCOVERED without an id" };
      return { state: { ...state, trends: prepend(state.trends, p as TrendDto, KEEP.trends) }, effects: every };
    case "COMPONENT_GENERATED":
      if (!hasId(p)) return { state, effects: NONE, rejected: "COMPONENT_GENERATED without an id" };
      return { state: { ...state, components: prepend(state.components, p as ComponentDto, KEEP.components) }, effects: every };
    case "TEST_COMPLETED":
      if (!hasId(p)) return { state, effects: NONE, rejected: "TEST_COMPLETED without an id" };
      return {
        state: {
          ...state,
          completedTests: prepend(state.completedTests, p as ExperimentDto, KEEP.completedTests),
          activeTests: state.activeTests.filter((t) => t.id !== p.id),
        },
        effects: every,
      };
    case "AGENT_UPDATE": {
      const id = message.agentId ?? (hasId(p) ? p.id : undefined);
      if (!id || !p || typeof p !== "object") return { state, effects: NONE, rejected: "AGENT_UPDATE without an agent" };
      const patch = p as Partial<AgentDto>;
      const lastActivity = new Date(now).toISOString();
      let found = false;
      const agents = state.agents.map((a) => {
        if (a.id !== id) return a;
        found = true;
        return { ...a, ...patch, id: a.id, lastActivity };
      });
      return {
        state: found ? { ...state, agents } : state,
        effects: { ...every, refreshSystem: typeof patch.status === "string" },
      };
    }
    case "SYSTEM_METRICS":
      return { state: { ...state, systemMetrics: p }, effects: every };
    default:
      // Comparison progress and alerts belong to other pages; they still mean fresh activity.
      return { state, effects: every };
  }
}
