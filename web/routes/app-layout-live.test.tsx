// Live messages update the shell through the live store: the shell reads its data once, a burst of
// messages costs one re-read in flight plus one follow-up (never one per message), and nothing the
// shell sent is aborted and sent again. The server's answers are held until the test releases
// them, so "in flight" is a state the test controls, not a race against a timer. The shell data
// and the live store are composed as the app layout composes them (features do not import each other).
import "#tests/support/dom";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { ActivityEntryDto } from "#server/modules/activity/model";
import type { AgentDto } from "#server/modules/agents/model";
import { EMPTY_MISSION } from "#web/features/live/reducer";
const { act, renderHook, waitFor } = await import("@testing-library/react");
const { applyLiveMessage } = await import("#web/features/live/connection");
const { DASHBOARD_ACTIVITY_LIMIT } = await import("#web/features/live/refresh");
const { useLive } = await import("#web/features/live/store");
const { useShellData } = await import("#web/features/shell-data/use-shell-data");

interface Held {
  path: string;
  signal: AbortSignal | null;
  answer(json: unknown): void;
}

/** A server whose every answer waits for the test: requests are recorded, and answered on demand. */
function heldServer() {
  const requests: Held[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    return new Promise<Response>((resolve) => {
      requests.push({
        path: url.pathname,
        signal: init?.signal ?? null,
        answer: (json) => resolve(new Response(JSON.stringify(json), { headers: { "content-type": "application/json" } })),
      });
    });
  }) as typeof fetch;
  const count = (path: string) => requests.filter((r) => r.path === path).length;
  return {
    requests,
    count,
    /** Answers the oldest unanswered request to `path`. */
    async answer(path: string, json: unknown) {
      const next = requests.find((r) => r.path === path && !answered.has(r));
      if (!next) throw new Error(`no request to ${path} is waiting (sent: ${requests.map((r) => r.path).join(", ")})`);
      answered.add(next);
      await act(async () => next.answer(json));
    },
    waiting: () => requests.filter((r) => !answered.has(r)).map((r) => r.path),
    restore: () => void (globalThis.fetch = original),
  };
}
const answered = new Set<Held>();

const agent = (id: string, extra: Partial<AgentDto> = {}): AgentDto => ({
  id,
  name: id,
  type: "testing",
  status: "idle",
  currentTask: null,
  tasksCompleted: 0,
  accuracy: null,
  confidence: null,
  metadata: {},
  lastActivity: null,
  ...extra,
});
/** An activity entry `minutesAgo` old: the shell lists newest first, so each gets a time of its own. */
const entry = (id: string, message: string, minutesAgo: number): ActivityEntryDto =>
  ({
    id,
    type: "system",
    message,
    details: null,
    agentName: null,
    status: "success",
    createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  }) as ActivityEntryDto;

let server: ReturnType<typeof heldServer>;
beforeEach(() => {
  useLive.setState({ ...EMPTY_MISSION, systemActive: null, hydrated: false, hydratedFor: null });
  answered.clear();
  server = heldServer();
});
afterEach(async () => {
  await act(async () => {});
  server.restore();
});

describe("shell data and live messages", () => {
  test("the shell reads once; a burst of live messages re-reads activity once plus one follow-up, never the shell", async () => {
    const { result } = renderHook(() => useShellData(true, useLive, DASHBOARD_ACTIVITY_LIMIT));
    await waitFor(() => expect(server.waiting().sort()).toEqual(["/api/activity", "/api/agents", "/api/system/status"]));
    await server.answer("/api/agents", [agent("trend-hunter"), agent("design-ninja")]);
    await server.answer("/api/activity", [entry("e1", "Started", 5)]);
    await server.answer("/api/system/status", { isActive: true });
    await waitFor(() => expect(result.current.agentsState).toBe("ready"));
    expect(result.current.activity.map((a) => a.title)).toEqual(["Started"]);
    expect(result.current.systemActive).toBe(true);

    // Five messages while nothing is answered: each is applied at once, in place.
    await act(async () => {
      for (let i = 1; i <= 5; i++)
        applyLiveMessage({ type: "AGENT_UPDATE", payload: { id: "design-ninja", currentTask: `Task ${i}` }, agentId: "design-ninja" });
    });
    expect(useLive.getState().agents.find((a) => a.id === "design-ninja")?.currentTask).toBe("Task 5");
    expect(result.current.agents.map((a) => a.name)).toEqual(["trend-hunter", "design-ninja"]);
    // One re-read each in flight; the shell itself is not read again.
    await waitFor(() => expect(server.waiting().sort()).toEqual(["/api/activity", "/api/metrics"]));
    expect(server.count("/api/activity")).toBe(2);
    expect(server.count("/api/agents")).toBe(1);
    expect(server.count("/api/system/status")).toBe(1);

    // The answer to the first re-read is already stale (four messages came after it was sent): one follow-up.
    await server.answer("/api/activity", [entry("e1", "Started", 5)]);
    await server.answer("/api/metrics", {});
    await waitFor(() => expect(server.count("/api/activity")).toBe(3));
    expect(server.count("/api/metrics")).toBe(2);
    await server.answer("/api/activity", [entry("e2", "Task 5 done", 1), entry("e1", "Started", 5)]);
    await server.answer("/api/metrics", {});
    await waitFor(() => expect(result.current.activity.map((a) => a.title)).toEqual(["Task 5 done", "Started"]));

    // Quiet again: nothing more is sent, nothing waits, and nothing sent was aborted.
    await act(async () => {});
    expect(server.waiting()).toEqual([]);
    expect(server.count("/api/activity")).toBe(3);
    expect(server.count("/api/metrics")).toBe(2);
    expect(server.count("/api/agents")).toBe(1);
    expect(server.count("/api/system/status")).toBe(1);
    expect(server.requests.filter((r) => r.signal?.aborted).map((r) => r.path)).toEqual([]);
  });

  test("a message after the re-read finished starts a fresh one (the coalescing does not stay shut)", async () => {
    renderHook(() => useShellData(true, useLive, DASHBOARD_ACTIVITY_LIMIT));
    await waitFor(() => expect(server.waiting()).toHaveLength(3));
    await server.answer("/api/agents", [agent("trend-hunter")]);
    await server.answer("/api/activity", []);
    await server.answer("/api/system/status", { isActive: false });

    await act(async () => applyLiveMessage({ type: "COMPARISON_PROGRESS", payload: { comparisonId: "c1" } }));
    await waitFor(() => expect(server.waiting().sort()).toEqual(["/api/activity", "/api/metrics"]));
    expect(server.count("/api/activity")).toBe(2);
    await server.answer("/api/activity", []);
    await server.answer("/api/metrics", {});
    await act(async () => {});
    expect(server.waiting()).toEqual([]);

    await act(async () => applyLiveMessage({ type: "COMPARISON_PROGRESS", payload: { comparisonId: "c1" } }));
    await waitFor(() => expect(server.waiting().sort()).toEqual(["/api/activity", "/api/metrics"]));
    expect(server.count("/api/activity")).toBe(3);
    await server.answer("/api/activity", []);
    await server.answer("/api/metrics", {});
    await act(async () => {});
    expect(server.waiting()).toEqual([]);
    expect(server.count("/api/agents")).toBe(1);
  });
});
