import { useEffect, useState } from "react";
import { create } from "zustand";
import { createJSONStorage, persist, type StateStorage } from "zustand/middleware";

export const SHELL_LAYOUT_KEY = "design-intel-shell-layout";

interface ShellLayoutState {
  sidebarCollapsed: boolean;
  railOpen: boolean;
  toggleSidebar(): void;
  toggleRail(): void;
}

/** Looks localStorage up on every call: absent on the server, and it may throw when the browser blocks it. */
const browserStorage: StateStorage = {
  getItem: (key) => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  setItem: (key, value) => {
    try {
      localStorage.setItem(key, value);
    } catch {
      /* quota or blocked: the preference lasts this page only */
    }
  },
  removeItem: (key) => {
    try {
      localStorage.removeItem(key);
    } catch {
      /* as above */
    }
  },
};

type Persisted = Pick<ShellLayoutState, "sidebarCollapsed" | "railOpen">;

/**
 * Sidebar and rail preferences, kept in localStorage. Hydration from storage is manual
 * (skipHydration) so the first client render equals the server's: expanded sidebar, open rail.
 */
export const useShellLayout = create<ShellLayoutState>()(
  persist(
    (set) => ({
      sidebarCollapsed: false,
      railOpen: true,
      toggleSidebar: () => set((s) => ({ sidebarCollapsed: !s.sidebarCollapsed })),
      toggleRail: () => set((s) => ({ railOpen: !s.railOpen })),
    }),
    {
      name: SHELL_LAYOUT_KEY,
      storage: createJSONStorage(() => browserStorage),
      skipHydration: true,
      partialize: (s): Persisted => ({ sidebarCollapsed: s.sidebarCollapsed, railOpen: s.railOpen }),
      // Storage is user-editable: anything but a boolean falls back to the default.
      merge: (stored, current) => {
        const p = (stored ?? {}) as Partial<Record<keyof Persisted, unknown>>;
        return {
          ...current,
          sidebarCollapsed: typeof p.sidebarCollapsed === "boolean" ? p.sidebarCollapsed : current.sidebarCollapsed,
          railOpen: typeof p.railOpen === "boolean" ? p.railOpen : current.railOpen,
        };
      },
    },
  ),
);

/** Where the rail stops sharing the row and floats over the page (app-shell.css uses the same width). */
export const NARROW_QUERY = "(max-width: 1180px)";

/**
 * Restores the saved layout. With nothing saved yet, a narrow screen starts with the rail
 * closed, since there it would cover the page.
 */
export async function restoreShellLayout(): Promise<void> {
  const saved = browserStorage.getItem(SHELL_LAYOUT_KEY) !== null;
  await useShellLayout.persist.rehydrate();
  if (!saved && typeof matchMedia === "function" && matchMedia(NARROW_QUERY).matches) useShellLayout.setState({ railOpen: false });
}

/** Reads the saved layout once mounted; true from then on. */
export function useRestoreShellLayout(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    void restoreShellLayout().finally(() => {
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, []);
  return ready;
}
