// Live state fed by the /ws socket (spec §4 "Live message handling"). The socket client and the
// reducer live beside this file; components read from here only.
import { create } from "zustand";

export interface LiveState {
  /** The socket is open. */
  connected: boolean;
  /** The agent system is running, when known. */
  systemActive: boolean | null;
  /** When the last message or successful sync arrived (ms since epoch). */
  lastSync: number | null;
}

export const useLive = create<LiveState>(() => ({
  connected: false,
  systemActive: null,
  lastSync: null,
}));
