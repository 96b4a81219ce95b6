// A test app behind a real Bun.serve on 127.0.0.1 (random port) with the /ws live feed wired the
// way src/boot/serve.ts wires it.
import { liveSockets } from "#server/live/ws";
import { REFRESH_COOKIE } from "#server/modules/auth";
import type { makeTestApp } from "./app";

export function serveTestApp(t: ReturnType<typeof makeTestApp>) {
  const live = liveSockets({
    hub: t.services.live,
    userForAccessToken: t.services.auth.userForAccessToken,
    principalForAccessToken: t.services.auth.principalForAccessToken,
    userForRefreshToken: t.services.auth.userForRefreshToken,
    sessionOf: t.services.auth.sessionOf,
    refreshCookie: REFRESH_COOKIE,
  });
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    // As src/boot/serve.ts: Bun's 10 s default resets a slow answer on a busy machine.
    idleTimeout: 120,
    routes: live.routes,
    fetch: (req) => t.app.handle(req),
    websocket: live.websocket,
  });
  const base = `http://127.0.0.1:${server.port}`;
  return { server, base, wsUrl: `ws://127.0.0.1:${server.port}/ws`, stop: () => server.stop(true) };
}

export interface TestSocket {
  ws: WebSocket;
  messages: { type: string; payload: unknown; agentId?: string }[];
  opened: Promise<boolean>;
  closed: Promise<{ code: number; reason: string }>;
  protocol(): string;
}

/** Opens a client socket; `opened` resolves false when the server refused the upgrade. */
export function openSocket(url: string, init: { headers?: Record<string, string>; protocols?: string[] } = {}): TestSocket {
  const ws = new WebSocket(url, { headers: init.headers, protocols: init.protocols } as never);
  const messages: TestSocket["messages"] = [];
  let opened!: (v: boolean) => void;
  let closed!: (v: { code: number; reason: string }) => void;
  const o = new Promise<boolean>((r) => (opened = r));
  const c = new Promise<{ code: number; reason: string }>((r) => (closed = r));
  ws.onopen = () => opened(true);
  ws.onerror = () => opened(false);
  ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
  ws.onclose = (e) => {
    opened(false);
    closed({ code: e.code, reason: e.reason });
  };
  return { ws, messages, opened: o, closed: c, protocol: () => ws.protocol };
}
