import { useCallback, useEffect, useState } from "react";
import { Outlet, useLocation, useMatches, useNavigate, useRouteLoaderData, type UIMatch } from "react-router";
import { AppShell } from "#web/components/layout/app-shell/app-shell";
import { labelForPath } from "#web/components/layout/app-shell/nav-items";
import { Protected } from "#web/components/layout/protected";
import { MaintenanceScreen } from "#web/features/admin/components/maintenance-screen";
import { useMaintenance } from "#web/features/admin/use-maintenance";
import { logout } from "#web/features/auth/session";
import { useAuth } from "#web/features/auth/store";
import { useLiveFeed } from "#web/features/live/connection";
import { applyComparisonMessage } from "#web/features/comparisons/store";
import { onLiveMessage } from "#web/lib/live-socket";
import { type RootData, useSession } from "#web/features/auth/use-session";
import { useLive } from "#web/features/live/store";
import { useRestoreShellLayout, useShellLayout } from "#web/features/shell-data/layout-store";
import { previousPage, recordVisit } from "#web/features/shell-data/recent-pages";
import { useShellData } from "#web/features/shell-data/use-shell-data";
import { useTheme } from "#web/features/theme/store";

/** The deepest route's handle title, as TitleSync and the server read it. */
function pageTitle(matches: UIMatch[]): string | null {
  for (const m of [...matches].reverse()) {
    const t = (m.handle as { title?: unknown } | undefined)?.title;
    const title = typeof t === "function" ? t(m.loaderData) : t;
    if (typeof title === "string" && title) return title;
  }
  return null;
}

function SignedInShell() {
  const { user } = useSession();
  // The app's one live socket, for every signed-in page.
  useLiveFeed({ getToken: () => useAuth.getState().accessToken });
  // Comparison pages follow their runs through the comparisons store.
  useEffect(() => {
    const offProgress = onLiveMessage("COMPARISON_PROGRESS", applyComparisonMessage);
    const offStatus = onLiveMessage("COMPARISON_STATUS", applyComparisonMessage);
    return () => {
      offProgress();
      offStatus();
    };
  }, []);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const matches = useMatches();

  const theme = useTheme((s) => s.theme);
  const toggleTheme = useTheme((s) => s.toggle);
  const connected = useLive((s) => s.connected);
  const liveSystemActive = useLive((s) => s.systemActive);
  const liveLastSync = useLive((s) => s.lastSync);

  const layoutReady = useRestoreShellLayout();
  const sidebarCollapsed = useShellLayout((s) => s.sidebarCollapsed);
  const railOpen = useShellLayout((s) => s.railOpen);
  const toggleSidebar = useShellLayout((s) => s.toggleSidebar);
  const toggleRail = useShellLayout((s) => s.toggleRail);

  const hasToken = useAuth((s) => s.accessToken !== null);
  // Every live message may mean new activity (spec §4), so its arrival re-reads the shell's lists.
  const data = useShellData(liveLastSync, hasToken);
  const [loggingOut, setLoggingOut] = useState(false);
  const maintenance = useMaintenance((useRouteLoaderData("root") as RootData | undefined)?.maintenance ?? false);

  const title = pageTitle(matches);
  useEffect(() => {
    recordVisit({ path: pathname, title: title ?? labelForPath(pathname) ?? pathname });
  }, [pathname, title]);

  const go = useCallback((path: string) => navigate(path), [navigate]);
  // Read the location when the palette opens: a render-time closure can lag a navigation that
  // just happened, and would then offer nothing (or the page on screen) as Recent.
  const loadRecentPage = useCallback(() => previousPage(window.location.pathname), []);

  const onLogout = async () => {
    setLoggingOut(true);
    await logout(); // clears the local session even when the call fails
    navigate("/login", { replace: true });
  };

  if (!user) return null;
  if (maintenance && user.role !== "admin") return <MaintenanceScreen onSignOut={() => void onLogout()} />;
  const lastSync = Math.max(liveLastSync ?? 0, data.syncedAt ?? 0) || null;

  return (
    <AppShell
      user={{ name: user.username || user.email.split("@")[0] || user.email, email: user.email }}
      agents={data.agents}
      agentsState={data.agentsState}
      activity={data.activity}
      activityState={data.activityState}
      activityBadge={data.activityBadge}
      systemActive={liveSystemActive ?? data.systemActive}
      connected={connected}
      lastSync={lastSync}
      theme={theme}
      onToggleTheme={toggleTheme}
      sidebarCollapsed={sidebarCollapsed}
      onToggleSidebar={toggleSidebar}
      railOpen={railOpen}
      onToggleRail={toggleRail}
      layoutReady={layoutReady}
      loadRecentPage={loadRecentPage}
      onNavigate={go}
      onLogout={() => void onLogout()}
      loggingOut={loggingOut}
    >
      <Outlet />
    </AppShell>
  );
}

export function Component() {
  return (
    <Protected>
      <SignedInShell />
    </Protected>
  );
}
