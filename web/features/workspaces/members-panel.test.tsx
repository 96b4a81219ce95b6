import "#tests/support/dom";
import { afterEach, describe, expect, mock, test } from "bun:test";
import type { CurrentWorkspace, InvitationView, MemberView } from "#server/modules/workspaces/model";
const { fireEvent, waitFor, within } = await import("@testing-library/react");
const { $, mockFetch, renderUi } = await import("#tests/support/ui");
const { MembersPanel } = await import("./components/members-panel");
const { InvitationsPanel } = await import("./components/invitations-panel");

const TEAM = "w-team";
const ws = (role: CurrentWorkspace["role"]): CurrentWorkspace => ({ id: TEAM, name: "Growth team", role, personal: false });
const member = (userId: string, role: MemberView["role"], email: string): MemberView => ({
  userId,
  email,
  username: null,
  role,
  alerts: false,
  joinedAt: "2026-11-02T10:00:00.000Z",
});
const ADA = member("u-ada", "owner", "ada@example.com");
const BEA = member("u-bea", "admin", "bea@example.com");
const CY = member("u-cy", "editor", "cy@example.com");
const DEE = member("u-dee", "viewer", "dee@example.com");

function server() {
  const members = [ADA, BEA, CY, DEE].map((m) => ({ ...m }));
  return mockFetch({
    [`GET /api/workspaces/${TEAM}/members`]: () => ({ json: members }),
    [`PATCH /api/workspaces/${TEAM}/members/u-cy`]: (c) => ({ json: { ...CY, role: (c.body as { role: string }).role } }),
    [`DELETE /api/workspaces/${TEAM}/members/u-cy`]: { status: 204 },
    [`DELETE /api/workspaces/${TEAM}/members/u-dee`]: { status: 204 },
    [`DELETE /api/workspaces/${TEAM}/members/u-ada`]: {
      status: 409,
      json: { error: "A workspace needs an owner: make another member owner first (or delete the workspace)" },
    },
  });
}

const row = (name: string) => $().getByRole("row", { name });
let restore = () => {};
afterEach(() => restore());

describe("Settings → Members", () => {
  test("an admin changes an editor's role and removes them; an owner's row offers nothing, and Owner is not a choice", async () => {
    const f = server();
    restore = f.restore;
    renderUi(<MembersPanel workspace={ws("admin")} userId="u-bea" onLeft={() => {}} />);
    await $().findByRole("row", { name: "cy@example.com" });
    expect(within(row("ada@example.com")).queryByRole("combobox") === null).toBe(true);
    expect(within(row("ada@example.com")).queryByRole("button") === null).toBe(true);
    expect(within(row("ada@example.com")).getByText("Owner")).toBeTruthy();
    // Your own row: Leave, not a role select.
    expect(within(row("bea@example.com")).getByRole("button", { name: "Leave" })).toBeTruthy();

    const select = within(row("cy@example.com")).getByRole("combobox", { name: "Role of cy@example.com: Editor" });
    fireEvent.pointerDown(select, { button: 0, ctrlKey: false, pointerType: "mouse" });
    const options = (await $().findAllByRole("option")).map((o) => o.textContent);
    expect(options).toEqual(["Viewer", "Editor", "Admin"]);
    fireEvent.click($().getByRole("option", { name: "Viewer" }));
    await waitFor(() => expect(f.calls.find((c) => c.method === "PATCH")?.body).toEqual({ role: "viewer" }));
    expect(f.calls.find((c) => c.method === "PATCH")?.workspace).toBeUndefined();

    fireEvent.click(within(row("cy@example.com")).getByRole("button", { name: "Remove cy@example.com" }));
    const confirm = await $().findByRole("alertdialog");
    expect(confirm.textContent).toContain("their API keys for this workspace stop working");
    fireEvent.click(within(confirm).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect($().queryByRole("row", { name: "cy@example.com" }) === null).toBe(true));
    expect(f.calls.some((c) => c.method === "DELETE" && c.path === `/api/workspaces/${TEAM}/members/u-cy`)).toBe(true);
  });

  test("an owner may make owners", async () => {
    const f = server();
    restore = f.restore;
    renderUi(<MembersPanel workspace={ws("owner")} userId="u-ada" onLeft={() => {}} />);
    const select = within(await $().findByRole("row", { name: "bea@example.com" })).getByRole("combobox", {
      name: "Role of bea@example.com: Admin",
    });
    // The only owner cannot leave: the button says why it is off.
    const leave = within(row("ada@example.com")).getByRole("button", { name: "Leave" }) as HTMLButtonElement;
    expect(leave.disabled).toBe(true);
    expect(leave.title).toBe("Make another member owner first");
    fireEvent.pointerDown(select, { button: 0, ctrlKey: false, pointerType: "mouse" });
    expect((await $().findAllByRole("option")).map((o) => o.textContent)).toEqual(["Viewer", "Editor", "Admin", "Owner"]);
  });

  test("a viewer sees the list read-only and may leave", async () => {
    const f = server();
    restore = f.restore;
    const onLeft = mock(() => {});
    renderUi(<MembersPanel workspace={ws("viewer")} userId="u-dee" onLeft={onLeft} />);
    await $().findByRole("row", { name: "cy@example.com" });
    expect($().queryAllByRole("combobox")).toHaveLength(0);
    expect($().queryAllByRole("button", { name: /^Remove/ })).toHaveLength(0);
    expect($().getByTestId("members-panel").textContent).toContain("Your role is viewer: ask an admin to change roles.");
    fireEvent.click(within(row("dee@example.com")).getByRole("button", { name: "Leave" }));
    const confirm = await $().findByRole("alertdialog", { name: "Leave Growth team?" });
    fireEvent.click(within(confirm).getByRole("button", { name: "Leave" }));
    await waitFor(() => expect(onLeft).toHaveBeenCalledTimes(1));
    expect(f.calls.some((c) => c.method === "DELETE" && c.path === `/api/workspaces/${TEAM}/members/u-dee`)).toBe(true);
  });

  test("a refusal shows the server's words", async () => {
    const f = mockFetch({
      [`GET /api/workspaces/${TEAM}/members`]: { json: [ADA, BEA, CY] },
      [`DELETE /api/workspaces/${TEAM}/members/u-cy`]: {
        status: 403,
        json: { error: "Your role in this workspace is editor; this needs admin" },
      },
    });
    restore = f.restore;
    renderUi(<MembersPanel workspace={ws("admin")} userId="u-bea" onLeft={() => {}} />);
    fireEvent.click(within(await $().findByRole("row", { name: "cy@example.com" })).getByRole("button", { name: "Remove cy@example.com" }));
    fireEvent.click(within(await $().findByRole("alertdialog")).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect($().getByText("Your role in this workspace is editor; this needs admin")).toBeTruthy());
    expect($().getByRole("row", { name: "cy@example.com" })).toBeTruthy();
  });
});

describe("Settings → Invitations", () => {
  const open: InvitationView = {
    id: "i1",
    role: "editor",
    email: "eve@example.com",
    state: "pending",
    createdAt: "2026-11-20T09:00:00.000Z",
    createdBy: { id: "u-ada", email: "ada@example.com" },
    expiresAt: "2026-11-27T09:00:00.000Z",
    acceptedAt: null,
    acceptedBy: null,
  };
  const URL_MADE = "http://localhost/invite/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

  function invitations() {
    const list: InvitationView[] = [open];
    return mockFetch({
      [`GET /api/workspaces/${TEAM}/invitations`]: () => ({ json: list }),
      [`POST /api/workspaces/${TEAM}/invitations`]: (c) => {
        const body = c.body as { role: InvitationView["role"]; email?: string };
        list.unshift({ ...open, id: "i2", role: body.role, email: body.email ?? null });
        return { status: 201, json: { id: "i2", url: URL_MADE, role: body.role, expiresAt: open.expiresAt, emailed: false } };
      },
      "DELETE /api/invitations/i1": { status: 204 },
    });
  }

  test("creates a link for a role (optional e-mail left out), shows it once to copy, lists it; revokes an open one", async () => {
    const f = invitations();
    restore = f.restore;
    let copied = "";
    Object.defineProperty(navigator, "clipboard", { value: { writeText: async (t: string) => void (copied = t) }, configurable: true });
    renderUi(<InvitationsPanel workspace={ws("admin")} />);
    await $().findByRole("region", { name: "Invitations" });
    expect($().getByRole("combobox", { name: "Role: Viewer" }).textContent).toBe("Viewer");
    fireEvent.click($().getByRole("button", { name: "Create invitation link" }));
    const link = await $().findByTestId("invitation-link");
    expect(f.calls.find((c) => c.method === "POST")?.body).toEqual({ role: "viewer" });
    expect(within(link).getByLabelText("Invitation link").textContent).toBe(URL_MADE);
    fireEvent.click(within(link).getByRole("button", { name: "Copy link" }));
    await waitFor(() => expect(copied).toBe(URL_MADE));
    await waitFor(() => expect($().getAllByTestId("invitation-row")).toHaveLength(2));

    const revoke = $().getByRole("button", { name: /^Revoke the invitation for eve@example.com/ });
    fireEvent.click(revoke);
    await waitFor(() => expect($().queryByRole("button", { name: /^Revoke the invitation for eve@example.com/ }) === null).toBe(true));
    expect(f.calls.some((c) => c.method === "DELETE" && c.path === "/api/invitations/i1")).toBe(true);
  });

  test("an e-mail address goes with the invitation", async () => {
    const f = invitations();
    restore = f.restore;
    renderUi(<InvitationsPanel workspace={ws("owner")} />);
    await $().findByRole("region", { name: "Invitations" });
    fireEvent.change($().getByLabelText("Email (optional)"), { target: { value: " fay@example.com " } });
    fireEvent.click($().getByRole("button", { name: "Create invitation link" }));
    await $().findByTestId("invitation-link");
    expect(f.calls.find((c) => c.method === "POST")?.body).toEqual({ role: "viewer", email: "fay@example.com" });
  });
});
