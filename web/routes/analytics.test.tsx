// /analytics says so on every chart fed by simulated visitors (issue 14: "every chart fed by
// simulated traffic says so on the chart"), and only on those: the tests and similarity charts
// never carry the badge, and a chart of real visitors only carries none.
import "#tests/support/dom";
import { describe, expect, test } from "bun:test";
import type { AnalyticsDto, MetricsDto } from "#server/modules/agents/model";
const { render, screen } = await import("@testing-library/react");
const { Theme } = await import("@radix-ui/themes");
const { createMemoryRouter, RouterProvider } = await import("react-router");
const { Component } = await import("./analytics");

const hour = (h: number, impressions: number, simulatedImpressions: number) => ({
  bucket: `2026-03-01T${String(h).padStart(2, "0")}:00:00.000Z`,
  testsStarted: 1,
  testsCompleted: 1,
  impressions,
  conversions: Math.floor(impressions / 10),
  simulatedImpressions,
});
const analytics = (traffic: AnalyticsDto["traffic"]): AnalyticsDto => ({
  range: "48h",
  bucket: "hour",
  traffic,
  accuracy: [{ at: "2026-03-01T12:00:00.000Z", accuracy: 100, decided: 1 }],
  similarity: { scope: "yours", buckets: [{ from: 0.2, to: 0.3, count: 2 }], total: 2, mean: 0.25 },
});
const metrics = (decided: number, simulated: number): MetricsDto => ({
  totalTrends: 0,
  totalComponents: 0,
  activeTests: 0,
  averageAccuracy: decided ? 100 : null,
  decidedPredictions: decided,
  correctPredictions: decided,
  simulatedDecisions: simulated,
});

/** Renders the route with `data` as its loader's answer; returns each chart's badge text, or null. */
async function badges(data: { analytics: AnalyticsDto; metrics: MetricsDto }): Promise<Record<string, string | null>> {
  const router = createMemoryRouter(
    [{ path: "/analytics", loader: () => ({ ...data, range: "48h" }), Component, HydrateFallback: () => null }],
    {
      initialEntries: ["/analytics"],
    },
  );
  render(
    <Theme>
      <RouterProvider router={router} />
    </Theme>,
  );
  await screen.findByRole("heading", { name: "Analytics" });
  const out: Record<string, string | null> = {};
  for (const h of screen.getAllByRole("heading", { level: 2 })) {
    const card = h.closest(".rt-Card");
    if (!card) throw new Error(`"${h.textContent}" is not in a card`);
    const found = card.querySelectorAll('[data-testid="chart-simulated"]');
    expect(found.length).toBeLessThanOrEqual(1);
    out[h.textContent ?? ""] = found[0]?.textContent ?? null;
  }
  return out;
}

describe("analytics: charts fed by simulated visitors say so", () => {
  test("all visitors simulated: the visitors, conversions and accuracy charts say 'Simulated visitors'", async () => {
    expect(await badges({ analytics: analytics([hour(10, 40, 40), hour(11, 60, 60)]), metrics: metrics(1, 1) })).toEqual({
      "Tests over time": null,
      "Visitors over time": "Simulated visitors",
      "Conversions over time": "Simulated visitors",
      "Prediction accuracy over time": "Simulated visitors",
      "Similarity distribution across comparisons": null,
    });
  });

  test("some visitors simulated: 'Includes simulated visitors', and partly simulated decisions say so", async () => {
    expect(await badges({ analytics: analytics([hour(10, 40, 0), hour(11, 60, 25)]), metrics: metrics(4, 1) })).toEqual({
      "Tests over time": null,
      "Visitors over time": "Includes simulated visitors",
      "Conversions over time": "Includes simulated visitors",
      "Prediction accuracy over time": "Partly simulated visitors",
      "Similarity distribution across comparisons": null,
    });
  });

  test("only real visitors: no chart carries the badge", async () => {
    expect(await badges({ analytics: analytics([hour(10, 40, 0), hour(11, 60, 0)]), metrics: metrics(2, 0) })).toEqual({
      "Tests over time": null,
      "Visitors over time": null,
      "Conversions over time": null,
      "Prediction accuracy over time": null,
      "Similarity distribution across comparisons": null,
    });
  });
});
