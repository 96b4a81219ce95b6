// Binds the app's one live socket to the store. Call useLiveFeed() once from the app shell;
// pages may call it too: the binding is shared, so messages are applied once whatever the count.
import { useEffect } from "react";
import { holdLiveSocket, onLiveMessage, onLiveStatus, type LiveMessage, type LiveSocketOptions } from "#web/lib/live-socket";
import { EMPTY_MISSION, reduceLive, type MissionData } from "./reducer";
import { refreshActivity, refreshMetrics, refreshSystem } from "./refresh";
import { useLive } from "./store";

/**
 * Whether the session has an access token yet. The socket may open on the refresh cookie before
 * it does; re-reads sent then would each bounce off a 401, and the shell's first read follows anyway.
 */
let canRead: () => boolean = () => true;

/** Applies one message to the store and starts the re-reads it calls for. Exported for tests. */
export function applyLiveMessage(message: LiveMessage, now = Date.now()): void {
  const s = useLive.getState();
  const r = reduceLive(s, message, now);
  if (r.rejected) {
    console.warn(`live: ${r.rejected}`, message);
    return;
  }
  useLive.setState({ ...r.state, lastSync: now });
  if (!canRead()) return;
  if (r.effects.refreshMetrics) refreshMetrics();
  if (r.effects.refreshActivity) refreshActivity();
  if (r.effects.refreshSystem) refreshSystem();
}

/** Loads a page's fresh reads into the store (its lists then follow the live feed). */
export function hydrateMission(data: Partial<MissionData> & { systemActive?: boolean | null }, userId: string | null): void {
  const fresh = useLive.getState().hydratedFor !== userId;
  const patch: Partial<ReturnType<typeof useLive.getState>> = {
    ...(fresh ? EMPTY_MISSION : {}),
    hydrated: true,
    hydratedFor: userId,
    lastSync: Date.now(),
  };
  for (const [k, v] of Object.entries(data)) if (v !== undefined && v !== null) (patch as Record<string, unknown>)[k] = v;
  useLive.setState(patch);
}

let holders = 0;
let unbind: (() => void) | null = null;

function bind(opts: LiveSocketOptions): () => void {
  holders++;
  if (holders === 1) {
    const getToken = opts.getToken;
    canRead = getToken ? () => Boolean(getToken()) : () => true;
    const offStatus = onLiveStatus((connected) => {
      useLive.setState({ connected });
      // Whatever happened while we were away: catch up once. Before the session has its first
      // access token the page's own loader has just read everything anyway.
      if (connected && (!opts.getToken || opts.getToken())) {
        refreshSystem();
        refreshMetrics();
        refreshActivity();
      }
    });
    const offMessages = onLiveMessage("*", (m) => applyLiveMessage(m));
    const release = holdLiveSocket(opts);
    unbind = () => {
      release();
      offMessages();
      offStatus();
      canRead = () => true;
    };
  }
  return () => {
    holders--;
    if (holders === 0) {
      unbind?.();
      unbind = null;
    }
  };
}

/** Keeps the live socket open while the calling component is mounted. */
export function useLiveFeed(opts: LiveSocketOptions = {}): void {
  useEffect(() => bind(opts), []); // eslint-disable-line react-hooks/exhaustive-deps
}
