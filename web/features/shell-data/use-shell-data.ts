import { useEffect, useMemo, useState } from "react";
import type { ActivityEntryDto } from "#server/modules/activity/model";
import type { AgentDto } from "#server/modules/agents/model";
import type { ShellActivityItem, ShellAgent, ShellDataState } from "#web/components/layout/app-shell/types";
import { api, call } from "#web/lib/api";
import { toActivity, toAgents, unseenActivityBadge } from "./normalize";
import { useActivitySeen } from "./seen-store";

/** What the shell lists: the newest this many entries. */
export const ACTIVITY_LIMIT = 20;

export interface ShellData {
  agents: ShellAgent[];
  agentsState: ShellDataState;
  activity: ShellActivityItem[];
  activityState: ShellDataState;
  activityBadge: string | null;
  /** From GET /api/system/status; null when unknown. */
  systemActive: boolean | null;
  /** When the last read succeeded (ms). */
  syncedAt: number | null;
}

/**
 * Where the shell's data lives: the app's live store (the layout route passes it in, as features
 * do not import each other). A zustand store satisfies it as is.
 */
export interface ShellSource {
  <T>(select: (s: ShellSourceState) => T): T;
  setState(patch: Partial<ShellSourceState>): void;
}
export interface ShellSourceState {
  agents: AgentDto[];
  activity: ActivityEntryDto[];
  systemActive: boolean | null;
}

/**
 * Agents, recent activity and system status for the shell. They live in the live store, which the
 * socket keeps current (agent updates applied in place, activity and status re-read coalesced);
 * the shell reads them once itself when the session has its access token, so a page without a
 * loader of its own still fills the sidebar. Live messages never re-fetch the shell.
 */
export function useShellData(enabled: boolean, useLive: ShellSource, activityLimit: number, workspaceId: string | null = null): ShellData {
  const [states, setStates] = useState<{ agents: ShellDataState; activity: ShellDataState }>({ agents: "loading", activity: "loading" });
  const [syncedAt, setSyncedAt] = useState<number | null>(null);
  const agentsRaw = useLive((s) => s.agents);
  const activityRaw = useLive((s) => s.activity);
  const systemActive = useLive((s) => s.systemActive);
  const seenAt = useActivitySeen((s) => s.seenAt);

  useEffect(() => useActivitySeen.getState().restore(), []);

  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void (async () => {
      // Each endpoint fails on its own: a missing activity API must not hide the agents.
      const [agents, activity, status] = await Promise.allSettled([
        call(api.agents.get()),
        call(api.activity.get({ query: { limit: activityLimit } })),
        call(api.system.status.get()),
      ]);
      if (!live) return;
      const patch: Partial<ShellSourceState> = {};
      if (agents.status === "fulfilled") patch.agents = agents.value;
      if (activity.status === "fulfilled") patch.activity = activity.value;
      if (status.status === "fulfilled" && typeof status.value?.isActive === "boolean") patch.systemActive = status.value.isActive;
      useLive.setState(patch);
      setStates({
        agents: agents.status === "fulfilled" ? "ready" : "unavailable",
        activity: activity.status === "fulfilled" ? "ready" : "unavailable",
      });
      if (agents.status === "fulfilled" || activity.status === "fulfilled") setSyncedAt(Date.now());
    })();
    return () => {
      live = false;
    };
    // Agents' output and activity belong to a workspace: a switch reads them again.
  }, [enabled, useLive, activityLimit, workspaceId]);

  const agents = useMemo(() => toAgents(agentsRaw), [agentsRaw]);
  const activity = useMemo(() => toActivity(activityRaw).slice(0, ACTIVITY_LIMIT), [activityRaw]);
  // A page's own loader (the dashboard's) may fill the store before the shell's read returns.
  const agentsState = agents.length > 0 ? "ready" : states.agents;
  const activityState = activity.length > 0 ? "ready" : states.activity;
  const activityBadge = unseenActivityBadge(activity, seenAt, Date.now(), ACTIVITY_LIMIT);
  return { agents, agentsState, activity, activityState, activityBadge, systemActive, syncedAt };
}
