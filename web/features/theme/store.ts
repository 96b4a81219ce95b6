import { create } from "zustand";

export type Theme = "light" | "dark";
export const THEME_KEY = "design-intel-theme";

/** Runs inline in <head> before first paint, so the page never flashes the wrong theme. */
export const themeBootScript = `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_KEY)});if(t!=="light"&&t!=="dark"){t=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light"}var c=document.documentElement.classList;c.remove("light","dark");c.add(t);document.documentElement.style.colorScheme=t}catch(e){}})();`;

function current(): Theme {
  if (typeof document === "undefined") return "light";
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

interface ThemeState {
  theme: Theme;
  sync(): void;
  toggle(): void;
}

export const useTheme = create<ThemeState>((set, get) => ({
  theme: "light",
  sync: () => set({ theme: current() }),
  toggle: () => {
    const next: Theme = get().theme === "dark" ? "light" : "dark";
    const root = document.documentElement;
    root.classList.remove("light", "dark");
    root.classList.add(next);
    root.style.colorScheme = next;
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      /* private mode: the choice lasts this page only */
    }
    set({ theme: next });
  },
}));
