import { describe, expect, test } from "bun:test";
import type { AgentDto, ExperimentDto, TrendDto } from "#server/modules/agents/model";
import { EMPTY_MISSION, KEEP, reduceLive, type MissionData } from "./reducer";

const trend = (id: string) => ({ id, title: id }) as unknown as TrendDto;
const test_ = (id: string) => ({ id, name: id }) as unknown as ExperimentDto;
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
const NOW = Date.parse("2025-06-01T12:00:00Z");

describe("live message reducer (spec §4)", () => {
  test("TREND_DISCOVERED prepends, dedupes and keeps 20; refreshes metrics and activity", () => {
    let s: MissionData = { ...EMPTY_MISSION, trends: Array.from({ length: 20 }, (_, i) => trend(`t${i}`)) };
    const r = reduceLive(s, { type: "TREND_DISCOVERED", payload: trend("new"), agentId: "trend-hunter" }, NOW);
    expect(r.state.trends).toHaveLength(KEEP.trends);
    expect(r.state.trends[0]!.id).toBe("new");
    expect(r.state.trends.at(-1)!.id).toBe("t18");
    expect(r.effects).toEqual({ refreshMetrics: true, refreshActivity: true, refreshSystem: false });
    s = reduceLive(r.state, { type: "TREND_DISCOVERED", payload: trend("t5") }, NOW).state;
    expect(s.trends.filter((t) => t.id === "t5")).toHaveLength(1);
    expect(s.trends[0]!.id).toBe("t5");
  });

  test("COMPONENT_GENERATED prepends and keeps 10", () => {
    const s = { ...EMPTY_MISSION, components: Array.from({ length: 10 }, (_, i) => ({ id: `c${i}` }) as never) };
    const r = reduceLive(s, { type: "COMPONENT_GENERATED", payload: { id: "c-new" } }, NOW);
    expect(r.state.components.map((c) => c.id)).toEqual(["c-new", ...Array.from({ length: 9 }, (_, i) => `c${i}`)]);
    expect(r.effects.refreshMetrics).toBe(true);
  });

  test("TEST_COMPLETED moves the test from active to completed (keep 10)", () => {
    const s = {
      ...EMPTY_MISSION,
      activeTests: [test_("a"), test_("b")],
      completedTests: Array.from({ length: 10 }, (_, i) => test_(`done${i}`)),
    };
    const r = reduceLive(s, { type: "TEST_COMPLETED", payload: test_("a") }, NOW);
    expect(r.state.activeTests.map((t) => t.id)).toEqual(["b"]);
    expect(r.state.completedTests).toHaveLength(10);
    expect(r.state.completedTests[0]!.id).toBe("a");
    expect(r.effects.refreshMetrics).toBe(true);
  });

  test("AGENT_UPDATE merges into the matching agent and stamps lastActivity with now", () => {
    const s = { ...EMPTY_MISSION, agents: [agent("trend-hunter"), agent("design-ninja", { tasksCompleted: 3 })] };
    const r = reduceLive(
      s,
      { type: "AGENT_UPDATE", payload: { id: "design-ninja", currentTask: "Building", tasksCompleted: 4 }, agentId: "design-ninja" },
      NOW,
    );
    const ninja = r.state.agents.find((a) => a.id === "design-ninja")!;
    expect(ninja).toMatchObject({ currentTask: "Building", tasksCompleted: 4, status: "idle", lastActivity: "2025-06-01T12:00:00.000Z" });
    expect(r.state.agents[0]).toBe(s.agents[0]!);
    expect(r.effects).toEqual({ refreshMetrics: true, refreshActivity: true, refreshSystem: false });
    const st = reduceLive(s, { type: "AGENT_UPDATE", payload: { status: "stopped" }, agentId: "trend-hunter" }, NOW);
    expect(st.state.agents[0]!.status).toBe("stopped");
    expect(st.effects.refreshSystem).toBe(true);
  });

  test("SYSTEM_METRICS is kept as delivered; comparison messages only refresh", () => {
    const m = reduceLive(EMPTY_MISSION, { type: "SYSTEM_METRICS", payload: { cpu: 12 } }, NOW);
    expect(m.state.systemMetrics).toEqual({ cpu: 12 });
    const c = reduceLive(EMPTY_MISSION, { type: "COMPARISON_PROGRESS", payload: { comparisonId: "x" } }, NOW);
    expect(c.state).toBe(EMPTY_MISSION);
    expect(c.effects.refreshActivity).toBe(true);
  });

  test("malformed payloads change nothing and trigger nothing", () => {
    for (const m of [
      { type: "TREND_DISCOVERED" as const, payload: null },
      { type: "COMPONENT_GENERATED" as const, payload: "x" },
      { type: "TEST_COMPLETED" as const, payload: { name: "no id" } },
      { type: "AGENT_UPDATE" as const, payload: 42 },
    ]) {
      const r = reduceLive(EMPTY_MISSION, m, NOW);
      expect(r.state).toBe(EMPTY_MISSION);
      expect(r.rejected).toBeString();
      expect(r.effects).toEqual({ refreshMetrics: false, refreshActivity: false, refreshSystem: false });
    }
  });
});
