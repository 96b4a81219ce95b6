// The workspaces the signed-in user belongs to, and the switch between them. The current one lives
// in web/lib/workspace (the API client names it on every call); this keeps the list beside it.
import { create } from "zustand";
import { type CurrentWorkspace, useWorkspaceStore, workspaceGone } from "#web/lib/workspace";
import { chooseWorkspace, createWorkspace, deleteWorkspace, handOverWorkspace, listWorkspaces, renameWorkspace } from "./api";

export type ListState = "loading" | "ready" | "unavailable";

interface WorkspacesState {
  list: CurrentWorkspace[];
  state: ListState;
  /** The account the list belongs to; another account's sign-in loads it again. */
  userId: string | null;
}

export const useWorkspaces = create<WorkspacesState>(() => ({ list: [], state: "loading", userId: null }));

const rememberKey = (userId: string) => `di-workspace:${userId}`;

function remembered(userId: string): string | null {
  try {
    return localStorage.getItem(rememberKey(userId));
  } catch {
    return null;
  }
}

function remember(userId: string, workspaceId: string): void {
  try {
    localStorage.setItem(rememberKey(userId), workspaceId);
  } catch {
    /* private mode: the server still remembers */
  }
}

/**
 * Which workspace to act in, given the list: the current one while still a member (its name or role
 * may have changed), else the one this browser last chose, else the personal one. `adopt` is true
 * when that differs from what calls were using, so the server is told too (the pages it renders and
 * the screenshots fetched with the cookie follow its record).
 */
export function reconcile(
  list: readonly CurrentWorkspace[],
  current: CurrentWorkspace | null,
  rememberedId: string | null,
): { pick: CurrentWorkspace | null; adopt: boolean } {
  const still = current && list.find((w) => w.id === current.id);
  if (still) return { pick: still, adopt: false };
  const pick = list.find((w) => w.id === rememberedId) ?? list.find((w) => w.personal) ?? list[0] ?? null;
  return { pick, adopt: pick !== null };
}

/** Reads the list and settles the current workspace (see `reconcile`). */
export async function loadWorkspaces(userId: string): Promise<void> {
  if (useWorkspaces.getState().userId !== userId) useWorkspaces.setState({ list: [], state: "loading", userId });
  let list: CurrentWorkspace[];
  try {
    list = await listWorkspaces();
  } catch {
    useWorkspaces.setState({ state: "unavailable" });
    return;
  }
  useWorkspaces.setState({ list, state: "ready", userId });
  const ws = useWorkspaceStore.getState();
  const { pick, adopt } = reconcile(list, ws.current, remembered(userId));
  if (!pick) return;
  if (adopt) {
    await chooseWorkspace(pick.id).catch(() => {});
    remember(userId, pick.id);
  }
  ws.set(pick);
}

/** Acts in `workspace` from now on: the server records the choice first, so nothing fetched after it reads the old one. */
export async function switchWorkspace(userId: string, workspace: CurrentWorkspace): Promise<void> {
  const chosen = await chooseWorkspace(workspace.id);
  remember(userId, chosen.id);
  useWorkspaceStore.getState().set(chosen);
}

/** Makes a workspace (you own it) and switches to it. */
export async function createAndSwitch(userId: string, name: string): Promise<CurrentWorkspace> {
  const made = await createWorkspace(name);
  useWorkspaces.setState((s) => ({ list: [...s.list, made] }));
  await switchWorkspace(userId, made);
  return made;
}

/** A workspace joined (an accepted invitation) or left: the list changes. */
export const refreshWorkspaces = (userId: string) => loadWorkspaces(userId);

/** The server's newer record of a workspace (renamed, or your role changed): in the list and, if current, on screen. */
function updated(w: CurrentWorkspace): void {
  useWorkspaces.setState((s) => ({ list: s.list.map((x) => (x.id === w.id ? w : x)) }));
  const ws = useWorkspaceStore.getState();
  if (ws.current?.id === w.id) ws.set(w);
}

/** Renames a workspace you own; the switcher shows the new name at once. */
export async function renameAndShow(id: string, name: string): Promise<CurrentWorkspace> {
  const w = await renameWorkspace(id, name);
  updated(w);
  return w;
}

/** Hands a workspace you own over to a member; you stay on as admin. */
export async function handOverAndShow(id: string, userId: string): Promise<CurrentWorkspace> {
  const w = await handOverWorkspace(id, userId);
  updated(w);
  return w;
}

/**
 * Deletes a team workspace you own, then moves on as when a workspace is gone: it leaves the list,
 * the current one is dropped, and the shell reads the list again and settles on the personal one.
 */
export async function deleteAndMoveOn(id: string): Promise<void> {
  await deleteWorkspace(id);
  useWorkspaces.setState((s) => ({ list: s.list.filter((x) => x.id !== id) }));
  workspaceGone(id);
}
