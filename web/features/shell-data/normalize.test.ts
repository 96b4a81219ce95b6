import { describe, expect, test } from "bun:test";
import type { ShellAgent } from "#web/components/layout/app-shell/types";
import { recentActivityBadge, toActivity, toAgents, unseenActivityBadge } from "./normalize";

describe("toAgents", () => {
  test("reads a bare list or a wrapped one; unknown status shows as idle", () => {
    const list = [
      { id: "a1", name: "TrendHunter", status: "active" },
      { id: 2, name: "DesignNinja", status: "busy" },
      { id: "a3", name: "TestCommander", status: "stopped" },
      { id: "a4", name: "InsightOracle", status: "error" },
    ];
    const expected: ShellAgent[] = [
      { id: "a1", name: "TrendHunter", status: "active" },
      { id: "2", name: "DesignNinja", status: "idle" },
      { id: "a3", name: "TestCommander", status: "stopped" },
      { id: "a4", name: "InsightOracle", status: "error" },
    ];
    expect(toAgents(list)).toEqual(expected);
    expect(toAgents({ agents: list })).toEqual(expected);
  });

  test("drops junk instead of throwing", () => {
    expect(toAgents(null)).toEqual([]);
    expect(toAgents({ error: "Not found" })).toEqual([]);
    expect(toAgents([null, 3, { id: "x" }, { name: "  " }, { name: "Solo" }])).toEqual([{ id: "Solo", name: "Solo", status: "idle" }]);
  });
});

describe("toActivity", () => {
  const base = { id: "e1", type: "trend", message: "Found a trend", details: "Glassmorphism is back", agentName: "TrendHunter" };

  test("maps the log entry onto a rail item, newest first", () => {
    const items = toActivity([
      { ...base, id: "old", createdAt: "2025-01-01T10:00:00.000Z", status: "success" },
      { ...base, id: "new", createdAt: "2025-01-01T11:00:00.000Z", status: "error" },
    ]);
    expect(items.map((i) => [i.id, i.status])).toEqual([
      ["new", "error"],
      ["old", "completed"],
    ]);
    expect(items[0]).toMatchObject({
      title: "Found a trend",
      description: "Glassmorphism is back",
      agent: "TrendHunter",
      type: "trend",
      timestamp: Date.parse("2025-01-01T11:00:00.000Z"),
      progress: null,
    });
  });

  test("a lifecycle in metadata wins; unfinished info entries are running", () => {
    const at = "2025-01-01T10:00:00Z";
    const [queued] = toActivity([{ ...base, createdAt: at, status: "info", metadata: { state: "queued" } }]);
    expect(queued?.status).toBe("queued");
    const [running] = toActivity([{ ...base, createdAt: at, status: "info", metadata: { progress: 140 - 100 } }]);
    expect(running).toMatchObject({ status: "running", progress: 40 });
    const [done] = toActivity([{ ...base, createdAt: at, status: "info", metadata: { progress: 100 } }]);
    expect(done?.status).toBe("completed");
    const [alert] = toActivity([{ ...base, createdAt: at, status: "warning" }]);
    expect(alert?.status).toBe("warning");
    const [clamped] = toActivity([{ ...base, createdAt: at, status: "running", progress: 250 }]);
    expect(clamped).toMatchObject({ status: "running", progress: 100 });
  });

  test("skips entries without id, time or message", () => {
    expect(
      toActivity({
        activity: [
          { ...base, createdAt: "not a date" },
          { ...base, id: undefined, createdAt: 1 },
          { id: "z", createdAt: 1 },
        ],
      }),
    ).toEqual([]);
  });

  test("accepts seconds or milliseconds since epoch", () => {
    const [s] = toActivity([{ ...base, createdAt: 1_700_000_000 }]);
    const [ms] = toActivity([{ ...base, createdAt: 1_700_000_000_000 }]);
    expect(s?.timestamp).toBe(1_700_000_000_000);
    expect(ms?.timestamp).toBe(1_700_000_000_000);
  });
});

describe("recentActivityBadge", () => {
  const now = Date.parse("2025-06-01T12:00:00Z");
  const item = (hoursAgo: number, id: string) => ({
    id,
    type: "system",
    title: "x",
    description: null,
    timestamp: now - hoursAgo * 3600_000,
    status: "completed" as const,
    progress: null,
    agent: null,
  });

  test("counts the last 24 hours only; hidden when none", () => {
    expect(recentActivityBadge([item(1, "a"), item(5, "b"), item(23, "c"), item(30, "d")], now, 20)).toBe("3");
    expect(recentActivityBadge([item(30, "d")], now, 20)).toBeNull();
    expect(recentActivityBadge([], now, 20)).toBeNull();
  });

  test("a full page of recent entries may hide more, so it says so", () => {
    const full = Array.from({ length: 20 }, (_, i) => item(0.1, `e${i}`));
    expect(recentActivityBadge(full, now, 20)).toBe("20+");
  });
});

describe("unseenActivityBadge", () => {
  const now = Date.parse("2025-06-01T12:00:00Z");
  const item = (minutesAgo: number, id: string) => ({
    id,
    type: "system",
    title: "x",
    description: null,
    timestamp: now - minutesAgo * 60_000,
    status: "completed" as const,
    progress: null,
    agent: null,
  });
  const list = [item(1, "a"), item(10, "b"), item(60, "c"), item(60 * 30, "d")];

  test("counts only what came after the last look; nothing new hides the badge", () => {
    expect(unseenActivityBadge(list, now - 30 * 60_000, now, 20)).toBe("2");
    expect(unseenActivityBadge(list, now, now, 20)).toBeNull();
  });

  test("never looked: the last 24 hours count", () => {
    expect(unseenActivityBadge(list, null, now, 20)).toBe("3");
  });

  test("a full page of unseen entries may hide more, so it says so", () => {
    const full = Array.from({ length: 20 }, (_, i) => item(1, `e${i}`));
    expect(unseenActivityBadge(full, now - 3600_000, now, 20)).toBe("20+");
  });
});
