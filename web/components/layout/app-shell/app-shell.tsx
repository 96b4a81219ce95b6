import "./app-shell.css";
import { useCallback, useState, type ReactNode } from "react";
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
  /** How many recent activity entries there are, already formatted ("3", "20+"); null hides the badges. */
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
  children: ReactNode;
}

const RAIL_ID = "di-activity-rail";

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

  return (
    <div
      className="di-shell"
      data-sidebar={p.sidebarCollapsed ? "collapsed" : "expanded"}
      data-rail={p.railOpen ? "open" : "closed"}
      data-ready={p.layoutReady || undefined}
    >
      <a href="#main-content" className="di-skip-link">
        Skip to content
      </a>
      <Sidebar
        collapsed={p.sidebarCollapsed}
        onToggleCollapsed={p.onToggleSidebar}
        user={p.user}
        agents={p.agents}
        agentsState={p.agentsState}
        activityBadge={p.activityBadge}
        onOpenPalette={openPalette}
        paletteHint={paletteHint}
        onLogout={p.onLogout}
        loggingOut={p.loggingOut}
      />
      <div className="di-shell-center">
        <StatusBar
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
