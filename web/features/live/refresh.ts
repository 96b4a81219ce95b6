// Re-reads triggered by live messages. Each one is coalesced: a burst of messages costs one
// request in flight plus at most one follow-up, never one per message.
import { api } from "../../lib/api";
import { useLive } from "./store";
import type { ActivityEntryDto, MetricsDto, SystemStatusDto } from "./types";

export const DASHBOARD_ACTIVITY_LIMIT = 50;

function coalesced(load: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        try {
          await load();
        } catch {
          /* the next message tries again; the UI keeps what it had */
        }
      } while (again);
    } finally {
      running = false;
    }
  };
  return () => void run();
}

export const refreshMetrics = coalesced(async () => {
  const metrics = await api<MetricsDto>("/api/metrics");
  useLive.setState({ metrics, lastSync: Date.now() });
});

export const refreshActivity = coalesced(async () => {
  const activity = await api<ActivityEntryDto[]>(`/api/activity?limit=${DASHBOARD_ACTIVITY_LIMIT}`);
  useLive.setState({ activity, lastSync: Date.now() });
});

export const refreshSystem = coalesced(async () => {
  const s = await api<SystemStatusDto>("/api/system/status");
  useLive.setState({ systemActive: s.isActive });
});
