import { Fragment, useCallback, useEffect, useRef, useState } from "react";
import { Outlet, useLocation, useMatches, useNavigate, useRevalidator, useRouteLoaderData, type UIMatch } from "react-router";
import { AppShell } from "#web/components/layout/app-shell/app-shell";
import { labelForPath } from "#web/components/layout/app-shell/nav-items";
import { Protected } from "#web/routes/layout/protected";
import { MaintenanceScreen } from "#web/features/admin/components/maintenance-screen";
import { useMaintenance } from "#web/features/admin/use-maintenance";
import { logout } from "#web/features/auth/session";
import { useAuth } from "#web/features/auth/store";
import { useLiveFeed } from "#web/features/live/connection";
import { applyComparisonMessage } from "#web/features/comparisons/store";
import { onLiveMessage } from "#web/lib/live-socket";
import { type RootData, useSession } from "#web/features/auth/use-session";
import { DASHBOARD_ACTIVITY_LIMIT } from "#web/features/live/refresh";
import { useLive } from "#web/features/live/store";
import { useRestoreShellLayout, useShellLayout } from "#web/features/shell-data/layout-store";
import { previousPage, recordVisit } from "#web/features/shell-data/recent-pages";
import { useActivitySeen } from "#web/features/shell-data/seen-store";
import { useShellData } from "#web/features/shell-data/use-shell-data";
import { useTheme } from "#web/features/theme/store";
import { useShellFocus } from "#web/lib/shell-focus";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { type CurrentWorkspace, useCurrentWorkspace, useWorkspaceStore } from "#web/lib/workspace";
import { WorkspaceSwitcher } from "#web/features/workspaces/components/workspace-switcher";
import { createAndSwitch, loadWorkspaces, switchWorkspace, useWorkspaces } from "#web/features/workspaces/store";

/**
 * Pages (route ids, web/routes.tsx) that need the width: the activity rail starts closed there
 * whatever the saved preference, and opening it lasts until the next page.
 */
const RAIL_CLOSED_BY_DEFAULT = new Set(["comparison-view"]);

/** A page of one comparison or run belongs to the workspace it was opened in: a switch leaves it for the list. */
const belongsToOneWorkspace = (pathname: string, search: string) =>
  /^\/comparison\/[^/]+/.test(pathname) || (pathname === "/comparison" && new URLSearchParams(search).has("id"));

/**
 * The workspace switcher's data and actions: the list is read once signed in, and every switch (the
 * switcher, leaving, an invitation accepted) makes the page read its data again: its loaders run
 * anew and the page below the shell is mounted afresh (keyed by the switch count).
 */
function useWorkspaceSwitch(userId: string | null, hasToken: boolean) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const revalidator = useRevalidator();
  const current = useCurrentWorkspace();
  const list = useWorkspaces((s) => s.list);
  const state = useWorkspaces((s) => s.state);
  const generation = useWorkspaceStore((s) => s.generation);

  // Read once signed in, and again when the current one is gone (a call was told it is not theirs).
  const known = current !== null;
  useEffect(() => {
    if (userId && hasToken && (!known || useWorkspaces.getState().userId !== userId)) void loadWorkspaces(userId);
  }, [userId, hasToken, known]);
  const seen = useRef(generation);
  useEffect(() => {
    if (generation === seen.current) return;
    seen.current = generation;
    void revalidator.revalidate();
    // Only a switch revalidates; the revalidator object changes with every navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [generation]);

  const onSwitch = useCallback(
    async (w: CurrentWorkspace) => {
      if (!userId) return;
      const leave = belongsToOneWorkspace(pathname, search);
      try {
        await switchWorkspace(userId, w);
      } catch (err) {
        toast({
          title: "Workspace Not Switched",
          description: errorMessage(err, "Could not switch the workspace."),
          variant: "destructive",
        });
        return;
      }
      if (leave) navigate("/comparison");
    },
    [userId, pathname, search, navigate],
  );
  const onCreate = useCallback(
    async (name: string) => {
      if (!userId) return;
      await createAndSwitch(userId, name);
      toast({ title: "Workspace Created", description: `You own ${name}. Invite people from Settings.` });
      if (belongsToOneWorkspace(pathname, search)) navigate("/comparison");
    },
    [userId, pathname, search, navigate],
  );
  const render = useCallback(
    (collapsed: boolean) => (
      <WorkspaceSwitcher current={current} list={list} state={state} collapsed={collapsed} onSwitch={onSwitch} onCreate={onCreate} />
    ),
    [current, list, state, onSwitch, onCreate],
  );
  return { render, generation, workspaceId: current?.id ?? null };
}

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
  const liveLastSync = useLive((s) => s.lastSync);

  const layoutReady = useRestoreShellLayout();
  const sidebarCollapsed = useShellLayout((s) => s.sidebarCollapsed);
  const savedRailOpen = useShellLayout((s) => s.railOpen);
  const toggleSidebar = useShellLayout((s) => s.toggleSidebar);
  const toggleSavedRail = useShellLayout((s) => s.toggleRail);
  const railClosedHere = matches.some((m) => RAIL_CLOSED_BY_DEFAULT.has(m.id));
  const [railHere, setRailHere] = useState<{ path: string; open: boolean } | null>(null);
  const railOpen = railClosedHere ? (railHere?.path === pathname ? railHere.open : false) : savedRailOpen;
  const toggleRail = useCallback(() => {
    if (railClosedHere) setRailHere({ path: pathname, open: !railOpen });
    else toggleSavedRail();
  }, [railClosedHere, pathname, railOpen, toggleSavedRail]);

  const focus = useShellFocus((s) => s.focus);
  const exitFocus = useCallback(() => useShellFocus.getState().setFocus(false), []);
  // Focus belongs to the page that asked for it.
  useEffect(() => () => useShellFocus.getState().setFocus(false), [pathname]);

  const hasToken = useAuth((s) => s.accessToken !== null);
  const workspace = useWorkspaceSwitch(user?.id ?? null, hasToken);
  const data = useShellData(hasToken, useLive, DASHBOARD_ACTIVITY_LIMIT, workspace.workspaceId);
  const markSeen = useActivitySeen((s) => s.markSeen);
  const newest = data.activity[0]?.timestamp ?? 0;
  const seeNotifications = useCallback(() => markSeen(Math.max(newest, Date.now())), [markSeen, newest]);
  // The Activity page shows everything: being there is seeing it.
  useEffect(() => {
    if (pathname === "/activity" && newest) markSeen(newest);
  }, [pathname, newest, markSeen]);
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
      systemActive={data.systemActive}
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
      path={pathname}
      focus={focus}
      onExitFocus={exitFocus}
      onSeenNotifications={seeNotifications}
      workspace={workspace.render}
    >
      <Fragment key={workspace.generation}>
        <Outlet />
      </Fragment>
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
