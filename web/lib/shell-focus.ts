// Focus mode: the page alone on screen, the shell's sidebar, status bar and rail hidden.
// Any page may offer the control (the comparison results do); the app layout honours it and
// leaves it on navigation, and the shell always shows a way back out (button, Escape).
import { create } from "zustand";

interface ShellFocusState {
  focus: boolean;
  setFocus(focus: boolean): void;
  toggleFocus(): void;
}

export const useShellFocus = create<ShellFocusState>((set) => ({
  focus: false,
  setFocus: (focus) => set({ focus }),
  toggleFocus: () => set((s) => ({ focus: !s.focus })),
}));
