// The one module that owns broadcasting to sockets. Services call publish(); nothing else
// touches a socket.

export type LiveMessageType =
  | "TREND_DISCOVERED"
  | "COMPONENT_GENERATED"
  | "TEST_COMPLETED"
  | "AGENT_UPDATE"
  | "SYSTEM_METRICS"
  | "COMPARISON_PROGRESS"
  | "COMPARISON_STATUS"
  /** A run's changes against the run before were found and stored: { comparisonId, runId, changeCount }. */
  | "RUN_CHANGES"
  | "ALERT";

export interface LiveMessage {
  type: LiveMessageType;
  payload: unknown;
  agentId?: string;
  /** Set by the hub on a message for a workspace's members: a client shows it only while in that workspace. */
  workspaceId?: string;
}

/**
 * "owner": that user and every admin (rows built from one user's data, which admins may also see).
 * "workspace": the members of that workspace (its runs' progress, status and changes); `admins`
 * adds every operator, for rows that admins may also see.
 */
export type Audience =
  | { kind: "all" }
  | { kind: "user"; userId: string }
  | { kind: "admins" }
  | { kind: "owner"; userId: string }
  | { kind: "workspace"; workspaceId: string; admins?: boolean };

/**
 * The user ids of a workspace's members, asked at each publish to a workspace so that a member
 * added or removed hears (or stops hearing) its messages at once.
 */
export type WorkspaceMembers = (workspaceId: string) => readonly string[];

/** Without a membership source, a workspace is a personal one: its id is its one member's. */
const personalOnly: WorkspaceMembers = (workspaceId) => [workspaceId];

export interface LiveSocket {
  userId: string;
  role: "user" | "admin";
  /** The sign-in session that opened the socket, so that session's logout can close it. */
  sessionId?: string | null;
  /** Opened with an API key: the workspace it is bound to, the only one whose messages it hears. */
  workspaceId?: string | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export class LiveHub {
  private readonly sockets = new Set<LiveSocket>();
  private readonly membersOf: WorkspaceMembers;

  constructor(opts: { membersOf?: WorkspaceMembers } = {}) {
    this.membersOf = opts.membersOf ?? personalOnly;
  }

  add(s: LiveSocket): void {
    this.sockets.add(s);
  }

  remove(s: LiveSocket): void {
    this.sockets.delete(s);
  }

  get size(): number {
    return this.sockets.size;
  }

  publish(message: LiveMessage, to: Audience = { kind: "all" }): number {
    if (this.sockets.size === 0) return 0;
    const data = JSON.stringify(to.kind === "workspace" ? { ...message, workspaceId: to.workspaceId } : message);
    // Read once per message, not per socket: a workspace has few members, a hub many sockets.
    const members = to.kind === "workspace" ? new Set(this.membersOf(to.workspaceId)) : null;
    let sent = 0;
    for (const s of this.sockets) {
      if (to.kind === "user" && s.userId !== to.userId) continue;
      if (to.kind === "admins" && s.role !== "admin") continue;
      if (to.kind === "owner" && s.userId !== to.userId && s.role !== "admin") continue;
      if (to.kind === "workspace" && !reachesWorkspace(s, to, members!)) continue;
      s.send(data);
      sent++;
    }
    return sent;
  }

  /** Ends a user's sockets (logout, disable, demote) or every non-admin's (maintenance). Clients don't reconnect after 4001; 1001 (shutdown) they do. */
  disconnect(filter: (s: LiveSocket) => boolean, reason: string, code = 4001): void {
    for (const s of [...this.sockets]) {
      if (!filter(s)) continue;
      this.sockets.delete(s);
      s.close(code, reason);
    }
  }
}

/** A member's socket hears its workspace, unless an API key bound it to another; operators too when asked. */
function reachesWorkspace(s: LiveSocket, to: { workspaceId: string; admins?: boolean }, members: ReadonlySet<string>): boolean {
  if (to.admins && s.role === "admin") return true;
  if (s.workspaceId && s.workspaceId !== to.workspaceId) return false;
  return members.has(s.userId);
}
