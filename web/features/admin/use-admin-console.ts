import { useCallback, useEffect, useRef, useState } from "react";
import type { ActivityEntryDto } from "#server/modules/activity/model";
import type { AlertPayload, DatabaseStats, MaintenanceState, SystemMetrics } from "#server/modules/admin/model";
import type { AgentDto, AgentUpdate } from "#server/modules/agents/model";
import type { LiveMessage } from "#server/live/hub";
import { toast } from "#web/components/ui/toast";
import { getActivity, getAgents, getDatabaseStats, getMaintenance, getSystemMetrics, getSystemStatus } from "./api";

/** Spec §9: the admin page reloads every 30 s; SYSTEM_METRICS pushes fill the gaps. */
export const ADMIN_REFRESH_MS = 30_000;
/** Live messages come in bursts; the activity feed re-reads once per burst. */
const ACTIVITY_THROTTLE_MS = 2_000;

export interface AdminInitial {
  metrics: SystemMetrics | null;
  database: DatabaseStats | null;
  system: { isActive: boolean } | null;
  maintenance: MaintenanceState | null;
  agents: AgentDto[] | null;
  activity: ActivityEntryDto[] | null;
}

/** How the route hands in the live feed; returns an unsubscribe function. */
export type LiveSubscribe = (handler: (message: LiveMessage) => void) => () => void;

export function useAdminConsole(initial: AdminInitial, subscribe?: LiveSubscribe) {
  const [metrics, setMetrics] = useState(initial.metrics);
  const [database, setDatabase] = useState(initial.database);
  const [systemActive, setSystemActive] = useState<boolean | null>(initial.system?.isActive ?? null);
  const [maintenance, setMaintenance] = useState(initial.maintenance);
  const [agents, setAgents] = useState(initial.agents);
  const [activity, setActivity] = useState(initial.activity);
  const [refreshing, setRefreshing] = useState(false);
  const mounted = useRef(true);
  const activityTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const refresh = useCallback(async () => {
    setRefreshing(true);
    const [m, d, s, mt, ag, ac] = await Promise.allSettled([
      getSystemMetrics(),
      getDatabaseStats(),
      getSystemStatus(),
      getMaintenance(),
      getAgents(),
      getActivity(),
    ]);
    if (!mounted.current) return;
    // On failure the previous figures (or the placeholders) stay, as the spec says.
    if (m.status === "fulfilled") setMetrics(m.value);
    if (d.status === "fulfilled") setDatabase(d.value);
    if (s.status === "fulfilled") setSystemActive(s.value.isActive);
    if (mt.status === "fulfilled") setMaintenance(mt.value);
    if (ag.status === "fulfilled") setAgents(ag.value);
    if (ac.status === "fulfilled") setActivity(ac.value);
    if (m.status === "rejected" || d.status === "rejected")
      toast({ title: "Error", description: "Failed to load admin dashboard data", variant: "destructive" });
    setRefreshing(false);
  }, []);

  const refreshDatabase = useCallback(() => {
    getDatabaseStats()
      .then((d) => mounted.current && setDatabase(d))
      .catch(() => {});
  }, []);

  useEffect(() => {
    mounted.current = true;
    if (Object.values(initial).some((v) => v === null)) void refresh();
    const timer = setInterval(() => void refresh(), ADMIN_REFRESH_MS);
    return () => {
      mounted.current = false;
      clearInterval(timer);
    };
  }, [refresh, initial]);

  useEffect(() => {
    if (!subscribe) return;
    return subscribe((message) => {
      if (message.type === "SYSTEM_METRICS") {
        setMetrics(message.payload as SystemMetrics);
        return;
      }
      if (message.type === "ALERT") {
        const alert = message.payload as AlertPayload;
        toast({ title: "Alert Threshold Crossed", description: alert.message, variant: "destructive" });
      }
      if (message.type === "AGENT_UPDATE") {
        const update = message.payload as AgentUpdate;
        const id = message.agentId ?? update.id;
        setAgents((list) => list?.map((a) => (a.id === id ? { ...a, ...update, lastActivity: new Date().toISOString() } : a)) ?? list);
      }
      // One read per burst, at its end, so the feed shows the burst's last entry.
      if (activityTimer.current) return;
      activityTimer.current = setTimeout(() => {
        activityTimer.current = null;
        getActivity()
          .then((a) => mounted.current && setActivity(a))
          .catch(() => {});
      }, ACTIVITY_THROTTLE_MS);
    });
  }, [subscribe]);

  useEffect(
    () => () => {
      if (activityTimer.current) clearTimeout(activityTimer.current);
    },
    [],
  );

  return {
    metrics,
    database,
    systemActive,
    maintenance,
    agents,
    activity,
    refreshing,
    refresh,
    refreshDatabase,
    setSystemActive,
    setMaintenance,
  };
}
