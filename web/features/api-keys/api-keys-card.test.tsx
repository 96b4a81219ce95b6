import "#tests/support/dom";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { ApiKeyView } from "#server/modules/api-keys/model";
const { fireEvent, render, waitFor, within } = await import("@testing-library/react");
const { Theme } = await import("@radix-ui/themes");
const { ApiKeysCard } = await import("./components/api-keys-card");

const $ = () => within(document.body);
const original = globalThis.fetch;
let calls: { key: string; body: unknown }[] = [];
let stored: ApiKeyView[] = [];

const existing: ApiKeyView = {
  id: "k1",
  name: "Dashboard",
  scope: "read",
  prefix: "di_abcdefg",
  createdAt: "2026-01-02T10:00:00.000Z",
  lastUsedAt: "2026-01-03T11:30:00.000Z",
  revokedAt: null,
};

beforeEach(() => {
  calls = [];
  stored = [existing];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const key = `${(init?.method ?? "GET").toUpperCase()} ${url.pathname}`;
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    calls.push({ key, body });
    const json = (status: number, value: unknown) =>
      new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
    if (key === "GET /api/api-keys") return json(200, { keys: stored });
    if (key === "POST /api/api-keys") {
      if (body.name === "taken") return json(409, { error: "You already have 50 API keys; revoke one first" });
      return json(201, {
        id: "k2",
        name: body.name,
        scope: body.scope,
        key: "di_freshKeyValue0123456789",
        createdAt: "2026-01-04T09:00:00.000Z",
      });
    }
    if (key === "DELETE /api/api-keys/k1") return json(200, { apiKey: { ...existing, revokedAt: "2026-01-05T00:00:00.000Z" } });
    return json(404, { error: "Not found" });
  }) as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = original;
});

const mount = () =>
  render(
    <Theme>
      <ApiKeysCard />
    </Theme>,
  );

describe("Settings: API keys", () => {
  test("lists the caller's keys with scope and last use", async () => {
    mount();
    const table = await $().findByTestId("my-api-keys");
    expect(within(table).getByText("Dashboard")).toBeTruthy();
    expect(within(table).getByText("Read")).toBeTruthy();
    expect(within(table).getByText("3 Jan 2026, 11:30 UTC")).toBeTruthy();
  });

  test("creates a run key, shows it once, adds it to the list; revoking marks it revoked", async () => {
    mount();
    await $().findByTestId("my-api-keys");
    fireEvent.change($().getByLabelText("Key name"), { target: { value: "  CI  " } });
    fireEvent.click($().getByRole("radio", { name: /Run/ }));
    fireEvent.click($().getByRole("button", { name: "Create API Key" }));
    const shown = await $().findByTestId("new-api-key-value");
    expect(shown.textContent).toBe("di_freshKeyValue0123456789");
    expect(calls.find((c) => c.key === "POST /api/api-keys")?.body).toEqual({ name: "CI", scope: "run" });
    const rows = within($().getByTestId("my-api-keys")).getAllByRole("row");
    expect(rows[1]!.textContent).toContain("CI");
    expect(rows[1]!.textContent).toContain("Run");
    expect(rows[1]!.textContent).toContain("Never");

    fireEvent.click($().getByRole("button", { name: "Revoke Dashboard" }));
    await waitFor(() => expect(within($().getByTestId("my-api-keys")).getByText("Revoked")).toBeTruthy());
    expect(calls.some((c) => c.key === "DELETE /api/api-keys/k1")).toBe(true);
  });

  test("the default scope is read; an empty list says so", async () => {
    stored = [];
    mount();
    expect(await $().findByText("You have no API keys yet.")).toBeTruthy();
    fireEvent.change($().getByLabelText("Key name"), { target: { value: "reader" } });
    fireEvent.click($().getByRole("button", { name: "Create API Key" }));
    await $().findByTestId("new-api-key-value");
    expect(calls.find((c) => c.key === "POST /api/api-keys")?.body).toEqual({ name: "reader", scope: "read" });
  });
});
