import "#tests/support/dom";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { AuditEntry } from "#server/modules/audit/model";
import type { CurrentWorkspace, MemberView } from "#server/modules/workspaces/model";
const { act, fireEvent, waitFor, within } = await import("@testing-library/react");
const { $, mockFetch, renderUi } = await import("#tests/support/ui");
const { WorkspaceCard } = await import("./components/workspace-card");
const { MembersPanel } = await import("./components/members-panel");
const { AuditPanel } = await import("./components/audit-panel");
const { ALERTS_HINT, ALERTS_LABEL } = await import("./components/alerts-switch");
const { useWorkspaces } = await import("./store");
const { useWorkspaceStore } = await import("#web/lib/workspace");

const TEAM = "w-team";
const PERSONAL: CurrentWorkspace = { id: "u-ada", name: "Personal", role: "owner", personal: true };
const ws = (role: CurrentWorkspace["role"]): CurrentWorkspace => ({ id: TEAM, name: "Growth team", role, personal: false });
const member = (userId: string, role: MemberView["role"], email: string, alerts = true): MemberView => ({
  userId,
  email,
  username: null,
  role,
  alerts,
  joinedAt: "2026-11-02T10:00:00.000Z",
});
const ADA = member("u-ada", "owner", "ada@example.com");
const BEA = member("u-bea", "editor", "bea@example.com");

let restore = () => {};
afterEach(() => restore());
beforeEach(() => {
  useWorkspaces.setState({ list: [PERSONAL, ws("owner")], state: "ready", userId: "u-ada" });
  useWorkspaceStore.getState().set(ws("owner"));
});

function team() {
  return mockFetch({
    [`GET /api/workspaces/${TEAM}/members`]: { json: [ADA, BEA] },
    [`PATCH /api/workspaces/${TEAM}`]: (c) => ({ json: { ...ws("owner"), name: (c.body as { name: string }).name } }),
    [`POST /api/workspaces/${TEAM}/owner`]: { json: ws("admin") },
    [`DELETE /api/workspaces/${TEAM}`]: { status: 204 },
  });
}

describe("Settings → Workspace, for its owner", () => {
  test("renames the workspace: the switcher's list and the current workspace take the new name", async () => {
    const f = team();
    restore = f.restore;
    renderUi(<WorkspaceCard workspace={ws("owner")} userId="u-ada" />);
    const field = $().getByRole("textbox", { name: "Workspace name" }) as HTMLInputElement;
    expect(field.value).toBe("Growth team");
    const rename = $().getByRole("button", { name: "Rename" }) as HTMLButtonElement;
    expect(rename.disabled).toBe(true);
    fireEvent.change(field, { target: { value: "  Growth squad " } });
    fireEvent.click(rename);
    await waitFor(() => expect(useWorkspaceStore.getState().current?.name).toBe("Growth squad"));
    expect(f.calls.find((c) => c.method === "PATCH")).toMatchObject({ path: `/api/workspaces/${TEAM}`, body: { name: "Growth squad" } });
    expect(useWorkspaces.getState().list.map((w) => w.name)).toEqual(["Personal", "Growth squad"]);
  });

  test("hands over to a member after asking; you stay on as admin", async () => {
    const f = team();
    restore = f.restore;
    renderUi(<WorkspaceCard workspace={ws("owner")} userId="u-ada" />);
    const pick = await $().findByRole("combobox", { name: "New owner" });
    fireEvent.pointerDown(pick, { button: 0, ctrlKey: false, pointerType: "mouse" });
    // Yourself is not a choice.
    expect((await $().findAllByRole("option")).map((o) => o.textContent)).toEqual(["bea@example.com"]);
    fireEvent.click($().getByRole("option", { name: "bea@example.com" }));
    fireEvent.click($().getByRole("button", { name: "Hand over" }));
    const ask = await $().findByRole("alertdialog", { name: "Hand Growth team over to bea@example.com?" });
    fireEvent.click(within(ask).getByRole("button", { name: "Hand over" }));
    await waitFor(() => expect(useWorkspaceStore.getState().current?.role).toBe("admin"));
    expect(f.calls.find((c) => c.method === "POST")).toMatchObject({ path: `/api/workspaces/${TEAM}/owner`, body: { userId: "u-bea" } });
  });

  test("deletes after a confirmation naming the workspace, then drops it as the switcher does with a gone one", async () => {
    const f = team();
    restore = f.restore;
    renderUi(<WorkspaceCard workspace={ws("owner")} userId="u-ada" />);
    fireEvent.click($().getByRole("button", { name: "Delete workspace" }));
    const ask = await $().findByRole("alertdialog", { name: "Delete Growth team?" });
    expect(ask.textContent).toContain("Everything in Growth team is deleted");
    fireEvent.click(within(ask).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect($().queryByRole("alertdialog")).toBeNull());
    expect(f.calls.some((c) => c.method === "DELETE")).toBe(false);

    fireEvent.click($().getByRole("button", { name: "Delete workspace" }));
    fireEvent.click(within(await $().findByRole("alertdialog")).getByRole("button", { name: "Delete workspace" }));
    await waitFor(() => expect(useWorkspaceStore.getState().current).toBeNull());
    expect(f.calls.some((c) => c.method === "DELETE" && c.path === `/api/workspaces/${TEAM}`)).toBe(true);
    expect(useWorkspaces.getState().list.map((w) => w.id)).toEqual(["u-ada"]);
  });

  test("an admin (not the owner) reads the name and gets no owner controls", async () => {
    const f = team();
    restore = f.restore;
    renderUi(<WorkspaceCard workspace={ws("admin")} userId="u-bea" />);
    expect($().getByTestId("workspace-card").textContent).toContain("Growth team");
    expect($().queryByRole("textbox")).toBeNull();
    expect($().queryByTestId("owner-controls")).toBeNull();
    expect($().queryByRole("button")).toBeNull();
  });

  test("a rename the server refuses keeps the old name and shows its words", async () => {
    const f = mockFetch({
      [`GET /api/workspaces/${TEAM}/members`]: { json: [ADA] },
      [`PATCH /api/workspaces/${TEAM}`]: { status: 400, json: { error: "name is too long" } },
    });
    restore = f.restore;
    renderUi(<WorkspaceCard workspace={ws("owner")} userId="u-ada" />);
    fireEvent.change($().getByRole("textbox", { name: "Workspace name" }), { target: { value: "Other" } });
    fireEvent.click($().getByRole("button", { name: "Rename" }));
    expect(await $().findByText("name is too long")).toBeTruthy();
    expect(useWorkspaceStore.getState().current?.name).toBe("Growth team");
    // Nobody else to hand over to: it says so.
    expect($().getByText("Invite someone first: only a member can take it over.")).toBeTruthy();
  });
});

describe("your alerts opt-in", () => {
  test("a team workspace: the switch is on your own member row only, and sends your own id", async () => {
    const f = mockFetch({
      [`GET /api/workspaces/${TEAM}/members`]: { json: [ADA, BEA] },
      [`PATCH /api/workspaces/${TEAM}/members/u-bea`]: (c) => ({ json: { ...BEA, ...(c.body as object) } }),
    });
    restore = f.restore;
    renderUi(<MembersPanel workspace={ws("editor")} userId="u-bea" onLeft={() => {}} />);
    const mine = await $().findByRole("row", { name: "bea@example.com" });
    expect(within($().getByRole("row", { name: "ada@example.com" })).queryByRole("switch")).toBeNull();
    const toggle = within(mine).getByRole("switch", { name: ALERTS_LABEL });
    expect(toggle.getAttribute("aria-checked")).toBe("true");
    expect(mine.textContent).toContain(ALERTS_HINT);
    expect(ALERTS_HINT).toContain("members");
    expect(ALERTS_HINT).toContain("digest");
    fireEvent.click(toggle);
    await waitFor(() => expect(within(mine).getByRole("switch").getAttribute("aria-checked")).toBe("false"));
    expect(f.calls.find((c) => c.method === "PATCH")).toMatchObject({
      path: `/api/workspaces/${TEAM}/members/u-bea`,
      body: { alerts: false },
    });
  });

  test("a personal workspace: the switch is in the Workspace card", async () => {
    const f = mockFetch({
      "GET /api/workspaces/u-ada/members": { json: [{ ...ADA, alerts: false }] },
      "PATCH /api/workspaces/u-ada/members/u-ada": (c) => ({ json: { ...ADA, ...(c.body as object) } }),
    });
    restore = f.restore;
    renderUi(<WorkspaceCard workspace={PERSONAL} userId="u-ada" />);
    const toggle = await $().findByRole("switch", { name: ALERTS_LABEL });
    expect(toggle.getAttribute("aria-checked")).toBe("false");
    // Personal: no owner screens (rename, hand over, delete are for team workspaces here).
    expect($().queryByTestId("owner-controls")).toBeNull();
    fireEvent.click(toggle);
    await waitFor(() => expect($().getByRole("switch").getAttribute("aria-checked")).toBe("true"));
    expect(f.calls.find((c) => c.method === "PATCH")?.body).toEqual({ alerts: true });
  });

  test("a refusal leaves the switch as it was", async () => {
    const f = mockFetch({
      "GET /api/workspaces/u-ada/members": { json: [ADA] },
      "PATCH /api/workspaces/u-ada/members/u-ada": { status: 503, json: { error: "Database unavailable" } },
    });
    restore = f.restore;
    renderUi(<WorkspaceCard workspace={PERSONAL} userId="u-ada" />);
    fireEvent.click(await $().findByRole("switch", { name: ALERTS_LABEL }));
    expect(await $().findByText("Database unavailable")).toBeTruthy();
    expect($().getByRole("switch").getAttribute("aria-checked")).toBe("true");
  });
});

describe("Settings → Audit", () => {
  const entry = (id: number, action: string, target: string | null): AuditEntry => ({
    id,
    actorId: "u-ada",
    actorEmail: "ada@example.com",
    action,
    target,
    ip: "127.0.0.1",
    userAgent: null,
    details: null,
    createdAt: "2026-11-20T09:00:00.000Z",
  });

  test("a table of when, who, action and target, paged as the server pages", async () => {
    const f = mockFetch({
      [`GET /api/workspaces/${TEAM}/audit`]: (c) => {
        const page = Number(new URL(c.path, "http://x").searchParams.get("page"));
        return {
          json:
            page === 1
              ? { entries: [entry(3, "member.invited", "i-1"), entry(2, "run.started", "run-9")], page: 1, pageSize: 20, total: 21 }
              : { entries: [entry(1, "workspace.created", TEAM)], page: 2, pageSize: 20, total: 21 },
        };
      },
    });
    restore = f.restore;
    renderUi(<AuditPanel workspace={ws("admin")} />);
    const table = await $().findByTestId("audit-table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["When", "Who", "Action", "Target"]);
    const first = within(table).getAllByTestId("audit-row")[0]!;
    expect([...first.querySelectorAll("td")].map((c) => c.textContent)).toEqual([
      "20 Nov 2026, 09:00 UTC",
      "ada@example.com",
      "Member invited",
      "i-1",
    ]);
    expect(f.calls[0]?.path).toBe(`/api/workspaces/${TEAM}/audit?page=1&pageSize=20`);
    expect($().getByText("Page 1 of 2 · 21 total")).toBeTruthy();
    expect(($().getByRole("button", { name: "Previous" }) as HTMLButtonElement).disabled).toBe(true);
    act(() => {
      fireEvent.click($().getByRole("button", { name: "Next" }));
    });
    await waitFor(() => expect($().getByText("Workspace created")).toBeTruthy());
    expect(f.calls.at(-1)?.path).toBe(`/api/workspaces/${TEAM}/audit?page=2&pageSize=20`);
    expect(($().getByRole("button", { name: "Next" }) as HTMLButtonElement).disabled).toBe(true);
  });

  test("nothing yet, and a failed load, each say so", async () => {
    let fail = true;
    const f = mockFetch({
      [`GET /api/workspaces/${TEAM}/audit`]: () =>
        fail ? { status: 500, json: { error: "Internal server error" } } : { json: { entries: [], page: 1, pageSize: 20, total: 0 } },
    });
    restore = f.restore;
    renderUi(<AuditPanel workspace={ws("owner")} />);
    expect(await $().findByText("Couldn't load the audit.")).toBeTruthy();
    fail = false;
    fireEvent.click($().getByRole("button", { name: "Try again" }));
    expect(await $().findByText("Nothing recorded yet.")).toBeTruthy();
  });
});
