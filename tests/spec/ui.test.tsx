// Spec items that no feature test pinned down yet (docs/spec-coverage.md lists which is which):
// guard states, the dashboard's labels and failure toasts, the target toasts, status colours,
// toasts and tooltips' timing constants.
import "#tests/support/dom";
import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import type { PublicUser } from "#server/modules/auth/model";
import type { AgentDto, MetricsDto } from "#server/modules/agents/model";
const { act, fireEvent, render, waitFor, within } = await import("@testing-library/react");
const { Theme, Tooltip } = await import("@radix-ui/themes");
const { createMemoryRouter, Outlet, RouterProvider } = await import("react-router");
const { Toaster, useToasts, toast } = await import("#web/components/ui/toast");
const { useAuth } = await import("#web/features/auth/store");
const { Protected } = await import("#web/routes/layout/protected");
const { KpiCards } = await import("#web/features/mission-control/kpi-cards");
const { QuickActions, SecondaryActions } = await import("#web/features/mission-control/action-cards");
const { AgentHealth } = await import("#web/features/mission-control/agent-health");
const { ActivityStream } = await import("#web/features/mission-control/activity-stream");
const { SystemCard } = await import("#web/features/mission-control/system-card");
const { useSystemControl } = await import("#web/features/live/use-system-control");
const { useLive } = await import("#web/features/live/store");
const { ComparisonDetail } = await import("#web/features/comparisons/components/comparison-detail");
const { statusColor } = await import("#web/features/comparisons/status");
const { startBlocker } = await import("#web/features/comparisons/validation");
const { PANEL_HEIGHT } = await import("#web/features/comparisons/components/results/screenshot-panel");
const { RECONNECT_DELAY_MS, holdLiveSocket, resetLiveSocketForTests } = await import("#web/lib/live-socket");
const { comparison, mockFetch, target } = await import("#web/features/comparisons/test-utils");
const dashboard = await import("#web/routes/dashboard");
const { ADMIN_REFRESH_MS, useAdminConsole } = await import("#web/features/admin/use-admin-console");
const { LoginForm, LOGIN_REDIRECT_DELAY_MS } = await import("#web/features/auth/components/login-form");
const root = await import("#web/root");

const $ = () => within(document.body);
const user: PublicUser = { id: "u1", email: "ada@example.com", username: null, role: "user" };
let restore = () => {};

const { renderUi: ui } = await import("#tests/support/ui");

/** A socket that never connects, so pages that hold the live feed stay quiet. */
class SilentSocket {
  onopen = null;
  onmessage = null;
  onclose = null;
  onerror = null;
  send() {}
  close() {}
}

beforeEach(() => {
  useToasts.setState({ current: null });
  useAuth.setState({ status: "unauthenticated", user: null, accessToken: null });
});
afterEach(async () => {
  restore();
  restore = () => {};
  resetLiveSocketForTests();
  await new Promise((r) => setTimeout(r, 20));
});

describe("§2 protected wrapper", () => {
  test("while authentication is loading it shows 'Checking credentials...' and not the page", () => {
    useAuth.setState({ status: "loading", user: null, accessToken: null });
    ui(<Protected>secret page</Protected>);
    expect($().getByRole("status").textContent).toContain("Checking credentials...");
    expect($().queryByText("secret page")).toBeNull();
    expect($().getByRole("main")).toBeTruthy();
  });

  test("signed out: the message, Sign In to Continue (/login), Join the Rebellion (/signup) and the homepage", () => {
    useAuth.setState({ status: "unauthenticated", user: null, accessToken: null });
    ui(<Protected>secret page</Protected>);
    expect($().getByRole("heading", { name: "Hold Up There, Digital Wanderer" })).toBeTruthy();
    expect($().getByRole("link", { name: "Sign In to Continue" }).getAttribute("href")).toBe("/login");
    expect($().getByRole("link", { name: "Join the Rebellion" }).getAttribute("href")).toBe("/signup");
    expect(
      $()
        .getByRole("link", { name: /homepage/ })
        .getAttribute("href"),
    ).toBe("/");
    expect($().queryByText("secret page")).toBeNull();
  });

  test("signed in: the page itself", () => {
    useAuth.setState({ status: "authenticated", user, accessToken: "t" });
    ui(<Protected>secret page</Protected>);
    expect($().getByText("secret page")).toBeTruthy();
  });
});

describe("§2 dashboard", () => {
  const metrics: MetricsDto = {
    totalTrends: 4,
    totalComponents: 9,
    activeTests: 1,
    averageAccuracy: 87.66,
    decidedPredictions: 8,
    correctPredictions: 7,
  };

  test("the four KPI cards carry the spec's labels", () => {
    ui(<KpiCards metrics={metrics} />);
    const group = $().getByRole("group", { name: "Key metrics" });
    for (const label of ["Trends Discovered", "Components Generated", "Active Tests", "Prediction Accuracy"])
      expect(within(group).getByText(label)).toBeTruthy();
    expect($().getByTestId("kpi-accuracy").textContent).toBe("87.7%");
  });

  test("quick actions: Compare Websites (Popular) and Discover Trends (New) link to their pages", () => {
    ui(<QuickActions />);
    const compare = $().getByRole("link", { name: /Compare Websites/ });
    expect(compare.getAttribute("href")).toBe("/comparison");
    expect(within(compare).getByText("Popular")).toBeTruthy();
    const trends = $().getByRole("link", { name: /Discover Trends/ });
    expect(trends.getAttribute("href")).toBe("/trends");
    expect(within(trends).getByText("New")).toBeTruthy();
  });

  test("secondary cards: View Analytics, A/B Testing, System Config, Generate Components — real pages, not dead ends", () => {
    ui(<SecondaryActions isAdmin />);
    const hrefs = Object.fromEntries(
      ["View Analytics", "A/B Testing", "System Config", "Generate Components"].map((t) => [
        t,
        $()
          .getByRole("link", { name: new RegExp(t) })
          .getAttribute("href"),
      ]),
    );
    expect(hrefs).toEqual({
      "View Analytics": "/analytics",
      "A/B Testing": "/tests",
      "System Config": "/super-admin",
      "Generate Components": "/generate",
    });
  });

  test("AI Agent Health and Live Activity Stream headings", () => {
    const agent = {
      id: "trend-hunter",
      name: "TrendHunter",
      type: "trend_detection",
      status: "active",
      currentTask: "Mining",
      tasksCompleted: 3,
      accuracy: null,
      confidence: 90,
      metadata: {},
      lastActivity: null,
    } as unknown as AgentDto;
    ui(
      <>
        <AgentHealth agents={[agent]} systemActive />
        <ActivityStream entries={[]} live={false} />
      </>,
    );
    expect($().getByRole("heading", { name: "AI Agent Health" })).toBeTruthy();
    expect($().getByTestId("agents-header-badge").textContent).toBe("1 Active");
    expect($().getByRole("heading", { name: "Live Activity Stream" })).toBeTruthy();
    expect($().getByTestId("stream-badge").textContent).toBe("Offline");
  });

  test("Launch failure without a server message falls back to 'Failed to start system'", async () => {
    useLive.setState({ systemActive: false });
    const original = globalThis.fetch;
    globalThis.fetch = (async () => new Response("", { status: 502 })) as unknown as typeof fetch;
    restore = () => void (globalThis.fetch = original);
    function Control() {
      const c = useSystemControl();
      const active = useLive((s) => s.systemActive);
      return <SystemCard active={active} pending={c.pending} isAdmin onLaunch={c.launch} onStop={c.stop} />;
    }
    ui(<Control />);
    fireEvent.click($().getByRole("button", { name: /Launch System/ }));
    await waitFor(() => expect($().getByText("Failed to start system")).toBeTruthy());
    expect($().getByText("Error")).toBeTruthy();
    expect($().getByTestId("system-badge").textContent).toBe("Offline");
  });

  test("a failed read on entry shows 'Error' / 'Failed to load dashboard data' and the page still renders", async () => {
    useAuth.setState({ status: "authenticated", user, accessToken: "t" });
    holdLiveSocket({ WebSocketImpl: SilentSocket as unknown as typeof WebSocket, url: "ws://test/ws" })();
    const none = {
      agents: null,
      trends: null,
      components: null,
      activeTests: null,
      completedTests: null,
      activity: null,
      metrics: null,
      system: null,
    };
    const router = createMemoryRouter(
      [
        {
          id: "root",
          path: "/",
          loader: () => ({ user, maintenance: false }),
          element: (
            <Theme>
              <Outlet />
              <Toaster />
            </Theme>
          ),
          children: [{ path: "dashboard", loader: () => ({ ...none, failed: true }), Component: dashboard.Component }],
        },
      ],
      { initialEntries: ["/dashboard"] },
    );
    render(<RouterProvider router={router} />);
    await waitFor(() => expect($().getByText("Failed to load dashboard data")).toBeTruthy());
    expect($().getByTestId("toast").textContent).toContain("Error");
    expect($().getByRole("heading", { name: "Mission Control" })).toBeTruthy();
    // The shell owns <main>; the page must not add a second one.
    expect(document.querySelectorAll("main")).toHaveLength(0);
  });
});

describe("§4/§8 comparison targets", () => {
  const two = [target("t1", "Alpha"), target("t2", "Beta")];

  test("adding a website toasts 'Target Added' and reloads the list", async () => {
    let added = false;
    const f = mockFetch({
      "POST /api/comparisons/c1/targets": () => {
        added = true;
        return { status: 201, json: target("t3", "Gamma") };
      },
      "GET /api/comparisons/c1": { json: comparison({ targetCount: 3 }) },
      "GET /api/comparisons/c1/targets": () => ({ json: added ? [...two, target("t3", "Gamma")] : two }),
    });
    restore = f.restore;
    ui(<ComparisonDetail id="c1" initial={{ comparison: comparison({ targetCount: 2 }), targets: two }} onChange={() => {}} />);
    fireEvent.change($().getByLabelText("Website URL"), { target: { value: "https://gamma.example" } });
    fireEvent.change($().getByLabelText("Display Label"), { target: { value: "Gamma" } });
    fireEvent.click($().getByRole("button", { name: "Add Website" }));
    expect(await $().findByText("Target Added")).toBeTruthy();
    await waitFor(() => expect($().getByRole("button", { name: "Remove Gamma" })).toBeTruthy());
    expect(f.calls[0]).toEqual({
      method: "POST",
      path: "/api/comparisons/c1/targets",
      body: { url: "https://gamma.example/", label: "Gamma" },
    });
  });

  test("a refused add shows 'Failed to Add Target' with the server's message, else the spec's fallback", async () => {
    let answer: { status: number; json: unknown } = { status: 409, json: { error: "This website is already in the comparison" } };
    const f = mockFetch({ "POST /api/comparisons/c1/targets": () => answer });
    restore = f.restore;
    ui(<ComparisonDetail id="c1" initial={{ comparison: comparison(), targets: two }} onChange={() => {}} />);
    const add = async () => {
      fireEvent.change($().getByLabelText("Website URL"), { target: { value: "https://alpha.example" } });
      fireEvent.change($().getByLabelText("Display Label"), { target: { value: "Again" } });
      fireEvent.click($().getByRole("button", { name: "Add Website" }));
      await waitFor(() => expect($().getByText("Failed to Add Target")).toBeTruthy());
    };
    await add();
    expect($().getByText("This website is already in the comparison")).toBeTruthy();
    act(() => useToasts.setState({ current: null }));
    answer = { status: 500, json: "" };
    await add();
    expect($().getByText("Unable to add website. Please check the URL and try again.")).toBeTruthy();
  });

  test("removing toasts 'Target Removed'; a failed removal toasts 'Removal Failed' with the fallback", async () => {
    let fail = false;
    const f = mockFetch({
      "DELETE /api/targets/t2": () => (fail ? { status: 500, json: "" } : { status: 204 }),
      "GET /api/comparisons/c1": { json: comparison({ targetCount: 1 }) },
      "GET /api/comparisons/c1/targets": { json: [two[0]] },
    });
    restore = f.restore;
    ui(<ComparisonDetail id="c1" initial={{ comparison: comparison(), targets: two }} onChange={() => {}} />);
    fail = true;
    fireEvent.click($().getByRole("button", { name: "Remove Beta" }));
    expect(await $().findByText("Removal Failed")).toBeTruthy();
    expect($().getByText("Unable to remove website. Please try again.")).toBeTruthy();
    fail = false;
    fireEvent.click($().getByRole("button", { name: "Remove Beta" }));
    expect(await $().findByText("Target Removed")).toBeTruthy();
    await waitFor(() => expect($().queryByRole("button", { name: "Remove Beta" })).toBeNull());
    expect($().getByText("(Add at least 2 websites to run comparison)")).toBeTruthy();
  });

  test("a failed start without a server message says 'Unable to start comparison. Please try again.'", async () => {
    const f = mockFetch({ "POST /api/comparisons/c1/start": { status: 500, json: "" } });
    restore = f.restore;
    ui(<ComparisonDetail id="c1" initial={{ comparison: comparison(), targets: two }} onChange={() => {}} />);
    fireEvent.click($().getByRole("button", { name: /Start Analysis/ }));
    expect(await $().findByText("Failed to Start")).toBeTruthy();
    expect($().getByText("Unable to start comparison. Please try again.")).toBeTruthy();
  });

  test("status colours: completed green, running or capturing blue, failed red, anything else grey", () => {
    expect(["completed", "running", "capturing", "failed", "pending", "queued"].map(statusColor)).toEqual([
      "green",
      "blue",
      "blue",
      "red",
      "gray",
      "gray",
    ]);
  });

  test("start needs a selected comparison and two websites, in the spec's words", () => {
    expect(startBlocker(null, 5)).toBe("No comparison selected");
    expect(startBlocker("c1", 1)).toBe("At least 2 websites are required to run a comparison");
    expect(startBlocker("c1", 2)).toBeNull();
  });

  test("screenshot panels are 600 px high", () => {
    expect(PANEL_HEIGHT).toBe(600);
  });
});

describe("§9 toasts and tooltips", () => {
  test("one toast at a time: a new one replaces the old; it has a close button and the F8 viewport", () => {
    ui(<span />);
    act(() => toast({ title: "First" }));
    act(() => toast({ title: "Second", description: "replaces the first" }));
    expect($().getAllByTestId("toast")).toHaveLength(1);
    expect($().queryByText("First")).toBeNull();
    expect($().getByText("Second")).toBeTruthy();
    expect($().getByRole("region", { name: /F8/ })).toBeTruthy();
    fireEvent.click($().getByRole("button", { name: "Close" }));
    expect(useToasts.getState().current).toBeNull();
  });

  test("a toast closes by itself after 5000 ms", () => {
    jest.useFakeTimers();
    try {
      ui(<span />);
      act(() => toast({ title: "Short-lived" }));
      act(() => jest.advanceTimersByTime(4900));
      expect(useToasts.getState().current?.title).toBe("Short-lived");
      act(() => jest.advanceTimersByTime(200));
      expect(useToasts.getState().current).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  test("tooltips wait 700 ms before opening (Radix Themes alone would use 200 ms)", async () => {
    expect(root.TOOLTIP_DELAY_MS).toBe(700);
    expect(root.TOOLTIP_SKIP_DELAY_MS).toBe(300);
    const original = globalThis.fetch;
    globalThis.fetch = (async () => new Response(JSON.stringify({ error: "No session" }), { status: 401 })) as unknown as typeof fetch;
    restore = () => void (globalThis.fetch = original);
    jest.useFakeTimers();
    try {
      const router = createMemoryRouter(
        [
          {
            id: "root",
            path: "/",
            loader: () => ({ user: null, maintenance: false }),
            Component: root.Root,
            children: [
              {
                index: true,
                element: (
                  <Tooltip content="Helpful hint">
                    <button type="button">Hover me</button>
                  </Tooltip>
                ),
              },
            ],
          },
        ],
        { initialEntries: ["/"] },
      );
      render(<RouterProvider router={router} />);
      const trigger = await $().findByRole("button", { name: "Hover me" });
      act(() => {
        fireEvent.pointerMove(trigger, { pointerType: "mouse" });
      });
      act(() => jest.advanceTimersByTime(650));
      expect(trigger.getAttribute("data-state")).toBe("closed");
      act(() => jest.advanceTimersByTime(100));
      expect(trigger.getAttribute("data-state")).toMatch(/open/);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe("§9 timing constants, observed", () => {
  test("login success welcomes at once and moves to /dashboard after about 100 ms", async () => {
    expect(LOGIN_REDIRECT_DELAY_MS).toBe(100);
    const f = mockFetch({ "POST /api/auth/login": { json: { accessToken: "tok", user } } });
    restore = f.restore;
    const router = createMemoryRouter(
      [
        {
          path: "/login",
          element: (
            <Theme>
              <LoginForm />
              <Toaster />
            </Theme>
          ),
        },
        { path: "/dashboard", element: <h1>Mission Control stand-in</h1> },
      ],
      { initialEntries: ["/login"] },
    );
    render(<RouterProvider router={router} />);
    fireEvent.change($().getByLabelText("Email"), { target: { value: "ada@example.com" } });
    fireEvent.change($().getByLabelText("Password"), { target: { value: "correct-horse" } });
    jest.useFakeTimers();
    try {
      await act(async () => {
        fireEvent.click($().getByRole("button", { name: "Sign In" }));
        for (let i = 0; i < 50; i++) await Promise.resolve();
      });
      expect($().getByText("Welcome back!")).toBeTruthy();
      act(() => jest.advanceTimersByTime(LOGIN_REDIRECT_DELAY_MS - 1));
      expect(router.state.location.pathname).toBe("/login");
      act(() => jest.advanceTimersByTime(1));
      expect(router.state.location.pathname).toBe("/dashboard");
    } finally {
      jest.useRealTimers();
    }
  });

  test("the admin console re-reads its figures every 30 s", async () => {
    expect(ADMIN_REFRESH_MS).toBe(30_000);
    const f = mockFetch({
      "GET /api/admin/system-metrics": { json: {} },
      "GET /api/admin/database-stats": { json: {} },
      "GET /api/system/status": { json: { isActive: false } },
      "GET /api/admin/maintenance": { json: { enabled: false } },
      "GET /api/agents": { json: [] },
      "GET /api/activity": { json: [] },
    });
    restore = f.restore;
    const loaded = {
      metrics: {},
      database: {},
      system: { isActive: false },
      maintenance: {},
      agents: [],
      activity: [],
    } as unknown as Parameters<typeof useAdminConsole>[0];
    function Console() {
      useAdminConsole(loaded);
      return null;
    }
    jest.useFakeTimers();
    try {
      render(<Console />);
      const reads = () => f.calls.filter((c) => c.path === "/api/admin/system-metrics").length;
      expect(reads()).toBe(0); // everything came with the page
      await act(async () => {
        jest.advanceTimersByTime(ADMIN_REFRESH_MS - 1);
      });
      expect(reads()).toBe(0);
      await act(async () => {
        jest.advanceTimersByTime(1);
        for (let i = 0; i < 50; i++) await Promise.resolve();
      });
      expect(reads()).toBe(1);
      expect(f.calls.map((c) => c.path)).toContain("/api/activity?limit=100");
      await act(async () => {
        jest.advanceTimersByTime(ADMIN_REFRESH_MS);
        for (let i = 0; i < 50; i++) await Promise.resolve();
      });
      expect(reads()).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });

  test("the live socket is /ws on the page's own host, wss under https; it reconnects 3 s after a drop", () => {
    expect(RECONNECT_DELAY_MS).toBe(3000);
    const opened: string[] = [];
    class Recording extends SilentSocket {
      constructor(url: string) {
        super();
        opened.push(url);
      }
    }
    const happy = (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM;
    const before = window.location.href;
    try {
      happy.setURL("http://design.example:8080/dashboard");
      holdLiveSocket({ WebSocketImpl: Recording as unknown as typeof WebSocket })();
      resetLiveSocketForTests();
      happy.setURL("https://design.example/dashboard");
      holdLiveSocket({ WebSocketImpl: Recording as unknown as typeof WebSocket })();
    } finally {
      happy.setURL(before);
    }
    expect(opened).toEqual(["ws://design.example:8080/ws", "wss://design.example/ws"]);
  });
});
