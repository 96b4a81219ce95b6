import "#tests/support/dom";
import { afterEach, describe, expect, test } from "bun:test";
import type { ShareView } from "#server/modules/share/model";
const { act, fireEvent, waitFor, within } = await import("@testing-library/react");
const { $, mockFetch, renderUi } = await import("#tests/support/ui");
const { ShareDialog } = await import("./components/share-dialog");
const { useWorkspaceStore, VIEWER_REASON } = await import("#web/lib/workspace");

const DAY = 24 * 60 * 60 * 1000;
const URL_MADE = "http://localhost/share/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

const existing: ShareView = {
  id: "s1",
  runId: "r3",
  runNumber: 3,
  createdAt: "2026-01-02T10:00:00.000Z",
  createdBy: { id: "u1", email: "ada@example.com", username: null },
  expiresAt: null,
  views: 12,
  lastViewedAt: "2026-01-03T10:00:00.000Z",
  revoked: false,
};

/** A server holding the comparison's links: POST adds one, DELETE revokes one. */
function server(opts: { refuse?: string } = {}) {
  const links: ShareView[] = [existing];
  const f = mockFetch({
    "GET /api/comparisons/c1/shares": () => ({ json: links }),
    "POST /api/comparisons/c1/shares": (call) => {
      if (opts.refuse) return { status: 400, json: { error: opts.refuse } };
      const { expiresAt } = call.body as { expiresAt: string | null };
      links.unshift({ ...existing, id: "s2", runNumber: 4, createdAt: new Date().toISOString(), expiresAt, views: 0, lastViewedAt: null });
      return { status: 201, json: { id: "s2", url: URL_MADE, expiresAt } };
    },
    "DELETE /api/shares/s1": () => {
      links.find((l) => l.id === "s1")!.revoked = true;
      return { status: 204 };
    },
  });
  return f;
}

let restore = () => {};
afterEach(() => restore());

async function openDialog() {
  const r = renderUi(<ShareDialog comparisonId="c1" />);
  const trigger = $().getByRole("button", { name: "Share" });
  trigger.focus();
  fireEvent.click(trigger);
  const dialog = await $().findByRole("dialog", { name: "Share results" });
  await within(dialog).findByTestId("share-links");
  return { r, dialog };
}

describe("Share dialog", () => {
  test("opens from the Share button with focus inside, listing each link: created, by whom, run, expiry, views", async () => {
    const f = server();
    restore = f.restore;
    const { r, dialog } = await openDialog();
    expect(dialog.contains(document.activeElement)).toBe(true);
    const [, row] = within(dialog).getAllByRole("row");
    for (const text of ["2 Jan 2026, 10:00 UTC", "ada@example.com", "#3", "Never", "12"]) expect(row!.textContent).toContain(text);
    expect(within(row!).getByRole("button", { name: "Revoke the link created 2 Jan 2026, 10:00 UTC" })).toBeTruthy();
    // Escape closes it, as every dialog does.
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    await waitFor(() => expect($().queryByRole("dialog")).toBeNull());
    await act(async () => r.unmount());
  });

  test("creates a link that expires after the chosen time, shows it once to copy, and lists it", async () => {
    const f = server();
    restore = f.restore;
    let copied = "";
    Object.defineProperty(navigator, "clipboard", { value: { writeText: async (t: string) => void (copied = t) }, configurable: true });
    const { r, dialog } = await openDialog();
    fireEvent.click(within(dialog).getByRole("radio", { name: "1 day" }));
    const before = Date.now();
    fireEvent.click(within(dialog).getByRole("button", { name: "Create link" }));
    const field = (await within(dialog).findByRole("textbox", { name: "Share link" })) as HTMLInputElement;
    expect(field.value).toBe(URL_MADE);
    expect(field.readOnly).toBe(true);
    const sent = f.calls.find((c) => c.method === "POST")!.body as { expiresAt: string };
    expect(Date.parse(sent.expiresAt) - before).toBeGreaterThanOrEqual(DAY - 1000);
    expect(Date.parse(sent.expiresAt) - before).toBeLessThanOrEqual(DAY + 5000);
    expect(within(dialog).getByTestId("new-share-link").textContent).toContain("won't be shown again");

    fireEvent.click(within(dialog).getByRole("button", { name: "Copy link" }));
    expect(await $().findByText("Link Copied")).toBeTruthy();
    expect(copied).toBe(URL_MADE);
    await waitFor(() => expect(within(dialog).getAllByTestId("share-link-row")).toHaveLength(2));
    expect(within(dialog).getAllByTestId("share-link-row")[0]!.textContent).toContain("#4");

    // Closed and opened again, the link is not shown any more: it was only ever in that answer.
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect($().queryByRole("dialog")).toBeNull());
    fireEvent.click($().getByRole("button", { name: "Share" }));
    const again = await $().findByRole("dialog", { name: "Share results" });
    expect(within(again).queryByRole("textbox", { name: "Share link" })).toBeNull();
    await act(async () => r.unmount());
  });

  test("Never sends no expiry", async () => {
    const f = server();
    restore = f.restore;
    const { r, dialog } = await openDialog();
    fireEvent.click(within(dialog).getByRole("radio", { name: "Never" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Create link" }));
    await within(dialog).findByRole("textbox", { name: "Share link" });
    expect(f.calls.find((c) => c.method === "POST")!.body).toEqual({ expiresAt: null });
    expect(within(dialog).getByTestId("new-share-link").textContent).toContain("until you revoke it");
    await act(async () => r.unmount());
  });

  test("revoking a link marks it revoked", async () => {
    const f = server();
    restore = f.restore;
    const { r, dialog } = await openDialog();
    fireEvent.click(within(dialog).getByRole("button", { name: /^Revoke the link/ }));
    expect(await $().findByText("Link Revoked")).toBeTruthy();
    await waitFor(() => expect(within(dialog).getByText("Revoked")).toBeTruthy());
    expect(f.calls.some((c) => c.method === "DELETE" && c.path === "/api/shares/s1")).toBe(true);
    expect(within(dialog).queryByRole("button", { name: /^Revoke the link/ })).toBeNull();
    await act(async () => r.unmount());
  });

  test("a refused link shows the server's reason", async () => {
    const f = server({ refuse: "This comparison has no completed run to share yet" });
    restore = f.restore;
    const { r, dialog } = await openDialog();
    fireEvent.click(within(dialog).getByRole("button", { name: "Create link" }));
    expect((await within(dialog).findByRole("alert")).textContent).toContain("This comparison has no completed run to share yet");
    expect(within(dialog).queryByRole("textbox", { name: "Share link" })).toBeNull();
    await act(async () => r.unmount());
  });

  test("a viewer's Share is off and says why: share links are an editor's", () => {
    useWorkspaceStore.setState({ current: { id: "w1", name: "Team", role: "viewer", personal: false } });
    try {
      renderUi(<ShareDialog comparisonId="c1" />);
      expect(($().getByRole("button", { name: "Share" }) as HTMLButtonElement).disabled).toBe(true);
      expect($().getByRole("group", { name: VIEWER_REASON })).toBeTruthy();
    } finally {
      useWorkspaceStore.setState({ current: null });
    }
  });
});
