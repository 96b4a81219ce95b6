// Helpers for this feature's component tests (never imported by the app). Load it with a dynamic
// import after tests/support/dom, like every module that pulls in react-dom.
import type { AlertView, ChangesResponse, DeliveryView, RunDetail, RunDto } from "./api";

export { $, type FetchCall, mockFetch, renderUi } from "#tests/support/ui";

export const run = (over: Partial<RunDto> = {}): RunDto => ({
  id: "r1",
  number: 1,
  trigger: "manual",
  status: "completed",
  startedAt: "2026-11-20T09:00:00.000Z",
  finishedAt: "2026-11-20T09:01:05.000Z",
  changeCount: null,
  changes: null,
  changesStatus: "first-run",
  error: null,
  ...over,
});

type Counts = NonNullable<RunDto["changes"]>;

/** A run's change counts as the run list carries them: every kind and severity, zero unless given. */
export function runCounts(byKind: Partial<Counts["byKind"]>, bySeverity: Partial<Counts["bySeverity"]>): Counts {
  const kinds = { copy: 0, cta: 0, palette: 0, typography: 0, layout: 0, meta: 0, timing: 0, visual: 0, pages: 0, ...byKind };
  return {
    total: Object.values(kinds).reduce((a, b) => a + b, 0),
    byKind: kinds,
    bySeverity: { low: 0, medium: 0, high: 0, ...bySeverity },
  };
}

export const alert = (over: Partial<AlertView> = {}): AlertView => ({
  id: "a1",
  comparisonId: "c1",
  channel: "webhook",
  url: "https://hooks.example.com/watch",
  email: null,
  minSeverity: "medium",
  kinds: ["cta", "copy"],
  createdAt: "2026-11-20T09:00:00.000Z",
  ...over,
});

export const delivery = (over: Partial<DeliveryView> = {}): DeliveryView => ({
  alertId: "a1",
  runId: "r2",
  status: "failed",
  attempts: 3,
  lastError: "HTTP 500 from the receiver",
  sentAt: null,
  ...over,
});

export const changes: ChangesResponse = {
  from: "r1",
  to: "r2",
  targets: [
    {
      targetId: "t1",
      label: "Orbit",
      url: "http://orbit.test/",
      changes: [
        {
          kind: "copy",
          severity: "medium",
          viewport: "desktop",
          summary: "Headline “Plan launches” → “Launch plans”",
          before: "Plan launches",
          after: "Launch plans",
          evidence: { beforeBox: { x: 100, y: 200, width: 600, height: 60 }, afterBox: { x: 100, y: 200, width: 560, height: 60 } },
        },
        {
          kind: "cta",
          severity: "high",
          viewport: "desktop",
          summary: "CTA “Start your free trial” → “Book a demo”",
          before: "Start your free trial",
          after: "Book a demo",
          evidence: { afterBox: { x: 120, y: 300, width: 180, height: 48 } },
        },
        {
          kind: "palette",
          severity: "low",
          viewport: "mobile",
          summary: "Brand colour #2563eb → #dc2626 (ΔE 52.1)",
          before: "#2563eb",
          after: "#dc2626",
          evidence: { deltaE: 52.1 },
        },
      ],
    },
    { targetId: "t2", label: "Ember", url: "http://ember.test/", changes: [] },
  ],
};

export function snapshot(id: string, targetId: string, viewport: "desktop" | "mobile" = "desktop"): RunDetail["snapshots"][number] {
  return {
    id,
    targetId,
    capturedAt: "2026-11-20T09:00:30.000Z",
    viewport,
    screenshotUrl: `/api/snapshots/${id}/screenshot`,
    title: "Page",
    colors: [],
    width: viewport === "desktop" ? 1440 : 390,
    height: 2000,
    consent: null,
    extraction: { capturedHeight: 2000 } as RunDetail["snapshots"][number]["extraction"],
  };
}
