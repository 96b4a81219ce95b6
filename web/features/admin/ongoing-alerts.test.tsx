// The console's open host alerts: one line per alert with a duration that keeps counting while the
// figure is high, re-read when the server may have opened or ended one.
import "#tests/support/dom";
import { afterEach, describe, expect, test } from "bun:test";
import type { LiveMessage } from "#server/live/hub";
import type { OngoingAlerts as Answer } from "#server/modules/admin/model";
const { act, waitFor, within } = await import("@testing-library/react");
const { OngoingAlerts } = await import("./components/ongoing-alerts");
const { useOngoingAlerts } = await import("./use-ongoing-alerts");
const { $, mockFetch, renderUi } = await import("#tests/support/ui");
const { renderToString } = await import("react-dom/server");

let restore = () => {};
afterEach(async () => {
  await act(async () => {});
  restore();
});

const cpu = (over: Partial<Answer["ongoing"][number]> = {}): Answer["ongoing"][number] => ({
  metric: "cpu",
  threshold: 80,
  rearmBelow: 72,
  since: "2026-03-01T12:00:00.000Z",
  peak: 95,
  durationMs: 250_000,
  above: true,
  easing: false,
  ...over,
});
const answer = (ongoing: Answer["ongoing"]): Answer => ({ ongoing, at: "2026-03-01T12:04:10.000Z", cooldownMs: 600_000 });

/** A live feed the test pushes messages into. */
function feed() {
  const handlers = new Set<(m: LiveMessage) => void>();
  return {
    subscribe: (h: (m: LiveMessage) => void) => {
      handlers.add(h);
      return () => void handlers.delete(h);
    },
    push: (m: LiveMessage) => act(() => handlers.forEach((h) => h(m))),
  };
}

function Console({
  initial,
  subscribe,
  now,
}: {
  initial: Answer | null;
  subscribe?: ReturnType<typeof feed>["subscribe"];
  now: () => number;
}) {
  const state = useOngoingAlerts(initial, subscribe, now);
  return <OngoingAlerts state={state} now={now} />;
}

describe("open host alerts in the console", () => {
  test("one line per alert whose duration keeps counting while the figure is above its threshold", async () => {
    let clock = 1_000_000;
    const now = () => clock;
    restore = mockFetch({}).restore;
    renderUi(<Console initial={answer([cpu()])} now={now} />);
    const line = await $().findByTestId("ongoing-alert");
    expect(line.textContent).toContain("CPU usage above 80% for 4m 10s");
    expect(line.textContent).toContain("Ongoing");
    expect(line.textContent).toContain("Peak 95%");
    clock += 65_000;
    await waitFor(() => expect($().getByTestId("ongoing-alert").textContent).toContain("for 5m 15s"), { timeout: 3000 });
    expect($().getAllByTestId("ongoing-alert")).toHaveLength(1);
    expect($().getByRole("region", { name: "Open alerts" })).toBeTruthy();
  });

  test("the first render is the same on the server and at hydration, however long hydration takes between the clock reads", () => {
    const server = renderToString(<Console initial={answer([cpu()])} now={() => 1_000_000} />);
    // On a busy machine a second passed between reading the clock for the answer and for the line.
    let clock = 5_000_000;
    const hydrating = renderToString(<Console initial={answer([cpu()])} now={() => (clock += 1_000)} />);
    expect(server).toContain("for 4m 10s");
    expect(hydrating).toBe(server);
  });

  test("an easing alert says how it ends and its duration stands still; nothing shows when none is open", async () => {
    let clock = 1_000_000;
    restore = mockFetch({}).restore;
    const view = renderUi(<Console initial={answer([cpu({ above: false, easing: true, durationMs: 235_000 })])} now={() => clock} />);
    const line = await $().findByTestId("ongoing-alert");
    expect(line.textContent).toContain("CPU usage back under 80% after 3m 55s");
    expect(line.textContent).toContain("Below 72%: the alert closes after 10m there.");
    expect(line.textContent).toContain("Easing");
    clock += 60_000;
    await act(async () => {});
    expect(line.textContent).toContain("after 3m 55s");
    view.unmount();
    renderUi(<Console initial={answer([])} now={() => clock} />);
    expect($().queryByTestId("ongoing-alerts")).toBeNull();
  });

  test("re-read on ALERT, and on each metrics sample only while one is open", async () => {
    const live = feed();
    let served = answer([]);
    const m = mockFetch({ "GET /api/admin/alerts": () => ({ json: served }) });
    restore = m.restore;
    renderUi(<Console initial={answer([])} subscribe={live.subscribe} now={Date.now} />);
    const reads = () => m.calls.filter((c) => c.path === "/api/admin/alerts").length;
    await live.push({ type: "SYSTEM_METRICS", payload: {} });
    expect(reads()).toBe(0);

    served = answer([cpu({ metric: "memory", threshold: 85, rearmBelow: 76.5, peak: 91 })]);
    await live.push({ type: "ALERT", payload: {} });
    const line = await $().findByTestId("ongoing-alert");
    expect(line.getAttribute("data-metric")).toBe("memory");
    expect(within(line).getByText(/Memory usage above 85% for/)).toBeTruthy();
    expect(reads()).toBe(1);

    served = answer([]);
    await live.push({ type: "SYSTEM_METRICS", payload: {} });
    await waitFor(() => expect($().queryByTestId("ongoing-alerts")).toBeNull());
    expect(reads()).toBe(2);
  });
});
