// The one module that owns broadcasting to sockets. Services call publish(); nothing else
// touches a socket. With a relay (PostgreSQL, several instances), what a hub publishes and the
// sockets it ends by selector reach the other instances' sockets too (src/live/relay.ts).
import type { LiveRelay, RelayEvent, SocketSelector } from "./relay";

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
export type WorkspaceMembers = (workspaceId: string) => readonly string[] | Promise<readonly string[]>;

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
  /** The delivery in progress: messages go out in the order they were published, whichever waits for its members. */
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private readonly log: (msg: string, err?: unknown) => void;
  private relay: Pick<LiveRelay, "send"> | null = null;

  constructor(opts: { membersOf?: WorkspaceMembers; log?: (msg: string, err?: unknown) => void } = {}) {
    this.membersOf = opts.membersOf ?? personalOnly;
    this.log = opts.log ?? (() => {});
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

  /**
   * Sends a message to its audience; fire and forget. A workspace's members are read from the
   * database, so that message goes out once they are known; messages published after it wait for
   * it, so every socket hears them in the order they were published.
   */
  publish(message: LiveMessage, to: Audience = { kind: "all" }): void {
    void this.deliver(message, to).catch((e) => this.log("live message not delivered", e));
    this.relay?.send({ kind: "publish", message, to }).catch((e) => this.log("live message not relayed to the other instances", e));
  }

  /** From now on, publishes and selector disconnects also go to the other instances through `relay`. */
  useRelay(relay: Pick<LiveRelay, "send"> | null): void {
    this.relay = relay;
  }

  /** An event another instance's hub sent: it reaches this instance's sockets (and goes no further). */
  receive(event: RelayEvent): void {
    if (event.kind === "publish")
      void this.deliver(event.message, event.to).catch((e) => this.log("relayed live message not delivered", e));
    else this.#close(selects(event.select), event.reason, event.code);
  }

  /** `publish`, resolving with the number of sockets the message was sent to. */
  deliver(message: LiveMessage, to: Audience = { kind: "all" }): Promise<number> {
    if (this.sockets.size === 0 && this.waiting === 0) return Promise.resolve(0);
    // Read now (membership as at the message), once per message, not per socket.
    const members = to.kind === "workspace" ? this.membersOf(to.workspaceId) : null;
    if (this.waiting === 0 && !(members instanceof Promise)) return Promise.resolve(this.send(message, to, members));
    this.waiting++;
    const sent = this.tail.then(async () => {
      try {
        return this.send(message, to, await members);
      } finally {
        this.waiting--;
      }
    });
    this.tail = sent.catch(() => {});
    return sent;
  }

  private send(message: LiveMessage, to: Audience, memberIds: readonly string[] | null): number {
    if (this.sockets.size === 0) return 0;
    const data = JSON.stringify(to.kind === "workspace" ? { ...message, workspaceId: to.workspaceId } : message);
    const members = memberIds && new Set(memberIds);
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

  /**
   * Ends a user's sockets (logout, disable, demote) or every non-admin's (maintenance). A selector
   * ends them on every instance; a function only here (this instance's own shutdown). Clients don't
   * reconnect after 4001; 1001 (shutdown) they do.
   */
  disconnect(which: SocketSelector | ((s: LiveSocket) => boolean), reason: string, code = 4001): void {
    if (typeof which === "function") return this.#close(which, reason, code);
    this.#close(selects(which), reason, code);
    this.relay
      ?.send({ kind: "disconnect", select: which, reason, code })
      .catch((e) => this.log("sign-out not relayed to the other instances", e));
  }

  #close(filter: (s: LiveSocket) => boolean, reason: string, code: number): void {
    for (const s of [...this.sockets]) {
      if (!filter(s)) continue;
      this.sockets.delete(s);
      s.close(code, reason);
    }
  }
}

/** The sockets a selector names: every condition it gives holds. */
const selects =
  (select: SocketSelector) =>
  (s: LiveSocket): boolean =>
    (select.userId === undefined || s.userId === select.userId) &&
    (select.sessionId === undefined || s.sessionId === select.sessionId) &&
    (!select.nonAdmins || s.role !== "admin");

/** A member's socket hears its workspace, unless an API key bound it to another; operators too when asked. */
function reachesWorkspace(s: LiveSocket, to: { workspaceId: string; admins?: boolean }, members: ReadonlySet<string>): boolean {
  if (to.admins && s.role === "admin") return true;
  if (s.workspaceId && s.workspaceId !== to.workspaceId) return false;
  return members.has(s.userId);
}
