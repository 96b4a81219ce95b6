import "#tests/support/dom";
import { afterEach, describe, expect, test } from "bun:test";
const { act, fireEvent, waitFor, within } = await import("@testing-library/react");
const { useState } = await import("react");
const { WatchSection } = await import("./components/watch-section");
const { $, alert, delivery, mockFetch, renderUi, run, runCounts } = await import("./test-utils");

let restore = () => {};
// Let React finish its scheduled work while the DOM is still there (it is taken away after the file).
afterEach(async () => {
  await act(async () => {});
  restore();
});

const comparison = (schedule: unknown) => ({
  id: "c1",
  name: "Orbit watch",
  description: null,
  status: "completed",
  error: null,
  createdAt: "2026-11-20T09:00:00.000Z",
  updatedAt: "2026-11-20T09:00:00.000Z",
  startedAt: null,
  completedAt: null,
  targetCount: 2,
  progress: null,
  schedule,
});

function setup(over: Record<string, unknown> = {}) {
  const m = mockFetch({
    "GET /api/comparisons/c1": { json: comparison(null) },
    "GET /api/comparisons/c1/alerts": { json: [alert()] },
    "GET /api/comparisons/c1/alerts/deliveries": {
      json: [
        delivery(),
        delivery({ alertId: "a1", runId: "r1", status: "sent", attempts: 1, lastError: null, sentAt: "2026-11-20T10:00:00.000Z" }),
      ],
    },
    "GET /api/comparisons/c1/runs": {
      json: [
        run({ id: "r2", number: 2, trigger: "schedule", changeCount: 2, changes: runCounts({ cta: 1, copy: 1 }, { high: 1, low: 1 }) }),
        run({ id: "r1", number: 1 }),
      ],
    },
    "GET /api/comparisons/c1/changes": {
      json: {
        from: "r1",
        to: "r2",
        targets: [
          {
            targetId: "t1",
            label: "Orbit",
            url: "http://o/",
            changes: [
              { kind: "cta", severity: "high", viewport: "desktop", summary: "CTA", before: "a", after: "b", evidence: {} },
              { kind: "copy", severity: "low", viewport: "desktop", summary: "Copy", before: "a", after: "b", evidence: {} },
            ],
          },
        ],
      },
    },
    "PUT /api/comparisons/c1/schedule": (c) => {
      const b = c.body as { cron: string; timezone: string };
      if (b.timezone === "Mars/Olympus") return { status: 400, json: { error: "Unknown time zone: Mars/Olympus" } };
      return { json: { ...b, nextRunAt: "2026-11-23T09:00:00.000Z" } };
    },
    "DELETE /api/comparisons/c1/schedule": { json: { ok: true } },
    "POST /api/comparisons/c1/alerts": (c) => {
      const b = c.body as { url?: string };
      if (b.url?.startsWith("http://10.")) return { status: 400, json: { error: "That address is on a private network" } };
      return { status: 201, json: alert({ id: "a2", url: b.url ?? null, minSeverity: "low", kinds: [] }) };
    },
    "DELETE /api/alerts/a1": { json: { ok: true } },
    ...over,
  });
  restore = m.restore;
  return m;
}

describe("Watch section: schedule", () => {
  test("a preset writes the cron; saving shows the next run time from the API", async () => {
    const m = setup();
    renderUi(<WatchSection comparisonId="c1" status="completed" />);
    await $().findByRole("button", { name: "Save Schedule" });
    fireEvent.click($().getByRole("radio", { name: "Weekly" }));
    expect($().getByText("0 9 * * 1")).toBeTruthy();
    fireEvent.change($().getByLabelText("Time"), { target: { value: "07:30" } });
    expect($().getByText("30 7 * * 1")).toBeTruthy();
    fireEvent.click($().getByRole("radio", { name: "Hourly" }));
    expect($().getByText("30 * * * *")).toBeTruthy();
    fireEvent.click($().getByRole("radio", { name: "Daily" }));
    fireEvent.click($().getByRole("button", { name: "Save Schedule" }));
    const next = await $().findByTestId("next-run");
    expect(next.textContent).toContain("Next run:");
    expect(next.textContent).toContain("2026");
    const put = m.calls.find((c) => c.method === "PUT")!;
    expect((put.body as { cron: string }).cron).toBe("30 7 * * *");
    // The default zone is the browser's own.
    expect((put.body as { timezone: string }).timezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect($().getByTestId("schedule-current").textContent).toContain("Every day at 07:30");
  });

  test("a saved custom cron opens in the custom field; the API's error shows inline; remove clears it", async () => {
    setup({ "GET /api/comparisons/c1": { json: comparison({ cron: "*/15 9-17 * * 1-5", timezone: "Mars/Olympus", nextRunAt: null }) } });
    renderUi(<WatchSection comparisonId="c1" status="completed" />);
    const field = (await $().findByLabelText("Cron expression")) as HTMLInputElement;
    expect(field.value).toBe("*/15 9-17 * * 1-5");
    expect($().getByText("This schedule will not fire again.")).toBeTruthy();
    fireEvent.click($().getByRole("button", { name: "Update Schedule" }));
    expect((await $().findByTestId("schedule-error")).textContent).toBe("Unknown time zone: Mars/Olympus");
    fireEvent.click($().getByRole("button", { name: "Remove Schedule" }));
    await $().findByRole("button", { name: "Save Schedule" });
    expect($().queryByTestId("schedule-current")).toBeNull();
  });
});

describe("Watch section: history and alerts", () => {
  test("recent runs with trigger, change count by severity and kind, and links", async () => {
    const m = setup();
    renderUi(<WatchSection comparisonId="c1" status="completed" />);
    const timeline = await $().findByTestId("run-timeline");
    const items = within(timeline).getAllByTestId("run-item");
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain("Run #2");
    expect(items[0]!.textContent).toContain("Scheduled");
    expect(items[0]!.textContent).toContain("2 changes");
    // The counts by severity and kind come with the run list: no request per run.
    expect(items[0]!.textContent).toContain("1 high");
    expect(items[0]!.textContent).toContain("1 low");
    expect(items[0]!.textContent).toContain("CTA 1");
    expect(items[0]!.textContent).toContain("Copy 1");
    expect(items[0]!.textContent).not.toContain("Palette");
    expect(m.calls.some((c) => c.path.startsWith("/api/comparisons/c1/changes"))).toBe(false);
    expect(items[1]!.textContent).toContain("Baseline");
    expect(within(items[0]!).getByRole("link", { name: "View changes in run #2" }).getAttribute("href")).toBe(
      "/comparison/c1/changes?to=r2",
    );
    expect(within(items[1]!).getByRole("link", { name: "Open results of run #1" }).getAttribute("href")).toBe("/comparison/c1/runs/r1");
    expect($().getByRole("link", { name: "All runs (2)" }).getAttribute("href")).toBe("/comparison/c1/history");
  });

  test("a completed run whose changes are still being found says so, not that it is a baseline", async () => {
    setup({
      "GET /api/comparisons/c1/runs": {
        json: [run({ id: "r2", number: 2, changesStatus: "pending" }), run({ id: "r1", number: 1, changesStatus: "first-run" })],
      },
    });
    renderUi(<WatchSection comparisonId="c1" status="completed" />);
    const items = within(await $().findByTestId("run-timeline")).getAllByTestId("run-item");
    expect(items[0]!.textContent).toContain("Finding changes…");
    expect(items[0]!.textContent).not.toContain("Baseline");
    expect(items[1]!.textContent).toContain("Baseline: nothing earlier to compare with");
  });

  test("rules list, deliveries with attempts and last error; add a webhook rule; errors inline; delete", async () => {
    const m = setup();
    renderUi(<WatchSection comparisonId="c1" status="completed" />);
    const rules = await $().findByTestId("alert-rules");
    expect(rules.textContent).toContain("https://hooks.example.com/watch");
    expect(rules.textContent).toContain("Medium and up");
    expect(rules.textContent).toContain("CTA, Copy");
    const deliveries = await $().findByTestId("alert-deliveries");
    expect(deliveries.textContent).toContain("Failed");
    expect(deliveries.textContent).toContain("3 attempts");
    expect(deliveries.textContent).toContain("HTTP 500 from the receiver");
    expect(deliveries.textContent).toContain("Run #2");
    expect(deliveries.textContent).toContain("Sent");

    fireEvent.change($().getByLabelText("Webhook URL"), { target: { value: "http://10.0.0.1/hook" } });
    fireEvent.click($().getByRole("button", { name: "Add Alert Rule" }));
    expect((await $().findByTestId("alert-error")).textContent).toBe("That address is on a private network");

    fireEvent.change($().getByLabelText("Webhook URL"), { target: { value: "https://example.com/hook" } });
    fireEvent.click($().getByRole("checkbox", { name: "Palette" }));
    fireEvent.click($().getByRole("button", { name: "Add Alert Rule" }));
    await waitFor(() => expect($().getByTestId("alert-rules").textContent).toContain("https://example.com/hook"));
    expect($().queryByTestId("alert-error")).toBeNull();
    expect(m.calls.filter((c) => c.method === "POST").at(-1)?.body).toEqual({
      channel: "webhook",
      url: "https://example.com/hook",
      minSeverity: "low",
      kinds: ["palette"],
    });

    fireEvent.click($().getByRole("radio", { name: "Email" }));
    expect($().getByLabelText("Email address")).toBeTruthy();

    fireEvent.click($().getByRole("button", { name: "Delete alert rule https://hooks.example.com/watch" }));
    await waitFor(() => expect($().getByTestId("alert-rules").textContent).not.toContain("hooks.example.com"));
    expect(m.calls.some((c) => c.method === "DELETE" && c.path === "/api/alerts/a1")).toBe(true);
  });

  test("a run ending reloads the history", async () => {
    const m = setup();
    let finish = () => {};
    function Page() {
      const [status, setStatus] = useState("running");
      finish = () => setStatus("completed");
      return <WatchSection comparisonId="c1" status={status} />;
    }
    renderUi(<Page />);
    await $().findByTestId("run-timeline");
    const before = m.calls.filter((c) => c.path === "/api/comparisons/c1/runs").length;
    act(() => finish());
    await waitFor(() => expect(m.calls.filter((c) => c.path === "/api/comparisons/c1/runs").length).toBe(before + 1));
    // The schedule is read again too (its next run moved on); let every answer land before the DOM goes.
    await waitFor(() => expect(m.calls.filter((c) => c.path === "/api/comparisons/c1").length).toBe(2));
    await act(async () => {});
  });
});
