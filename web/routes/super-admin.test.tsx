import "#tests/support/dom";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { DatabaseStats, MaintenanceState, SystemMetrics } from "#server/modules/admin/model";
import type { PublicUser } from "#server/modules/auth/model";
const { act, fireEvent, render, waitFor, within } = await import("@testing-library/react");
const { Theme } = await import("@radix-ui/themes");
const { createMemoryRouter, Outlet, RouterProvider } = await import("react-router");
const { Toaster, useToasts } = await import("#web/components/ui/toast");
const { useAuth } = await import("#web/features/auth/store");
const { holdLiveSocket, resetLiveSocketForTests } = await import("#web/lib/live-socket");
const superAdmin = await import("./super-admin");

const $ = () => within(document.body);
const admin: PublicUser = { id: "a1", email: "boss@example.com", username: null, role: "admin" };

const metrics = (over: Partial<SystemMetrics> = {}): SystemMetrics => ({
  cpu: 12.5,
  memory: 40,
  disk: 30,
  network: { in: 2048, out: 1024 },
  uptime: ((1 * 24 + 2) * 60 + 3) * 60_000,
  activeConnections: 3,
  connections: { http: 1, sockets: 2 },
  totalRequests: 321,
  errorRate: 0,
  sampledAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const database: DatabaseStats = {
  engine: "sqlite",
  engineDetail: "sqlite",
  backupAdvice: null,
  totalRecords: 99,
  tables: 10,
  connections: 1,
  queryTime: 0.05,
  dbSize: 4096,
  historyRuns: 3,
  historyBytes: 2048,
  backupStatus: "none",
  lastBackup: null,
  lastBackupError: null,
  backupCount: 0,
};
const maintenance: MaintenanceState = { enabled: false, message: "", since: null, by: null };

type Answer = { status?: number; json?: unknown };
let routes: Record<string, Answer | ((body: unknown) => Answer)> = {};
const calls: string[] = [];
const original = globalThis.fetch;

beforeEach(() => {
  calls.length = 0;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const key = `${(init?.method ?? "GET").toUpperCase()} ${url.pathname}`;
    calls.push(key);
    const route = routes[key];
    const a = typeof route === "function" ? route(typeof init?.body === "string" ? JSON.parse(init.body) : undefined) : route;
    const status = a?.status ?? (route ? 200 : 404);
    return new Response(JSON.stringify(a?.json ?? (route ? {} : { error: "Not found" })), {
      status,
      headers: { "content-type": "application/json" },
    });
  }) as typeof fetch;
  useAuth.setState({ status: "authenticated", user: admin, accessToken: "token" });
  useToasts.setState({ current: null });
});
afterEach(async () => {
  globalThis.fetch = original;
  resetLiveSocketForTests();
  // Let React flush the unmount's passive effects while the DOM still exists.
  await new Promise((r) => setTimeout(r, 20));
});

/** A stand-in socket the test drives: open it, push messages. */
class FakeSocket {
  static last: FakeSocket | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    FakeSocket.last = this;
  }
  send() {}
  close() {}
}

let releaseSocket: (() => void) | null = null;
afterEach(() => {
  releaseSocket?.();
  releaseSocket = null;
});

function renderConsole(data: Partial<Record<string, unknown>>, user: PublicUser = admin) {
  useAuth.setState({ user });
  // The app shell holds the one live socket in the real app; here the test stands in for it.
  releaseSocket = holdLiveSocket({ WebSocketImpl: FakeSocket as unknown as typeof WebSocket, url: "ws://test/ws" });
  const full = {
    metrics: null,
    database: null,
    system: null,
    maintenance: null,
    alerts: null,
    ongoing: null,
    agents: null,
    activity: null,
    ...data,
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
        children: [{ path: "super-admin", loader: () => full, Component: superAdmin.Component }],
      },
    ],
    { initialEntries: ["/super-admin"] },
  );
  return render(<RouterProvider router={router} />);
}

const allGood = () => {
  routes = {
    "GET /api/admin/system-metrics": { json: metrics() },
    "GET /api/admin/database-stats": { json: database },
    "GET /api/system/status": { json: { isActive: false } },
    "GET /api/admin/maintenance": { json: maintenance },
    "GET /api/agents": { json: [] },
    "GET /api/activity": { json: [] },
  };
};

describe("super-admin console", () => {
  test("placeholders show, marked as loading, only until the first answer", async () => {
    allGood();
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes("/api/admin/system-metrics")) await gate;
      return realFetch(input, init);
    }) as typeof fetch;
    renderConsole({});
    await waitFor(() => expect($().getByText("Super Admin Console")).toBeTruthy());
    const marked = () => [...document.querySelectorAll("[data-placeholder]")].map((e) => e.textContent);
    expect(marked()).toContain("45%");
    expect(marked()).toContain("7d 5h 23m");
    expect($().getByText("Loading live figures…")).toBeTruthy();
    expect($().getByTestId("health-badge").textContent).toBe("Checking health…");

    release();
    await waitFor(() => expect($().getByTestId("uptime").textContent).toBe("1d 2h 3m"));
    expect(marked()).toEqual([]);
    expect($().queryByText("Loading live figures…")).toBeNull();
    expect($().getByTestId("health-badge").textContent).toBe("Healthy");
    expect($().getAllByText("12.5%").length).toBeGreaterThan(0);
  });

  test("a failed load keeps the placeholders, marked, and says so", async () => {
    allGood();
    routes["GET /api/admin/system-metrics"] = { status: 500, json: { error: "boom" } };
    renderConsole({});
    await waitFor(() => expect($().getByTestId("toast").textContent).toContain("Failed to load admin dashboard data"));
    const marked = [...document.querySelectorAll("[data-placeholder]")].map((e) => e.textContent);
    expect(marked).toContain("45%");
    expect(marked).toContain("68%");
    expect(marked).toContain("72%");
    expect(marked).toContain("23");
    expect($().getByTestId("health-badge").textContent).toBe("Checking health…");
  });

  test("SYSTEM_METRICS over the socket updates the figures and the health badge", async () => {
    allGood();
    renderConsole({ metrics: metrics(), database, system: { isActive: true }, maintenance, agents: [], activity: [] });
    await waitFor(() => expect($().getByTestId("health-badge").textContent).toBe("Healthy"));
    act(() => FakeSocket.last!.onopen?.());
    act(() => FakeSocket.last!.onmessage?.({ data: JSON.stringify({ type: "SYSTEM_METRICS", payload: metrics({ cpu: 95 }) }) }));
    await waitFor(() => expect($().getByTestId("health-badge").textContent).toBe("Critical"));
    act(() => FakeSocket.last!.onmessage?.({ data: JSON.stringify({ type: "SYSTEM_METRICS", payload: metrics({ memory: 85 }) }) }));
    await waitFor(() => expect($().getByTestId("health-badge").textContent).toBe("Warning"));
  });

  test("a failed restart is reported as a failure; a failed maintenance toggle leaves the switch alone", async () => {
    allGood();
    routes["POST /api/system/restart"] = { status: 500, json: { error: "Agent worker did not start" } };
    routes["POST /api/admin/maintenance"] = { status: 500, json: { error: "disk full" } };
    renderConsole({ metrics: metrics(), database, system: { isActive: true }, maintenance, agents: [], activity: [] });
    fireEvent.click(await $().findByRole("button", { name: "Restart" }));
    await waitFor(() => expect($().getByTestId("toast").textContent).toContain("Restart Failed"));
    expect($().getByTestId("toast").textContent).toContain("Agent worker did not start");
    const sw = $().getByTestId("maintenance-switch");
    fireEvent.click(sw);
    await waitFor(() => expect($().getByTestId("toast").textContent).toContain("disk full"));
    expect(sw.getAttribute("aria-checked")).toBe("false");
    expect($().queryByTestId("maintenance-banner")).toBeNull();
  });

  test("maintenance on shows the banner and the spec's toast", async () => {
    allGood();
    routes["POST /api/admin/maintenance"] = (body) => ({ json: { ...maintenance, enabled: (body as { enabled: boolean }).enabled } });
    renderConsole({ metrics: metrics(), database, system: { isActive: false }, maintenance, agents: [], activity: [] });
    fireEvent.click(await $().findByTestId("maintenance-switch"));
    await waitFor(() => expect($().getByTestId("toast").textContent).toContain("Maintenance Mode Enabled"));
    expect($().getByTestId("maintenance-banner").textContent).toContain(
      "System is currently in maintenance mode. Users cannot access the application.",
    );
  });

  test("non-admins get the admins-only screen and no admin calls are made", async () => {
    allGood();
    renderConsole({}, { ...admin, role: "user" });
    await waitFor(() => expect($().getByText("Admins Only")).toBeTruthy());
    expect(calls.filter((c) => c.includes("/api/admin/"))).toEqual([]);
  });
});
