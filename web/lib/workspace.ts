// The workspace the app acts in. Shared by the API client (which names it in `X-Workspace-Id` on
// every call) and by every feature that offers an action a viewer may not take, so it lives here
// rather than in the workspaces feature (features do not import each other).
import { createContext, useContext } from "react";
import { create } from "zustand";
import type { CurrentWorkspace, WorkspaceRole } from "#server/modules/workspaces/model";

export type { CurrentWorkspace, WorkspaceRole };

/** Why a viewer's write buttons are off; shown beside or over them. */
export const VIEWER_REASON = "Viewers can read results; ask an admin for the editor role";

/** Not from ./loader-context: that imports the API client, which imports this. */
const isServer = typeof window === "undefined";

const RANK: Record<WorkspaceRole, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };
export const hasRole = (role: WorkspaceRole | undefined, needed: WorkspaceRole) => role !== undefined && RANK[role] >= RANK[needed];

interface WorkspaceState {
  /** Null until known: calls then name none and the server uses the one last chosen. */
  current: CurrentWorkspace | null;
  /** Bumped on every switch; pages key their state by it so they fetch again. */
  generation: number;
  set(current: CurrentWorkspace | null): void;
}

/**
 * The server rendered the page in some workspace (the one last chosen) and put it in the router's
 * hydration payload; starting from it keeps the first client render equal to the server's.
 */
function rendered(): CurrentWorkspace | null {
  if (isServer) return null;
  const data = (window as { __staticRouterHydrationData?: { loaderData?: { root?: { workspace?: CurrentWorkspace | null } } } })
    .__staticRouterHydrationData;
  return data?.loaderData?.root?.workspace ?? null;
}

export const useWorkspaceStore = create<WorkspaceState>((set, get) => ({
  current: rendered(),
  generation: 0,
  set: (current) => {
    // From none to one counts too: calls made before named none, and the server may have read another.
    const switched = get().current?.id !== current?.id;
    set({ current, generation: get().generation + (switched ? 1 : 0) });
  },
}));

/**
 * A call naming `id` was told it is not the caller's workspace (they were removed, or it was
 * deleted): later calls name none, so the server answers from the personal workspace, and the
 * shell reads the list again.
 */
export function workspaceGone(id: string): void {
  const s = useWorkspaceStore.getState();
  if (s.current?.id === id) s.set(null);
}

/** The id the API client sends as `X-Workspace-Id`, or null to let the server pick the last chosen. */
export const currentWorkspaceId = (): string | null => useWorkspaceStore.getState().current?.id ?? null;

/**
 * The workspace of this request's server render. The module-level store is shared by concurrent
 * requests on the server, so the render reads the root loader's answer through this context.
 */
export const RenderedWorkspaceContext = createContext<CurrentWorkspace | null>(null);

export function useCurrentWorkspace(): CurrentWorkspace | null {
  const fromRender = useContext(RenderedWorkspaceContext);
  const current = useWorkspaceStore((s) => s.current);
  return isServer ? fromRender : current;
}

/**
 * Whether the current role may create, edit, run, schedule and delete; with the reason when not.
 * Unknown (no workspace yet) counts as allowed: the server still refuses, with its own words.
 */
export function useCanEdit(): { canEdit: boolean; reason: string | null } {
  const role = useCurrentWorkspace()?.role;
  const canEdit = role === undefined || hasRole(role, "editor");
  return { canEdit, reason: canEdit ? null : VIEWER_REASON };
}
