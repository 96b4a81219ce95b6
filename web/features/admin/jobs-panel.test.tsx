import "#tests/support/dom";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { JobView } from "#server/modules/jobs/model";
const { act, fireEvent, render, waitFor, within } = await import("@testing-library/react");
const { Theme } = await import("@radix-ui/themes");
const { Toaster, useToasts } = await import("#web/components/ui/toast");
const { JobsPanel } = await import("./jobs-panel");

const $ = () => within(document.body);
const original = globalThis.fetch;
let calls: { key: string; search: string }[] = [];

const job = (over: Partial<JobView>): JobView => ({
  id: "j1",
  kind: "watch.alert",
  state: "dead",
  attempts: 4,
  maxAttempts: 4,
  lastError: "The webhook answered HTTP 503 Service Unavailable: receiver is down",
  leasedBy: null,
  runAt: "2026-03-02T08:01:00.000Z",
  updatedAt: "2026-03-02T08:01:12.000Z",
  ...over,
});
let jobs: JobView[] = [];

beforeEach(() => {
  calls = [];
  useToasts.setState({ current: null });
  jobs = [
    job({}),
    job({ id: "j2", kind: "watch.digest", state: "failed", attempts: 1, maxAttempts: 8, lastError: "mailbox unavailable" }),
    job({ id: "j3", state: "running", attempts: 1, lastError: null, leasedBy: "box:4242:abc" }),
  ];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const key = `${(init?.method ?? "GET").toUpperCase()} ${url.pathname}`;
    calls.push({ key, search: url.search });
    const json = (status: number, value: unknown) =>
      new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
    if (key === "GET /api/admin/jobs") {
      const state = url.searchParams.get("state");
      return json(200, state ? jobs.filter((j) => j.state === state) : jobs);
    }
    if (key === "POST /api/admin/jobs/j1/retry") {
      jobs = jobs.map((j) => (j.id === "j1" ? { ...j, state: "queued", attempts: 0 } : j));
      return json(200, jobs[0]);
    }
    return json(404, { error: "Not found" });
  }) as typeof fetch;
});
afterEach(async () => {
  globalThis.fetch = original;
  await new Promise((r) => setTimeout(r, 20));
});

const mount = () =>
  render(
    <Theme>
      <JobsPanel />
      <Toaster />
    </Theme>,
  );

describe("console: jobs", () => {
  test("lists every job not done with its state, attempts and last error; only dead ones have Retry", async () => {
    mount();
    const lines = await $().findAllByTestId("job");
    expect(lines.map((l) => l.dataset.state)).toEqual(["dead", "failed", "running"]);
    expect(lines[0]!.textContent).toContain("Alert delivery");
    expect(lines[0]!.textContent).toContain("attempt 4 of 4");
    expect(lines[0]!.textContent).toContain("receiver is down");
    expect(lines[1]!.textContent).toContain("Watch digest");
    expect(lines[1]!.textContent).toContain("Retrying");
    expect(lines[2]!.textContent).toContain("Held by box:4242:abc");
    expect(lines.map((l) => within(l).queryByRole("button", { name: /Retry/ }) !== null)).toEqual([true, false, false]);
    expect(calls[0]).toEqual({ key: "GET /api/admin/jobs", search: "" });
  });

  test("Retry queues the dead job again and the list is read again", async () => {
    mount();
    const [dead] = await $().findAllByTestId("job");
    act(() => {
      fireEvent.click(within(dead!).getByRole("button", { name: /Retry/ }));
    });
    expect(await $().findByText("Job Queued")).toBeTruthy();
    await $().findByText(/attempt 0 of 4/);
    expect(calls.map((c) => c.key)).toEqual(["GET /api/admin/jobs", "POST /api/admin/jobs/j1/retry", "GET /api/admin/jobs"]);
    expect((await $().findAllByTestId("job")).some((l) => within(l).queryByRole("button", { name: /Retry/ }))).toBe(false);
  });

  test("the Dead filter asks the server for dead jobs only", async () => {
    mount();
    await $().findAllByTestId("job");
    act(() => {
      fireEvent.click($().getByRole("radio", { name: "Dead" }));
    });
    await waitFor(() => expect(calls.at(-1)).toEqual({ key: "GET /api/admin/jobs", search: "?state=dead" }));
    await waitFor(() =>
      expect(
        $()
          .getAllByTestId("job")
          .map((l) => l.dataset.state),
      ).toEqual(["dead"]),
    );
  });
});
