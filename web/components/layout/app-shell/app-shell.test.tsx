import "#tests/support/dom";
import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { afterAll, afterEach, describe, expect, mock, test } from "bun:test";
import type { AppShellProps } from "./app-shell";
import type { ShellActivityItem } from "./types";
// tests/support/dom.ts registers happy-dom once per process and hands it back after the first file
// that imported it, so in a multi-file run this file brings its own DOM and cleanup.
if (!GlobalRegistrator.isRegistered) {
  GlobalRegistrator.register({ url: "http://localhost:3000/" });
  afterAll(() => GlobalRegistrator.unregister());
}
// After happy-dom: Bun loads CommonJS react-dom before ESM bodies run.
const { act, cleanup, fireEvent, render, within } = await import("@testing-library/react");
const { renderToString } = await import("react-dom/server");
const { MemoryRouter } = await import("react-router");
const { Theme } = await import("@radix-ui/themes");
const { AppShell } = await import("./app-shell");
afterEach(cleanup);
const $ = () => within(document.body);

const item = (over: Partial<ShellActivityItem>): ShellActivityItem => ({
  id: "e1",
  type: "comparison",
  title: "Capturing Acme vs Globex",
  description: "Desktop and mobile screenshots",
  timestamp: Date.now() - 5 * 60_000,
  status: "running",
  progress: 40,
  agent: "DesignNinja",
  ...over,
});

function props(over: Partial<AppShellProps> = {}): AppShellProps {
  return {
    user: { name: "ada", email: "ada@example.com" },
    agents: [
      { id: "1", name: "TrendHunter", status: "active" },
      { id: "2", name: "DesignNinja", status: "idle" },
      { id: "3", name: "TestCommander", status: "active" },
      { id: "4", name: "InsightOracle", status: "error" },
    ],
    agentsState: "ready",
    activity: [],
    activityState: "ready",
    activityBadge: null,
    systemActive: true,
    connected: true,
    lastSync: null,
    theme: "light",
    onToggleTheme: mock(() => {}),
    sidebarCollapsed: false,
    onToggleSidebar: mock(() => {}),
    railOpen: true,
    onToggleRail: mock(() => {}),
    layoutReady: true,
    loadRecentPage: () => null,
    onNavigate: mock((_: string) => {}),
    onLogout: mock(() => {}),
    loggingOut: false,
    children: <h1>Page body</h1>,
    ...over,
  };
}

const shell = (p: AppShellProps) => (
  <MemoryRouter initialEntries={["/dashboard"]}>
    <Theme>
      <AppShell {...p} />
    </Theme>
  </MemoryRouter>
);

describe("app shell", () => {
  test("sidebar: five destinations with shortcuts, Compare marked New, Activity badge from the real count", () => {
    render(shell(props({ activityBadge: "3" })));
    const nav = within($().getByRole("navigation", { name: "Main" }));
    const links = nav.getAllByRole("link");
    expect(links.map((l) => l.getAttribute("aria-label"))).toEqual(["Dashboard", "Compare, New", "Trends", "Analytics", "Activity, 3 new"]);
    expect(links.map((l) => l.getAttribute("aria-keyshortcuts"))).toEqual(["1", "2", "3", "4", "5"]);
    expect(links[0]!.getAttribute("aria-current")).toBe("page");
  });

  test("no Activity badge when nothing recent happened", () => {
    render(shell(props({ activityBadge: null })));
    const activity = $().getByRole("link", { name: "Activity" });
    expect(activity.querySelector(".rt-Badge")).toBeNull();
    expect($().getByRole("link", { name: "Compare, New" }).querySelector(".rt-Badge")?.textContent).toBe("New");
    expect($().getByRole("button", { name: "Notifications" }).querySelector(".di-bell-count")).toBeNull();
  });

  test("user, agents and status come from props", () => {
    render(shell(props({ systemActive: false, connected: false })));
    expect($().getByText("ada@example.com")).toBeTruthy();
    expect($().getByText("InsightOracle")).toBeTruthy();
    expect($().getByText("2/4 active")).toBeTruthy();
    expect($().getByText("System Offline")).toBeTruthy();
    expect($().getByText("Disconnected")).toBeTruthy();
    expect($().getByText("4 agents · 2 active")).toBeTruthy();
  });

  test("online and connected", () => {
    render(shell(props()));
    expect($().getByText("System Online")).toBeTruthy();
    expect($().getByText("Connected")).toBeTruthy();
  });

  test("the rail shows an honest empty state, never sample items", () => {
    render(shell(props({ activityState: "unavailable" })));
    const rail = within($().getByRole("complementary", { name: "Activity" }));
    expect(rail.getByText("No activity yet")).toBeTruthy();
    expect(rail.getByText(/not reachable/)).toBeTruthy();
    expect(rail.queryAllByRole("listitem")).toHaveLength(0);
  });

  test("the rail lists activity with status, progress, agent and time", () => {
    render(
      shell(
        props({
          activity: [
            item({}),
            item({ id: "e2", title: "Trend found", status: "completed", progress: null }),
            item({ id: "e3", title: "CPU alert", status: "warning", progress: null, agent: null }),
          ],
        }),
      ),
    );
    const rail = within($().getByRole("complementary", { name: "Activity" }));
    expect(rail.getAllByRole("listitem")).toHaveLength(3);
    expect(rail.getByText("Warning")).toBeTruthy();
    expect(rail.getByText("System")).toBeTruthy();
    expect(rail.getByText("Capturing Acme vs Globex")).toBeTruthy();
    expect(rail.getByText("Running")).toBeTruthy();
    expect(rail.getByText("Completed")).toBeTruthy();
    expect(rail.getByLabelText("Capturing Acme vs Globex: 40% done")).toBeTruthy();
    expect(rail.getAllByText("DesignNinja").length).toBe(2);
    expect(rail.getAllByText("5m ago").length).toBe(3);
  });

  test("the rail toggle reflects and flips the state", () => {
    const p = props({ railOpen: false });
    render(shell(p));
    expect($().queryByRole("complementary", { name: "Activity" })).toBeNull();
    const toggle = $().getByRole("button", { name: "Activity rail" });
    expect(toggle.getAttribute("aria-pressed")).toBe("false");
    fireEvent.click(toggle);
    expect(p.onToggleRail).toHaveBeenCalledTimes(1);
  });

  test("collapse, theme and logout call back", () => {
    const p = props();
    render(shell(p));
    fireEvent.click($().getByRole("button", { name: "Collapse sidebar" }));
    fireEvent.click($().getByRole("button", { name: "Switch to dark theme" }));
    fireEvent.click($().getByRole("button", { name: "Logout" }));
    expect(p.onToggleSidebar).toHaveBeenCalledTimes(1);
    expect(p.onToggleTheme).toHaveBeenCalledTimes(1);
    expect(p.onLogout).toHaveBeenCalledTimes(1);
  });

  test("collapsed sidebar keeps every name for assistive tech", () => {
    const { container } = render(shell(props({ sidebarCollapsed: true, activityBadge: "2" })));
    expect(container.querySelector(".di-shell")?.getAttribute("data-sidebar")).toBe("collapsed");
    expect($().getByRole("button", { name: "Expand sidebar" })).toBeTruthy();
    expect($().getByRole("link", { name: "Activity, 2 new" })).toBeTruthy();
    expect($().getByRole("button", { name: "Logout" })).toBeTruthy();
  });

  test("the clock renders a placeholder on the server and the time once mounted", () => {
    const html = renderToString(shell(props()));
    expect(html).toContain("--:--:--");
    expect(html).not.toMatch(/\d\d:\d\d:\d\d/);
    render(shell(props()));
    expect($().getByLabelText("Current time").textContent).toMatch(/^\d\d:\d\d:\d\d$/);
  });

  test("the search button opens the palette with the recent page; digits navigate", () => {
    const p = props({ loadRecentPage: () => ({ path: "/comparison/c9/view", title: "Pricing pages" }) });
    render(shell(p));
    fireEvent.click($().getByRole("button", { name: "Search commands" }));
    expect($().getByRole("dialog")).toBeTruthy();
    expect($().getByRole("group", { name: "Recent" }).textContent).toContain("Pricing pages");
    act(() => void fireEvent.keyDown($().getByRole("combobox"), { key: "Escape" }));
    expect($().queryByRole("dialog")).toBeNull();
    act(() => void fireEvent.keyDown(document.body, { key: "2" }));
    expect(p.onNavigate).toHaveBeenCalledWith("/comparison");
  });

  test("notifications list recent activity", async () => {
    render(shell(props({ activity: [item({ title: "Snapshot captured", status: "completed", progress: null })], activityBadge: "1" })));
    // Async act: the popover positions itself in a promise after opening.
    await act(async () => void fireEvent.click($().getByRole("button", { name: "Notifications, 1 new" })));
    const pop = within($().getByRole("dialog", { name: "Notifications" }));
    expect(pop.getByText("Snapshot captured")).toBeTruthy();
    expect(pop.getByRole("link", { name: "View all activity" }).getAttribute("href")).toBe("/activity");
  });

  test("focus mode: the shell says so for its CSS, offers Exit focus, and Escape leaves it", () => {
    const onExitFocus = mock(() => {});
    const { container } = render(shell(props({ focus: true, onExitFocus })));
    expect(container.querySelector(".di-shell")?.hasAttribute("data-focus")).toBe(true);
    fireEvent.click($().getByRole("button", { name: "Exit focus" }));
    act(() => void fireEvent.keyDown(document.body, { key: "Escape" }));
    expect(onExitFocus).toHaveBeenCalledTimes(2);
  });

  test("opening the notifications marks them seen", async () => {
    const onSeenNotifications = mock(() => {});
    render(shell(props({ activity: [item({})], activityBadge: "1", onSeenNotifications })));
    await act(async () => void fireEvent.click($().getByRole("button", { name: "Notifications, 1 new" })));
    expect(onSeenNotifications).toHaveBeenCalledTimes(1);
  });
});
