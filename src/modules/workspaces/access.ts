import { changeStamp, StampedCache } from "#server/db/change-stamp";
import type { SqlDb } from "#server/db/sql";
import type { CurrentWorkspace } from "./model";
import { workspaceAccessRepository } from "./repository";

const MAX_ID_LENGTH = 64;

/** Who is asking: the user, and the workspace their API key is bound to when they came with one. */
export interface Principal {
  userId: string;
  keyWorkspaceId: string | null;
}

/**
 * The current workspace of a request: an API key's own; else the one the request names
 * (`X-Workspace-Id`); else the one the user last chose, while they are still a member; else their
 * personal workspace (which shares their id). Null when the named workspace is not one of theirs,
 * which callers answer as 404, as for any other row that is not theirs. It runs on every request
 * that reads or writes workspace data, so its answers are cached until the next write.
 */
export function workspaceAccess(db: SqlDb) {
  const repo = workspaceAccessRepository(db);
  // Kept until the next write anywhere in the database (a role change, a removal or a new choice
  // is one), as the auth service keeps the user behind each request.
  const resolved = new StampedCache<Promise<CurrentWorkspace | null>>(changeStamp(db), 10_000);
  const resolve = async (who: Principal, requested: string | null): Promise<CurrentWorkspace | null> => {
    if (who.keyWorkspaceId) {
      if (requested && requested !== who.keyWorkspaceId) return null;
      return repo.membership(who.keyWorkspaceId, who.userId);
    }
    if (requested) return repo.membership(requested, who.userId);
    const last = await repo.lastChosen(who.userId);
    return (last && (await repo.membership(last, who.userId))) || repo.membership(who.userId, who.userId);
  };
  return {
    // Not an async function: the cached promise itself is handed back, with no wrapper to settle.
    current(who: Principal, requested: string | null): Promise<CurrentWorkspace | null> {
      // Ids are UUIDs: anything much longer names no workspace, and is kept out of the cache's keys.
      if (requested && requested.length > MAX_ID_LENGTH) return Promise.resolve(null);
      return resolved.load(`${who.userId} ${who.keyWorkspaceId ?? ""} ${requested ?? ""}`, () => resolve(who, requested));
    },

    /** The user ids of the workspace's members: who hears its live messages (src/live/hub.ts). */
    members: (workspaceId: string): Promise<string[]> => repo.memberIds(workspaceId),
  };
}

export type WorkspaceAccess = ReturnType<typeof workspaceAccess>;
