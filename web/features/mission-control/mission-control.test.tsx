import "#tests/support/dom";
import { describe, expect, test } from "bun:test";
import type { AgentDto, MetricsDto } from "#server/modules/agents/model";
import type { ActivityEntryDto } from "#server/modules/activity/model";

const { screen, within } = await import("@testing-library/react");
const { renderUi } = await import("#tests/support/ui");
const { KpiCards } = await import("./kpi-cards");
const { AgentHealth } = await import("./agent-health");
const { ActivityStream } = await import("./activity-stream");
const { SecondaryActions } = await import("./action-cards");

const ui = (node: React.ReactNode) => renderUi(node, "/dashboard");

const metrics = (m: Partial<MetricsDto>): MetricsDto => ({
  totalTrends: 3,
  totalComponents: 8,
  activeTests: 2,
  averageAccuracy: null,
  decidedPredictions: 0,
  correctPredictions: 0,
  ...m,
});
const agent = (id: string, status: string): AgentDto =>
  ({
    id,
    name: id,
    type: "analytics",
    status,
    currentTask: null,
    tasksCompleted: 4,
    accuracy: null,
    confidence: 95,
    metadata: {},
    lastActivity: null,
  }) as AgentDto;

describe("Mission Control components", () => {
  test("KPIs: counts, and Prediction Accuracy with one decimal and % — or a dash until measured", () => {
    const { rerender } = ui(<KpiCards metrics={metrics({})} />);
    expect(screen.getByTestId("kpi-trends").textContent).toBe("3");
    expect(screen.getByTestId("kpi-components").textContent).toBe("8");
    expect(screen.getByTestId("kpi-tests").textContent).toBe("2");
    expect(screen.getByTestId("kpi-accuracy").textContent).toBe("—");
    rerender(<></>);
    ui(<KpiCards metrics={metrics({ averageAccuracy: 66.7, decidedPredictions: 3, correctPredictions: 2 })} />);
    expect(screen.getAllByTestId("kpi-accuracy").at(-1)!.textContent).toBe("66.7%");
    expect(screen.getByText("2 of 3 decided calls right")).toBeTruthy();
    expect(screen.queryByTestId("kpi-accuracy-simulated")).toBeNull();
  });

  test("KPIs: an accuracy scored on simulated visitors says so, with its denominator", () => {
    ui(<KpiCards metrics={metrics({ averageAccuracy: 100, decidedPredictions: 1, correctPredictions: 1, simulatedDecisions: 1 })} />);
    expect(screen.getByTestId("kpi-accuracy-simulated").textContent).toBe("Simulated");
    expect(screen.getByText("1 of 1 decided calls right, all on simulated visitors")).toBeTruthy();
    ui(<KpiCards metrics={metrics({ averageAccuracy: 50, decidedPredictions: 4, correctPredictions: 2, simulatedDecisions: 0 })} />);
    expect(screen.getByText("2 of 4 decided calls right, on real visitors")).toBeTruthy();
  });

  test("agent health: 'N Active' when on, 'System Offline' when off; unknown statuses read as Idle", () => {
    ui(<AgentHealth agents={[agent("a", "active"), agent("b", "active"), agent("c", "weird")]} systemActive={true} />);
    expect(screen.getByTestId("agents-header-badge").textContent).toBe("2 Active");
    expect(within(screen.getByTestId("agent-c")).getByTestId("agent-status").textContent).toBe("Idle");
    // A confidence is not a track record: no Accuracy without a measured figure, definition and denominator.
    expect(within(screen.getByTestId("agent-a")).queryByText("Accuracy")).toBeNull();
    expect(within(screen.getByTestId("agent-a")).queryByText(/95/)).toBeNull();
  });

  test("agent health: a measured accuracy shows its denominator and definition, and '(simulated)' when scored on simulated visitors", () => {
    const oracle = {
      ...agent("o", "active"),
      accuracy: 66.7,
      metadata: { accuracyMeans: "correct / decided predictions", decided: 3, correct: 2 },
    } as AgentDto;
    const empty = { ...agent("t", "active"), type: "testing", accuracy: 95, metadata: { accuracyMeans: "made up" } } as AgentDto;
    ui(<AgentHealth agents={[oracle, empty]} systemActive={true} simulatedRecord />);
    const shown = within(screen.getByTestId("agent-o")).getByTestId("agent-accuracy");
    expect(shown.textContent).toBe("66.7% (2 of 3)");
    expect(shown.getAttribute("title")).toBe("correct / decided predictions: 2 of 3");
    expect(within(screen.getByTestId("agent-o")).getByText("Accuracy (simulated)")).toBeTruthy();
    expect(within(screen.getByTestId("agent-t")).queryByTestId("agent-accuracy")).toBeNull();
  });

  test("agent health header when the system is off", () => {
    ui(<AgentHealth agents={[agent("a", "stopped")]} systemActive={false} />);
    expect(screen.getByTestId("agents-header-badge").textContent).toBe("System Offline");
  });

  test("activity stream: Live/Offline badge and each item's message, details, agent and status", () => {
    const entries: ActivityEntryDto[] = [
      {
        id: "1",
        type: "trend",
        message: "Trend discovered: Dark pages",
        details: "9 of 12 sites",
        status: "success",
        agentName: "TrendHunter",
        metadata: {},
        createdAt: new Date().toISOString(),
      },
    ];
    ui(<ActivityStream entries={entries} live={false} />);
    expect(screen.getByTestId("stream-badge").textContent).toBe("Offline");
    const item = screen.getByTestId("activity-stream");
    expect(within(item).getByText("Trend discovered: Dark pages")).toBeTruthy();
    expect(within(item).getByText("9 of 12 sites")).toBeTruthy();
    expect(within(item).getByText("TrendHunter")).toBeTruthy();
    expect(within(item).getByText("success")).toBeTruthy();
  });

  test("secondary cards: System Config is marked unavailable for non-admins", () => {
    ui(<SecondaryActions isAdmin={false} />);
    expect(screen.getByText("Admins only")).toBeTruthy();
    expect(screen.getByRole("link", { name: /A\/B Testing/ }).getAttribute("href")).toBe("/tests");
    expect(screen.queryByRole("link", { name: /System Config/ })).toBeNull();
  });
});
