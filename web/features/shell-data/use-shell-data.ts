import { useEffect, useRef, useState } from "react";
import type { ShellActivityItem, ShellAgent, ShellDataState } from "#web/components/layout/app-shell/types";
import { api, call } from "#web/lib/api";
import { recentActivityBadge, toActivity, toAgents } from "./normalize";

export const ACTIVITY_LIMIT = 20;
/** Live messages can arrive in bursts; the shell re-reads at most this often. */
const MIN_RELOAD_MS = 2000;

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

const INITIAL: ShellData = {
  agents: [],
  agentsState: "loading",
  activity: [],
  activityState: "loading",
  activityBadge: null,
  systemActive: null,
  syncedAt: null,
};

async function read(signal: AbortSignal) {
  // Each endpoint fails on its own: a missing activity API must not hide the agents.
  const [agents, activity, status] = await Promise.allSettled([
    call(api.agents.get({ fetch: { signal } })),
    call(api.activity.get({ query: { limit: ACTIVITY_LIMIT }, fetch: { signal } })),
    call(api.system.status.get({ fetch: { signal } })),
  ]);
  return { agents, activity, status };
}

/**
 * Agents, recent activity and system status for the shell. Loads once `enabled` (the session has
 * an access token, so the reads don't each bounce off a 401 first) and again whenever
 * `refreshKey` changes (the live feed's last message time), throttled.
 */
export function useShellData(refreshKey: unknown, enabled: boolean): ShellData {
  const [data, setData] = useState<ShellData>(INITIAL);
  const lastLoad = useRef(0);

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const load = async () => {
      lastLoad.current = Date.now();
      const r = await read(controller.signal);
      if (controller.signal.aborted) return;
      const now = Date.now();
      setData((prev) => {
        // A failed re-read keeps what the last good read showed.
        const next = { ...prev };
        if (r.agents.status === "fulfilled") Object.assign(next, { agents: toAgents(r.agents.value), agentsState: "ready" });
        else if (prev.agentsState !== "ready") next.agentsState = "unavailable";
        if (r.activity.status === "fulfilled") {
          const activity = toActivity(r.activity.value);
          Object.assign(next, { activity, activityState: "ready", activityBadge: recentActivityBadge(activity, now, ACTIVITY_LIMIT) });
        } else if (prev.activityState !== "ready") next.activityState = "unavailable";
        if (r.status.status === "fulfilled" && typeof r.status.value?.isActive === "boolean") next.systemActive = r.status.value.isActive;
        if (r.agents.status === "fulfilled" || r.activity.status === "fulfilled") next.syncedAt = now;
        return next;
      });
    };
    const wait = Math.max(0, lastLoad.current + MIN_RELOAD_MS - Date.now());
    const timer = setTimeout(() => void load(), wait);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [refreshKey, enabled]);

  return data;
}
