// The app's one live socket (/ws). It connects while anything holds it (refcounted), reconnects
// 3 s after the connection drops (spec §4/§9), heartbeats, and hands each well-formed message to
// the listeners registered for its type. Features subscribe here, never to each other.
import type { LiveMessage, LiveMessageType } from "#server/live/hub";
import { currentWorkspaceId } from "./workspace";

export type { LiveMessage, LiveMessageType };

export const RECONNECT_DELAY_MS = 3000;
export const HEARTBEAT_MS = 25_000;
export const SUBPROTOCOL = "design-intel.v1";
/** Close code the server uses when a session ends (logout, disabled account, maintenance): no reconnect. */
export const SESSION_ENDED_CODE = 4001;

export const LIVE_MESSAGE_TYPES: readonly LiveMessageType[] = [
  "TREND_DISCOVERED",
  "COMPONENT_GENERATED",
  "TEST_COMPLETED",
  "AGENT_UPDATE",
  "SYSTEM_METRICS",
  "COMPARISON_PROGRESS",
  "COMPARISON_STATUS",
  "ALERT",
];

type Handler = (message: LiveMessage) => void;

/** Parses one frame; null (and the caller logs) when it isn't a {type, payload, agentId?} message we know. */
export function parseLiveMessage(data: unknown): LiveMessage | null {
  if (typeof data !== "string") return null;
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return null;
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return null;
  const m = v as Record<string, unknown>;
  if (typeof m.type !== "string" || !LIVE_MESSAGE_TYPES.includes(m.type as LiveMessageType)) return null;
  if (!("payload" in m)) return null;
  if (m.agentId !== undefined && m.agentId !== null && typeof m.agentId !== "string") return null;
  return {
    type: m.type as LiveMessageType,
    payload: m.payload,
    ...(typeof m.agentId === "string" ? { agentId: m.agentId } : {}),
    ...(typeof m.workspaceId === "string" ? { workspaceId: m.workspaceId } : {}),
  };
}

/**
 * A socket hears every workspace its user belongs to; a run's messages are shown only in the
 * workspace on screen, as everything else is. Agents' messages are not filtered: their views read
 * per workspace on the server.
 */
const WORKSPACE_SCOPED = new Set<LiveMessageType>(["COMPARISON_PROGRESS", "COMPARISON_STATUS", "RUN_CHANGES", "ALERT"]);
export function isForCurrentWorkspace(message: LiveMessage, current: string | null): boolean {
  return !message.workspaceId || current === null || !WORKSPACE_SCOPED.has(message.type) || message.workspaceId === current;
}

export interface LiveSocketOptions {
  /** An access token to offer; without one the refresh cookie authenticates the socket. */
  getToken?: () => string | null;
  /** Seams for tests. */
  WebSocketImpl?: typeof WebSocket;
  url?: string;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  now?: () => number;
  log?: (message: string, data?: unknown) => void;
}

class LiveConnection {
  private socket: WebSocket | null = null;
  private holders = 0;
  private reconnectTimer: unknown = null;
  private heartbeatTimer: unknown = null;
  private lastHeard = 0;
  private opts: LiveSocketOptions = {};
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly statusHandlers = new Set<(connected: boolean) => void>();
  connected = false;

  configure(opts: LiveSocketOptions): void {
    this.opts = { ...this.opts, ...opts };
  }

  private get env() {
    const o = this.opts;
    return {
      WS: o.WebSocketImpl ?? globalThis.WebSocket,
      setTimer: o.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms)),
      clearTimer: o.clearTimer ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>)),
      now: o.now ?? Date.now,
      log: o.log ?? ((m: string, d?: unknown) => console.warn(m, d)),
    };
  }

  hold(): () => void {
    this.holders++;
    if (this.holders === 1) this.connect();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders--;
      if (this.holders === 0) this.teardown();
    };
  }

  on(type: LiveMessageType | "*", h: Handler): () => void {
    const set = this.handlers.get(type) ?? new Set<Handler>();
    set.add(h);
    this.handlers.set(type, set);
    return () => set.delete(h);
  }

  onStatus(h: (connected: boolean) => void): () => void {
    this.statusHandlers.add(h);
    h(this.connected);
    return () => this.statusHandlers.delete(h);
  }

  private setConnected(c: boolean): void {
    if (this.connected === c) return;
    this.connected = c;
    for (const h of [...this.statusHandlers]) h(c);
  }

  private url(): string {
    if (this.opts.url) return this.opts.url;
    const { protocol, host } = window.location;
    return `${protocol === "https:" ? "wss:" : "ws:"}//${host}/ws`;
  }

  private connect(): void {
    const env = this.env;
    this.reconnectTimer = null;
    const token = this.opts.getToken?.() ?? null;
    const protocols = token ? [SUBPROTOCOL, `bearer.${token}`] : [SUBPROTOCOL];
    let ws: WebSocket;
    try {
      ws = new env.WS(this.url(), protocols);
    } catch (err) {
      env.log("live: could not open the socket", err);
      this.scheduleReconnect();
      return;
    }
    this.socket = ws;
    ws.onopen = () => {
      if (this.socket !== ws) return;
      this.lastHeard = env.now();
      this.setConnected(true);
      this.startHeartbeat(ws);
    };
    ws.onmessage = (event: MessageEvent) => {
      if (this.socket !== ws) return;
      this.lastHeard = env.now();
      if (typeof event.data === "string" && event.data.startsWith('{"type":"pong"')) return;
      const message = parseLiveMessage(event.data);
      if (!message) {
        env.log("live: ignoring malformed message", event.data);
        return;
      }
      if (!isForCurrentWorkspace(message, currentWorkspaceId())) return;
      this.dispatch(message);
    };
    ws.onclose = (event: CloseEvent) => {
      if (this.socket !== ws) return;
      this.socket = null;
      this.stopHeartbeat();
      this.setConnected(false);
      if (this.holders > 0 && event.code !== SESSION_ENDED_CODE) this.scheduleReconnect();
    };
    ws.onerror = () => {
      /* a close event follows and decides about reconnecting */
    };
  }

  private dispatch(message: LiveMessage): void {
    for (const key of [message.type, "*"]) {
      for (const h of [...(this.handlers.get(key) ?? [])]) {
        try {
          h(message);
        } catch (err) {
          this.env.log(`live: a ${message.type} handler failed`, err);
        }
      }
    }
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer !== null || this.holders === 0) return;
    this.reconnectTimer = this.env.setTimer(() => {
      this.reconnectTimer = null;
      if (this.holders > 0 && !this.socket) this.connect();
    }, RECONNECT_DELAY_MS);
  }

  /** Pings keep proxies from idling us out; silence for two periods means the line is dead. */
  private startHeartbeat(ws: WebSocket): void {
    this.stopHeartbeat();
    const env = this.env;
    const beat = () => {
      if (this.socket !== ws) return;
      if (env.now() - this.lastHeard > 2 * HEARTBEAT_MS) {
        ws.close(4000, "heartbeat timeout");
        return;
      }
      try {
        ws.send('{"type":"ping"}');
      } catch {
        /* closing already */
      }
      this.heartbeatTimer = env.setTimer(beat, HEARTBEAT_MS);
    };
    this.heartbeatTimer = env.setTimer(beat, HEARTBEAT_MS);
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer !== null) this.env.clearTimer(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  private teardown(): void {
    if (this.reconnectTimer !== null) this.env.clearTimer(this.reconnectTimer);
    this.reconnectTimer = null;
    this.stopHeartbeat();
    const ws = this.socket;
    this.socket = null;
    this.setConnected(false);
    if (ws) ws.close(1000, "done");
  }
}

let connection = new LiveConnection();

/** Keeps the socket open until the returned function is called (every holder shares one socket). */
export function holdLiveSocket(opts: LiveSocketOptions = {}): () => void {
  connection.configure(opts);
  return connection.hold();
}

/** Subscribe to one message type ("*" for all). Returns the unsubscribe function. */
export function onLiveMessage(type: LiveMessageType | "*", handler: Handler): () => void {
  return connection.on(type, handler);
}

/** Called at once with the current state, then on every change. */
export function onLiveStatus(handler: (connected: boolean) => void): () => void {
  return connection.onStatus(handler);
}

/** Tests start from a fresh connection. */
export function resetLiveSocketForTests(): void {
  connection = new LiveConnection();
}
