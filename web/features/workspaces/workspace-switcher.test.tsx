import "#tests/support/dom";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { CurrentWorkspace } from "#server/modules/workspaces/model";
const { act, fireEvent, waitFor, within } = await import("@testing-library/react");
const { $, mockFetch, renderUi } = await import("#tests/support/ui");
const { api, call } = await import("#web/lib/api");
const { useCurrentWorkspace, useWorkspaceStore } = await import("#web/lib/workspace");
const { WorkspaceSwitcher } = await import("./components/workspace-switcher");
const { createAndSwitch, loadWorkspaces, reconcile, switchWorkspace, useWorkspaces } = await import("./store");

const personal: CurrentWorkspace = { id: "u1", name: "Ada", role: "owner", personal: true };
const team: CurrentWorkspace = { id: "w-team", name: "Growth team", role: "viewer", personal: false };
const other: CurrentWorkspace = { id: "w-other", name: "Brand", role: "editor", personal: false };

/** A server that knows Ada's workspaces and records the one she chose last. */
function server(list: CurrentWorkspace[] = [personal, team]) {
  const state = { chosen: null as string | null, list: [...list] };
  const f = mockFetch({
    "GET /api/workspaces": () => ({ json: state.list }),
    "PUT /api/me/workspace": (c) => {
      const id = (c.body as { id: string }).id;
      const w = state.list.find((x) => x.id === id);
      if (!w) return { status: 404, json: { error: "Workspace not found" } };
      state.chosen = id;
      return { json: w };
    },
    "POST /api/workspaces": (c) => {
      const made: CurrentWorkspace = { id: "w-new", name: (c.body as { name: string }).name, role: "owner", personal: false };
      state.list.push(made);
      return { status: 201, json: made };
    },
    "GET /api/comparisons": () => ({ json: [] }),
  });
  return { ...f, state };
}

/** The switcher as the shell wires it: the shared current workspace, the list, switch and create. */
function Wired() {
  const current = useCurrentWorkspace();
  const list = useWorkspaces((s) => s.list);
  const state = useWorkspaces((s) => s.state);
  return (
    <WorkspaceSwitcher
      current={current}
      list={list}
      state={state}
      onSwitch={(w) => switchWorkspace("u1", w)}
      onCreate={async (name) => void (await createAndSwitch("u1", name))}
    />
  );
}

const trigger = () => $().getByRole("button", { name: /Switch workspace/ });
async function openMenu() {
  const t = trigger();
  t.focus();
  fireEvent.keyDown(t, { key: "Enter" });
  return $().findByRole("menu");
}

let restore = () => {};
beforeEach(() => {
  localStorage.clear();
  useWorkspaceStore.setState({ current: null, generation: 0 });
  useWorkspaces.setState({ list: [], state: "loading", userId: null });
});
afterEach(() => restore());

describe("workspace switcher", () => {
  test("shows the current workspace and role; the menu lists every workspace with its role", async () => {
    const s = server();
    restore = s.restore;
    useWorkspaceStore.getState().set(personal);
    const r = renderUi(<Wired />);
    await act(() => loadWorkspaces("u1"));
    expect(trigger().textContent).toBe("Switch workspace: AAda, Just you");
    const menu = await openMenu();
    const items = within(menu).getAllByRole("menuitemradio");
    expect(items.map((i) => i.textContent)).toEqual(["Ada (personal), Owner", "Growth team, Viewer"]);
    expect(items[0]!.getAttribute("aria-checked")).toBe("true");
    expect(within(menu).getByRole("menuitem", { name: /New workspace/ })).toBeTruthy();
    // The current one was the server's already: nothing was re-chosen.
    expect(s.calls.some((c) => c.method === "PUT")).toBe(false);
    await act(async () => r.router.dispose());
  });

  test("choosing another is remembered by the server first, then every call names it in X-Workspace-Id", async () => {
    const s = server();
    restore = s.restore;
    useWorkspaceStore.getState().set(personal);
    renderUi(<Wired />);
    await act(() => loadWorkspaces("u1"));
    const before = useWorkspaceStore.getState().generation;
    const menu = await openMenu();
    fireEvent.click(within(menu).getByRole("menuitemradio", { name: /^Growth team/ }));
    await waitFor(() => expect(trigger().textContent).toBe("Switch workspace: GGrowth team, Team · Viewer"));
    expect(s.state.chosen).toBe("w-team");
    const put = s.calls.find((c) => c.method === "PUT")!;
    expect(put).toMatchObject({ path: "/api/me/workspace", body: { id: "w-team" }, workspace: "u1" });
    // Pages key their state by the switch count, so they fetch again.
    expect(useWorkspaceStore.getState().generation).toBe(before + 1);
    await call(api.comparisons.get());
    expect(s.calls.at(-1)).toMatchObject({ path: "/api/comparisons", workspace: "w-team" });
    // This browser remembers it too (a client-side sign-in starts from it).
    expect(localStorage.getItem("di-workspace:u1")).toBe("w-team");
  });

  test("New workspace makes one from its name and switches to it", async () => {
    const s = server();
    restore = s.restore;
    useWorkspaceStore.getState().set(personal);
    renderUi(<Wired />);
    await act(() => loadWorkspaces("u1"));
    const menu = await openMenu();
    fireEvent.click(within(menu).getByRole("menuitem", { name: /New workspace/ }));
    const dialog = await $().findByRole("dialog", { name: "New workspace" });
    const create = within(dialog).getByRole("button", { name: "Create workspace" }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    fireEvent.change(within(dialog).getByRole("textbox", { name: "Name" }), { target: { value: "  Design crew " } });
    fireEvent.click(create);
    await waitFor(() => expect(s.calls.map((c) => `${c.method} ${c.path}`)).toContain("PUT /api/me/workspace"));
    await waitFor(() => expect($().queryByRole("dialog") === null).toBe(true));
    expect(s.calls.find((c) => c.method === "POST")?.body).toEqual({ name: "Design crew" });
    expect(s.state.chosen).toBe("w-new");
    expect(trigger().textContent).toBe("Switch workspace: DDesign crew, Team · Owner");
  });

  test("a refused creation keeps the dialog open with the server's words", async () => {
    const f = mockFetch({ "POST /api/workspaces": { status: 400, json: { error: "name must be at most 80 characters" } } });
    restore = f.restore;
    useWorkspaceStore.getState().set(personal);
    useWorkspaces.setState({ list: [personal], state: "ready", userId: "u1" });
    renderUi(<Wired />);
    fireEvent.click(within(await openMenu()).getByRole("menuitem", { name: /New workspace/ }));
    const dialog = await $().findByRole("dialog", { name: "New workspace" });
    fireEvent.change(within(dialog).getByRole("textbox", { name: "Name" }), { target: { value: "x" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create workspace" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("name must be at most 80 characters");
  });
});

describe("which workspace the app acts in", () => {
  test("the current one while still a member (its role as it is now), else this browser's last choice, else the personal one", () => {
    expect(reconcile([personal, { ...team, role: "editor" }], team, null)).toEqual({ pick: { ...team, role: "editor" }, adopt: false });
    expect(reconcile([personal, team, other], null, "w-other")).toEqual({ pick: other, adopt: true });
    expect(reconcile([team, personal], null, "gone")).toEqual({ pick: personal, adopt: true });
    // Removed from the current one: back to the personal one.
    expect(reconcile([personal], team, "w-team")).toEqual({ pick: personal, adopt: true });
  });

  test("after a client-side sign-in (none known), the remembered choice is adopted and the server told", async () => {
    const s = server([personal, team]);
    restore = s.restore;
    localStorage.setItem("di-workspace:u1", "w-team");
    await loadWorkspaces("u1");
    expect(useWorkspaceStore.getState().current).toEqual(team);
    expect(s.state.chosen).toBe("w-team");
  });

  test("removed from the current workspace: the list moves the app to the personal one", async () => {
    const s = server([personal]);
    restore = s.restore;
    useWorkspaceStore.getState().set(team);
    await loadWorkspaces("u1");
    expect(useWorkspaceStore.getState().current).toEqual(personal);
    expect(s.state.chosen).toBe("u1");
  });

  test("a call told the workspace is not the caller's any more stops naming it", async () => {
    const f = mockFetch({
      "GET /api/comparisons": (c) => (c.workspace === "w-team" ? { status: 404, json: { error: "Workspace not found" } } : { json: [] }),
    });
    restore = f.restore;
    useWorkspaceStore.getState().set(team);
    const before = useWorkspaceStore.getState().generation;
    await expect(call(api.comparisons.get())).rejects.toThrow("404");
    expect(useWorkspaceStore.getState().current).toBe(null);
    expect(useWorkspaceStore.getState().generation).toBe(before + 1);
    await call(api.comparisons.get());
    expect(f.calls.at(-1)?.workspace).toBeUndefined();
  });
});
