import "#tests/support/dom";
import { afterEach, describe, expect, test } from "bun:test";
const { act, fireEvent, waitFor } = await import("@testing-library/react");
const { DigestCard } = await import("./components/digest-card");
const { HistoryPage } = await import("./components/history-page");
const { $, mockFetch, renderUi, run } = await import("./test-utils");

let restore = () => {};
// Let React finish its scheduled work while the DOM is still there (it is taken away after the file).
afterEach(async () => {
  await act(async () => {});
  restore();
});

describe("Settings: watch digest", () => {
  test("off by default; choosing weekly saves it in this browser's zone and shows the next send", async () => {
    const m = mockFetch({
      "GET /api/watch/digest": { json: { frequency: "off", timezone: null, nextSendAt: null, lastSentAt: null, lastError: null } },
      "PUT /api/watch/digest": (c) => ({
        json: { ...(c.body as object), nextSendAt: "2026-11-30T08:00:00.000Z", lastSentAt: null, lastError: "SMTP refused the message" },
      }),
    });
    restore = m.restore;
    renderUi(<DigestCard />);
    await waitFor(() => expect(($().getByRole("radio", { name: /Off/ }) as HTMLButtonElement).getAttribute("aria-checked")).toBe("true"));
    fireEvent.click($().getByRole("radio", { name: /Weekly/ }));
    await $().findByText("Next digest:", { exact: false });
    expect(m.calls.find((c) => c.method === "PUT")?.body).toEqual({
      frequency: "weekly",
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect($().getByText("The last digest failed: SMTP refused the message")).toBeTruthy();
  });

  test("a failed save shows the server's words", async () => {
    const m = mockFetch({
      "GET /api/watch/digest": {
        json: { frequency: "daily", timezone: "Europe/Berlin", nextSendAt: "2026-11-24T07:00:00.000Z", lastSentAt: null, lastError: null },
      },
      "PUT /api/watch/digest": { status: 400, json: { error: "E-mail digests need SMTP_URL" } },
    });
    restore = m.restore;
    renderUi(<DigestCard />);
    await $().findByText("(Europe/Berlin)", { exact: false });
    fireEvent.click($().getByRole("radio", { name: /Off/ }));
    expect((await $().findByRole("alert")).textContent).toBe("E-mail digests need SMTP_URL");
  });
});

describe("Run history page", () => {
  test("every run with its status, and failures say why", () => {
    const m = mockFetch({});
    restore = m.restore;
    renderUi(
      <HistoryPage
        comparison={{ id: "c1", name: "Orbit watch" }}
        runs={[
          run({ id: "r3", number: 3, status: "failed", error: "Capture timed out", finishedAt: null }),
          run({ id: "r2", number: 2, changeCount: 0 }),
          run({ id: "r1", number: 1 }),
        ]}
      />,
    );
    expect($().getByText("3 runs kept.", { exact: false })).toBeTruthy();
    const items = $().getAllByTestId("run-item");
    expect(items[0]!.textContent).toContain("Failed");
    expect(items[0]!.textContent).toContain("No results: Capture timed out");
    expect(items[1]!.textContent).toContain("No changes");
    expect($().getByRole("link", { name: "Latest changes" }).getAttribute("href")).toBe("/comparison/c1/changes");
  });
});
