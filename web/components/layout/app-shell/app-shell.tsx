import "./app-shell.css";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { ActivityRail } from "./activity-rail";
import { CommandPalette } from "./command-palette";
import type { RecentPage } from "./commands";
import { useNavShortcuts, usePaletteHint } from "./shortcuts";
import { Sidebar } from "./sidebar";
import { StatusBar } from "./status-bar";
import type { ShellActivityItem, ShellAgent, ShellDataState, ShellUser } from "./types";

export interface AppShellProps {
  user: ShellUser;
  agents: ShellAgent[];
  agentsState: ShellDataState;
  activity: ShellActivityItem[];
  activityState: ShellDataState;
  /** How many activity entries the user has not seen yet, formatted ("3", "20+"); null hides the badges. */
  activityBadge: string | null;
  systemActive: boolean | null;
  connected: boolean;
  lastSync: number | null;
  theme: "light" | "dark";
  onToggleTheme(): void;
  sidebarCollapsed: boolean;
  onToggleSidebar(): void;
  railOpen: boolean;
  onToggleRail(): void;
  /** Layout preferences have been read from storage; until then nothing animates. */
  layoutReady: boolean;
  /** Read when the palette opens, so it reflects the latest navigation. */
  loadRecentPage(): RecentPage | null;
  onNavigate(path: string): void;
  onLogout(): void;
  loggingOut: boolean;
  /** The page on screen: the mobile drawer closes when it changes. */
  path?: string;
  /** Focus mode: only the page shows (see web/lib/shell-focus.ts); `onExitFocus` leaves it. */
  focus?: boolean;
  onExitFocus?(): void;
  /** Opening the notifications marks what they show as seen. */
  onSeenNotifications?(): void;
  /** The workspace switcher at the top of the sidebar, told whether the sidebar shows icons only. */
  workspace?(collapsed: boolean): ReactNode;
  children: ReactNode;
}

const RAIL_ID = "di-activity-rail";
const SIDEBAR_ID = "di-sidebar";
/** At this width and below the sidebar is a drawer behind the menu button (app-shell.css uses the same). */
export const DRAWER_QUERY = "(max-width: 768px)";

/** Whether a media query matches; false on the server and in the first client render (hydration). */
function useMedia(query: string): boolean {
  const [matches, setMatches] = useState(false);
  useEffect(() => {
    if (typeof matchMedia !== "function") return;
    const mq = matchMedia(query);
    setMatches(mq.matches);
    const on = () => setMatches(mq.matches);
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, [query]);
  return matches;
}

/**
 * The narrow-screen drawer: Escape closes it, focus moves into it on open and back to the menu
 * button on close, and everything behind it is inert while it is open (so Tab stays inside).
 */
function useDrawer(narrow: boolean, path: string | undefined) {
  const [open, setOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => setOpen(false), [path, narrow]);
  useEffect(() => {
    if (open) {
      drawer.current?.querySelector<HTMLElement>("a[href], button:not([disabled])")?.focus();
      const onKey = (e: KeyboardEvent) => {
        if (e.key !== "Escape" || e.defaultPrevented) return;
        e.preventDefault();
        setOpen(false);
      };
      document.addEventListener("keydown", onKey);
      wasOpen.current = true;
      return () => document.removeEventListener("keydown", onKey);
    }
    if (wasOpen.current) menuButton.current?.focus();
    wasOpen.current = false;
  }, [open]);
  return { open: narrow && open, setOpen, menuButton, drawer };
}

export function AppShell(p: AppShellProps) {
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [recent, setRecent] = useState<RecentPage | null>(null);
  const { loadRecentPage } = p;

  const onPaletteOpenChange = useCallback(
    (open: boolean) => {
      if (open) setRecent(loadRecentPage());
      setPaletteOpen(open);
    },
    [loadRecentPage],
  );
  const openPalette = useCallback(() => onPaletteOpenChange(true), [onPaletteOpenChange]);

  useNavShortcuts(p.onNavigate);
  const paletteHint = usePaletteHint();

  const activeAgents = p.agents.filter((a) => a.status === "active").length;
  const narrow = useMedia(DRAWER_QUERY);
  const drawer = useDrawer(narrow, p.path);
  const { focus, onExitFocus } = p;
  useEffect(() => {
    if (!focus || !onExitFocus) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      const t = e.target as HTMLElement | null;
      if (t?.closest("input, textarea, select, [role=dialog], [role=listbox], [role=menu]")) return;
      onExitFocus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [focus, onExitFocus]);
  // In the drawer the sidebar always shows its labels; the collapsed rail is a wide-screen choice.
  const collapsed = p.sidebarCollapsed && !narrow;

  return (
    <div
      className="di-shell"
      data-sidebar={collapsed ? "collapsed" : "expanded"}
      data-rail={p.railOpen ? "open" : "closed"}
      data-drawer={drawer.open ? "open" : "closed"}
      data-focus={focus || undefined}
      data-ready={p.layoutReady || undefined}
    >
      <a href="#main-content" className="di-skip-link">
        Skip to content
      </a>
      {focus && (
        <button type="button" className="di-exit-focus" onClick={onExitFocus} aria-keyshortcuts="Escape">
          Exit focus
        </button>
      )}
      {drawer.open && <div className="di-drawer-backdrop" aria-hidden onClick={() => drawer.setOpen(false)} />}
      <Sidebar
        id={SIDEBAR_ID}
        ref={drawer.drawer}
        drawer={narrow}
        collapsed={collapsed}
        onToggleCollapsed={p.onToggleSidebar}
        user={p.user}
        agents={p.agents}
        agentsState={p.agentsState}
        activityBadge={p.activityBadge}
        onOpenPalette={openPalette}
        paletteHint={paletteHint}
        onLogout={p.onLogout}
        loggingOut={p.loggingOut}
        workspace={p.workspace}
      />
      <div className="di-shell-center" inert={drawer.open || undefined}>
        <StatusBar
          menu={
            narrow ? { open: drawer.open, controls: SIDEBAR_ID, ref: drawer.menuButton, onToggle: () => drawer.setOpen((o) => !o) } : null
          }
          onSeenNotifications={p.onSeenNotifications}
          systemActive={p.systemActive}
          connected={p.connected}
          lastSync={p.lastSync}
          agents={p.agentsState === "ready" ? { active: activeAgents, total: p.agents.length } : null}
          notifications={p.activity}
          notificationsState={p.activityState}
          notificationsBadge={p.activityBadge}
          railOpen={p.railOpen}
          railId={RAIL_ID}
          onToggleRail={p.onToggleRail}
          theme={p.theme}
          onToggleTheme={p.onToggleTheme}
          onOpenPalette={openPalette}
          paletteHint={paletteHint}
        />
        <div className="di-shell-body">
          <main id="main-content" className="di-shell-main" tabIndex={-1}>
            {p.children}
          </main>
          {p.railOpen && <ActivityRail id={RAIL_ID} items={p.activity} state={p.activityState} onClose={p.onToggleRail} />}
        </div>
      </div>
      <CommandPalette open={paletteOpen} onOpenChange={onPaletteOpenChange} onNavigate={p.onNavigate} recent={recent} />
    </div>
  );
}
