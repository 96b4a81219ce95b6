/** Radix Themes settings of the whole site: web/root.tsx's <Theme> and the marketing pages' frame. */
export const THEME_SETTINGS = { accentColor: "violet", grayColor: "slate", radius: "large", scaling: "100%" } as const;
