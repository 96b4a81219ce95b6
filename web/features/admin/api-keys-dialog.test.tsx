import "#tests/support/dom";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { AllKeysPage, ApiKeyView, OwnedApiKeyView } from "#server/modules/api-keys/model";
const { act, fireEvent, render, waitFor, within } = await import("@testing-library/react");
const { Theme } = await import("@radix-ui/themes");
const { Toaster, useToasts } = await import("#web/components/ui/toast");
const { ApiKeysDialog } = await import("./components/api-keys-dialog");

const $ = () => within(document.body);
const original = globalThis.fetch;
let calls: { key: string; search: string }[] = [];
let allFails = false;

const REVOKED_AT = "2026-02-01T08:00:00.000Z";
/** The admin's own console key: in both lists. */
const own: OwnedApiKeyView = {
  id: "k-own",
  name: "Console script",
  scope: "run",
  prefix: "di_ownpref",
  createdAt: "2026-01-05T09:00:00.000Z",
  lastUsedAt: null,
  revokedAt: null,
  ownerId: "u-root",
  ownerEmail: "root@example.com",
  workspaceId: "u-root",
  workspaceName: "Personal",
};
const alices: OwnedApiKeyView = {
  id: "k-alice",
  name: "Alice CI",
  scope: "run",
  prefix: "di_alicepr",
  createdAt: "2026-01-02T10:00:00.000Z",
  lastUsedAt: "2026-01-03T11:30:00.000Z",
  revokedAt: null,
  ownerId: "u-alice",
  ownerEmail: "alice@example.com",
  workspaceId: "w-growth",
  workspaceName: "Growth team",
};
const bobs: OwnedApiKeyView = {
  id: "k-bob",
  name: "Bob dashboard",
  scope: "read",
  prefix: "di_bobpref",
  createdAt: "2026-01-01T07:15:00.000Z",
  lastUsedAt: null,
  revokedAt: "2026-01-04T12:00:00.000Z",
  ownerId: "u-bob",
  ownerEmail: "bob@example.com",
  workspaceId: "u-bob",
  workspaceName: "Personal",
};
const view = ({ ownerId: _i, ownerEmail: _e, workspaceId: _w, workspaceName: _n, ...k }: OwnedApiKeyView): ApiKeyView => k;

beforeEach(() => {
  calls = [];
  allFails = false;
  useToasts.setState({ current: null });
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const key = `${(init?.method ?? "GET").toUpperCase()} ${url.pathname}`;
    calls.push({ key, search: url.search });
    const json = (status: number, value: unknown) =>
      new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
    if (key === "GET /api/admin/api-keys") return json(200, { keys: [view(own)] });
    if (key === "GET /api/admin/all-api-keys") {
      if (allFails) return json(500, { error: "Internal server error" });
      const q = url.searchParams.get("q") ?? "";
      const keys = [own, alices, bobs].filter((k) => !q || k.ownerEmail.includes(q) || k.name.includes(q));
      const page: AllKeysPage = { keys, page: Number(url.searchParams.get("page")), pageSize: 20, total: keys.length };
      return json(200, page);
    }
    const revoked = [own, alices].find((k) => key === `DELETE /api/admin/all-api-keys/${k.id}`);
    if (revoked) return json(200, { apiKey: { ...revoked, revokedAt: REVOKED_AT } });
    return json(404, { error: "Not found" });
  }) as typeof fetch;
});
afterEach(async () => {
  globalThis.fetch = original;
  // Let React flush the unmount's passive effects while the DOM still exists.
  await new Promise((r) => setTimeout(r, 20));
});

const mount = () =>
  render(
    <Theme>
      <ApiKeysDialog open onOpenChange={() => {}} />
      <Toaster />
    </Theme>,
  );

/**
 * Radix tabs switch on mouse down (the primary button), as a click in a browser begins. A Radix
 * Themes tab repeats its label in a span the stylesheet hides, hence the name pattern.
 */
async function openAllUsers() {
  await $().findByTestId("api-keys-table");
  act(() => {
    fireEvent.mouseDown($().getByRole("tab", { name: /^All users/ }), { button: 0 });
  });
  return $().findByTestId("all-api-keys-table");
}

const rowOf = (table: HTMLElement, name: string) => within(table).getByText(name).closest("tr")!;

describe("console: every user's API keys", () => {
  test("your keys come first; All users lists every key with owner, workspace, name, scope, created, last used and state", async () => {
    mount();
    const mine = await $().findByTestId("api-keys-table");
    expect(within(mine).getByText("Console script")).toBeTruthy();
    expect(within(mine).queryByText("Owner")).toBeNull();
    expect(calls.some((c) => c.key === "GET /api/admin/all-api-keys")).toBe(false);

    const table = await openAllUsers();
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Owner", "Workspace", "Name", "Scope", "Key", "Created", "Last used", "Status"]);
    const alice = rowOf(table, "Alice CI");
    expect([...alice.querySelectorAll("td, th")].map((c) => c.textContent)).toEqual([
      "alice@example.com",
      "Growth team",
      "Alice CI",
      "Run",
      "di_alicepr…",
      "2 Jan 2026, 10:00 UTC",
      "3 Jan 2026, 11:30 UTC",
      "Revoke",
    ]);
    const bob = rowOf(table, "Bob dashboard");
    expect([...bob.querySelectorAll("td, th")].map((c) => c.textContent)).toEqual([
      "bob@example.com",
      "Personal",
      "Bob dashboard",
      "Read",
      "di_bobpref…",
      "1 Jan 2026, 07:15 UTC",
      "Never",
      "Revoked",
    ]);
    expect(within(bob).queryByRole("button")).toBeNull();
    expect(calls.find((c) => c.key === "GET /api/admin/all-api-keys")?.search).toBe("?page=1&pageSize=20");
    expect($().getByText("Page 1 of 1 · 3 total")).toBeTruthy();
  });

  test("a search asks the server for that owner or name, from page 1", async () => {
    mount();
    const table = await openAllUsers();
    expect(within(table).getAllByRole("row")).toHaveLength(4);
    fireEvent.change($().getByLabelText("Search API keys"), { target: { value: " alice@ " } });
    await waitFor(() => expect(within($().getByTestId("all-api-keys-table")).getAllByRole("row")).toHaveLength(2));
    expect(calls.filter((c) => c.key === "GET /api/admin/all-api-keys").at(-1)?.search).toBe("?page=1&pageSize=20&q=alice%40");
  });

  test("revoking another user's key asks first, then marks it revoked; Cancel changes nothing", async () => {
    mount();
    const table = await openAllUsers();
    fireEvent.click(within(table).getByRole("button", { name: "Revoke Alice CI of alice@example.com" }));
    const ask = await $().findByRole("alertdialog");
    expect(ask.textContent).toContain("Alice CI (alice@example.com) stops working at once");
    fireEvent.click(within(ask).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect($().queryByRole("alertdialog")).toBeNull());
    expect(calls.some((c) => c.key.startsWith("DELETE"))).toBe(false);

    fireEvent.click(within(table).getByRole("button", { name: "Revoke Alice CI of alice@example.com" }));
    fireEvent.click(within(await $().findByRole("alertdialog")).getByRole("button", { name: "Revoke" }));
    await waitFor(() => expect(within(rowOf($().getByTestId("all-api-keys-table"), "Alice CI")).getByText("Revoked")).toBeTruthy());
    expect(calls.filter((c) => c.key.startsWith("DELETE")).map((c) => c.key)).toEqual(["DELETE /api/admin/all-api-keys/k-alice"]);
    expect(await $().findByText("Alice CI (alice@example.com) no longer works.")).toBeTruthy();
  });

  test("revoking the admin's own key there shows it revoked under Your keys too", async () => {
    mount();
    const table = await openAllUsers();
    fireEvent.click(within(table).getByRole("button", { name: "Revoke Console script of root@example.com" }));
    fireEvent.click(within(await $().findByRole("alertdialog")).getByRole("button", { name: "Revoke" }));
    await waitFor(() => expect(within(rowOf($().getByTestId("all-api-keys-table"), "Console script")).getByText("Revoked")).toBeTruthy());
    act(() => {
      fireEvent.mouseDown($().getByRole("tab", { name: /^Your keys/ }), { button: 0 });
    });
    const mine = await $().findByTestId("api-keys-table");
    expect(within(rowOf(mine, "Console script")).getByText("Revoked")).toBeTruthy();
    expect(calls.filter((c) => c.key === "GET /api/admin/api-keys")).toHaveLength(1);
  });

  test("a failed load says so instead of an empty list", async () => {
    allFails = true;
    mount();
    await $().findByTestId("api-keys-table");
    act(() => {
      fireEvent.mouseDown($().getByRole("tab", { name: /^All users/ }), { button: 0 });
    });
    expect(await $().findByText("Internal server error")).toBeTruthy();
    expect($().queryByTestId("all-api-keys-table")).toBeNull();
  });
});
