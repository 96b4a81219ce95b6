// Re-reads triggered by live messages. Each one is coalesced: a burst of messages costs one
// request in flight plus at most one follow-up, never one per message.
import { api, call } from "#web/lib/api";
import { useLive } from "./store";

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
  const metrics = await call(api.metrics.get());
  useLive.setState({ metrics, lastSync: Date.now() });
});

export const refreshActivity = coalesced(async () => {
  const activity = await call(api.activity.get({ query: { limit: DASHBOARD_ACTIVITY_LIMIT } }));
  useLive.setState({ activity, lastSync: Date.now() });
});

export const refreshSystem = coalesced(async () => {
  const s = await call(api.system.status.get());
  useLive.setState({ systemActive: s.isActive });
});
