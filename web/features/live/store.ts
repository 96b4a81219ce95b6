// Live state fed by the /ws socket (spec §4 "Live message handling"). The socket client is
// web/lib/live-socket.ts; connection.ts binds it to this store; components read from here only.
import { create } from "zustand";
import { EMPTY_MISSION, type MissionData } from "./reducer";

export interface LiveState extends MissionData {
  /** The socket is open. */
  connected: boolean;
  /** The agent system is running, when known. */
  systemActive: boolean | null;
  /** When the last message or successful sync arrived (ms since epoch). */
  lastSync: number | null;
  /** Mission data has been loaded into the store (before that, pages render their loader data). */
  hydrated: boolean;
  /** Whose data the store holds: a different signed-in user starts from their own loader data. */
  hydratedFor: string | null;
}

export const useLive = create<LiveState>(() => ({
  connected: false,
  systemActive: null,
  lastSync: null,
  hydrated: false,
  hydratedFor: null,
  ...EMPTY_MISSION,
}));
