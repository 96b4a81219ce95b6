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
}

/** "owner": that user and every admin (rows built from one user's data, which admins may also see). */
export type Audience = { kind: "all" } | { kind: "user"; userId: string } | { kind: "admins" } | { kind: "owner"; userId: string };

export interface LiveSocket {
  userId: string;
  role: "user" | "admin";
  /** The sign-in session that opened the socket, so that session's logout can close it. */
  sessionId?: string | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export class LiveHub {
  private readonly sockets = new Set<LiveSocket>();

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
    const data = JSON.stringify(message);
    let sent = 0;
    for (const s of this.sockets) {
      if (to.kind === "user" && s.userId !== to.userId) continue;
      if (to.kind === "admins" && s.role !== "admin") continue;
      if (to.kind === "owner" && s.userId !== to.userId && s.role !== "admin") continue;
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
