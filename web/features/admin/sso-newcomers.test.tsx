// The console's SSO newcomers setting: which team workspace, and with which role, first-time SSO
// users join (GET/PUT /api/admin/sso-newcomers).
import "#tests/support/dom";
import { afterEach, describe, expect, test } from "bun:test";
import type { CurrentWorkspace, SsoNewcomersView } from "#server/modules/workspaces/model";
const { fireEvent, waitFor } = await import("@testing-library/react");
const { SsoNewcomersCard } = await import("./components/sso-newcomers-card");
const { $, mockFetch, renderUi } = await import("#tests/support/ui");

let restore = () => {};
afterEach(() => restore());

const MINE: CurrentWorkspace[] = [
  { id: "u-root", name: "Personal", role: "owner", personal: true },
  { id: "w-growth", name: "Growth team", role: "owner", personal: false },
];

function server(start: SsoNewcomersView, refuse = false) {
  return mockFetch({
    "GET /api/admin/sso-newcomers": { json: start },
    "GET /api/workspaces": { json: MINE },
    "PUT /api/admin/sso-newcomers": (c) => {
      if (refuse) return { status: 404, json: { error: "Workspace not found" } };
      const b = c.body as { workspaceId: string | null; role: SsoNewcomersView["role"] };
      return { json: { ...b, workspaceName: MINE.find((w) => w.id === b.workspaceId)?.name ?? null } };
    },
  });
}

async function choose(label: string, option: string) {
  fireEvent.pointerDown($().getByRole("combobox", { name: label }), { button: 0, ctrlKey: false, pointerType: "mouse" });
  fireEvent.click(await $().findByRole("option", { name: option }));
}

describe("console: SSO newcomers", () => {
  test("off at first; choosing a team workspace and a role saves both", async () => {
    const f = server({ workspaceId: null, role: "viewer", workspaceName: null });
    restore = f.restore;
    renderUi(<SsoNewcomersCard />);
    const workspace = await $().findByRole("combobox", { name: "Workspace" });
    expect(workspace.textContent).toBe("None (personal workspace only)");
    expect(($().getByRole("combobox", { name: "Role" }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.pointerDown(workspace, { button: 0, ctrlKey: false, pointerType: "mouse" });
    // Team workspaces only: a personal one is never a choice.
    await waitFor(async () =>
      expect((await $().findAllByRole("option")).map((o) => o.textContent)).toEqual(["None (personal workspace only)", "Growth team"]),
    );
    fireEvent.click($().getByRole("option", { name: "Growth team" }));
    await choose("Role", "Editor");
    fireEvent.click($().getByRole("button", { name: "Save SSO Newcomers" }));
    await waitFor(() => expect(f.calls.find((c) => c.method === "PUT")?.body).toEqual({ workspaceId: "w-growth", role: "editor" }));
    expect(await $().findByText("People signing in through SSO for the first time join Growth team as editor.")).toBeTruthy();
  });

  test("a workspace chosen before shows by name even when the admin is not in it; None turns it off", async () => {
    const f = server({ workspaceId: "w-sales", role: "admin", workspaceName: "Sales" });
    restore = f.restore;
    renderUi(<SsoNewcomersCard />);
    const workspace = await $().findByRole("combobox", { name: "Workspace" });
    await waitFor(() => expect(workspace.textContent).toBe("Sales"));
    expect($().getByRole("combobox", { name: "Role" }).textContent).toBe("Admin");
    await choose("Workspace", "None (personal workspace only)");
    fireEvent.click($().getByRole("button", { name: "Save SSO Newcomers" }));
    await waitFor(() => expect(f.calls.find((c) => c.method === "PUT")?.body).toEqual({ workspaceId: null, role: "admin" }));
    expect(await $().findByText("People signing in through SSO for the first time get only their personal workspace.")).toBeTruthy();
  });

  test("a refusal shows the server's words", async () => {
    const f = server({ workspaceId: null, role: "viewer", workspaceName: null }, true);
    restore = f.restore;
    renderUi(<SsoNewcomersCard />);
    fireEvent.click(await $().findByRole("button", { name: "Save SSO Newcomers" }));
    expect(await $().findByText("Workspace not found")).toBeTruthy();
  });
});
