// When the user last looked at the activity (notifications opened, Activity page visited): what
// the shell's counts measure from. Kept per browser; read after mount so hydration matches.
import { create } from "zustand";

export const ACTIVITY_SEEN_KEY = "design-intel-activity-seen";

function read(): number | null {
  try {
    const v = Number(localStorage.getItem(ACTIVITY_SEEN_KEY));
    return Number.isFinite(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}

interface SeenState {
  /** ms since epoch; null until restored, or never looked. */
  seenAt: number | null;
  restore(): void;
  markSeen(at: number): void;
}

export const useActivitySeen = create<SeenState>((set, get) => ({
  seenAt: null,
  restore: () => set({ seenAt: read() }),
  markSeen: (at) => {
    if ((get().seenAt ?? 0) >= at) return;
    try {
      localStorage.setItem(ACTIVITY_SEEN_KEY, String(at));
    } catch {
      /* blocked storage: the mark lasts this page only */
    }
    set({ seenAt: at });
  },
}));
