import { create } from "zustand";

export type Theme = "light" | "dark";
/** "system" follows the OS: nothing is stored, and the boot script asks matchMedia. */
export type ThemePreference = Theme | "system";
export const THEME_KEY = "design-intel-theme";

/** Runs inline in <head> before first paint, so the page never flashes the wrong theme. */
export const themeBootScript = `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_KEY)});if(t!=="light"&&t!=="dark"){t=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light"}var c=document.documentElement.classList;c.remove("light","dark");c.add(t);document.documentElement.style.colorScheme=t}catch(e){}})();`;

function current(): Theme {
  if (typeof document === "undefined") return "light";
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

function storedPreference(): ThemePreference {
  try {
    const t = localStorage.getItem(THEME_KEY);
    return t === "light" || t === "dark" ? t : "system";
  } catch {
    return "system";
  }
}

function apply(theme: Theme) {
  const root = document.documentElement;
  root.classList.remove("light", "dark");
  root.classList.add(theme);
  root.style.colorScheme = theme;
}

interface ThemeState {
  theme: Theme;
  preference: ThemePreference;
  sync(): void;
  toggle(): void;
  choose(preference: ThemePreference): void;
}

export const useTheme = create<ThemeState>((set, get) => ({
  theme: "light",
  preference: "system",
  sync: () => set({ theme: current(), preference: storedPreference() }),
  toggle: () => {
    const next: Theme = get().theme === "dark" ? "light" : "dark";
    apply(next);
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      /* private mode: the choice lasts this page only */
    }
    set({ theme: next, preference: next });
  },
  choose: (preference) => {
    const theme: Theme = preference === "system" ? (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light") : preference;
    apply(theme);
    try {
      if (preference === "system") localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, preference);
    } catch {
      /* private mode: the choice lasts this page only */
    }
    set({ theme, preference });
  },
}));
