// "Focus" on a results page hides the rest of the shell. The flag lives here and on <html
// data-focus="on">, so the shell's CSS (or the app layout) can follow it without a prop chain.
import { create } from "zustand";

interface FocusMode {
  on: boolean;
  set(on: boolean): void;
}

export const FOCUS_ATTRIBUTE = "data-focus";

export const useFocusMode = create<FocusMode>((set) => ({
  on: false,
  set(on) {
    if (typeof document !== "undefined") {
      if (on) document.documentElement.setAttribute(FOCUS_ATTRIBUTE, "on");
      else document.documentElement.removeAttribute(FOCUS_ATTRIBUTE);
    }
    set({ on });
  },
}));
