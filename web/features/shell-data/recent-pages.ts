import type { RecentPage } from "#web/components/layout/app-shell/commands";

export const RECENT_PAGES_KEY = "design-intel-recent-pages";
const KEEP = 8;

function storage(): Storage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null; // storage disabled by the browser
  }
}

/** Newest first; anything malformed in storage is dropped rather than trusted. */
export function readRecentPages(): RecentPage[] {
  const raw = storage()?.getItem(RECENT_PAGES_KEY);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (p): p is RecentPage =>
        !!p && typeof p.path === "string" && p.path.startsWith("/") && !p.path.startsWith("//") && typeof p.title === "string",
    );
  } catch {
    return [];
  }
}

/** Moves the page to the front of this tab's history. */
export function recordVisit(page: RecentPage): void {
  const s = storage();
  if (!s) return;
  const next = [page, ...readRecentPages().filter((p) => p.path !== page.path)].slice(0, KEEP);
  try {
    s.setItem(RECENT_PAGES_KEY, JSON.stringify(next));
  } catch {
    /* quota or private mode: history is a convenience */
  }
}

/** The most recently visited page other than the one on screen. */
export function previousPage(currentPath: string): RecentPage | null {
  return readRecentPages().find((p) => p.path !== currentPath) ?? null;
}
