// The workspaces the signed-in user belongs to, and the switch between them. The current one lives
// in web/lib/workspace (the API client names it on every call); this keeps the list beside it.
import { create } from "zustand";
import { type CurrentWorkspace, useWorkspaceStore } from "#web/lib/workspace";
import { chooseWorkspace, createWorkspace, listWorkspaces } from "./api";

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
