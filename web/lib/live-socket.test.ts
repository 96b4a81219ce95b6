import { afterEach, describe, expect, test } from "bun:test";
import {
  RECONNECT_DELAY_MS,
  holdLiveSocket,
  isForCurrentWorkspace,
  onLiveMessage,
  onLiveStatus,
  parseLiveMessage,
  resetLiveSocketForTests,
} from "./live-socket";

class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  sent: string[] = [];
  closedWith: number | null = null;
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {
    FakeSocket.all.push(this);
  }
  send(d: string) {
    this.sent.push(d);
  }
  close(code = 1000) {
    this.closedWith = code;
  }
  // server side of the fake
  open() {
    this.onopen?.();
  }
  deliver(data: unknown) {
    this.onmessage?.({ data });
  }
  drop(code: number) {
    this.onclose?.({ code });
  }
}

const timers: { fn: () => void; ms: number; id: number }[] = [];
let nextId = 1;
const logs: string[] = [];
const opts = {
  WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
  url: "ws://test/ws",
  setTimer: (fn: () => void, ms: number) => {
    const id = nextId++;
    timers.push({ fn, ms, id });
    return id;
  },
  clearTimer: (id: unknown) => {
    const i = timers.findIndex((t) => t.id === id);
    if (i >= 0) timers.splice(i, 1);
  },
  log: (m: string) => logs.push(m),
};
const fire = (ms: number) => {
  const due = timers.filter((t) => t.ms === ms);
  for (const t of due) {
    timers.splice(timers.indexOf(t), 1);
    t.fn();
  }
  return due.length;
};

afterEach(() => {
  resetLiveSocketForTests();
  FakeSocket.all = [];
  timers.length = 0;
  logs.length = 0;
});

describe("live socket client", () => {
  test("parses only well-formed {type, payload, agentId} messages of known types", () => {
    expect(parseLiveMessage('{"type":"AGENT_UPDATE","payload":{"id":"x"},"agentId":"x"}')).toEqual({
      type: "AGENT_UPDATE",
      payload: { id: "x" },
      agentId: "x",
    });
    for (const bad of [
      "nope",
      "[]",
      '{"type":"HACK","payload":1}',
      '{"type":"AGENT_UPDATE"}',
      '{"type":"AGENT_UPDATE","payload":1,"agentId":5}',
      42,
    ])
      expect(parseLiveMessage(bad)).toBeNull();
  });

  test("one socket however many holders; it closes when the last lets go", () => {
    const r1 = holdLiveSocket(opts);
    const r2 = holdLiveSocket(opts);
    expect(FakeSocket.all).toHaveLength(1);
    expect(FakeSocket.all[0]!.protocols).toEqual(["design-intel.v1"]);
    r1();
    expect(FakeSocket.all[0]!.closedWith).toBeNull();
    r2();
    expect(FakeSocket.all[0]!.closedWith).toBe(1000);
  });

  test("offers the access token as a subprotocol when there is one", () => {
    holdLiveSocket({ ...opts, getToken: () => "tok.en.sig" })();
    expect(FakeSocket.all[0]!.protocols).toEqual(["design-intel.v1", "bearer.tok.en.sig"]);
  });

  test("dispatches by type, logs malformed frames only, and reports connection state", () => {
    const states: boolean[] = [];
    onLiveStatus((c) => states.push(c));
    const got: string[] = [];
    onLiveMessage("TREND_DISCOVERED", (m) => got.push(`trend:${(m.payload as { id: string }).id}`));
    onLiveMessage("*", (m) => got.push(`any:${m.type}`));
    onLiveMessage("COMPARISON_PROGRESS", (m) => got.push(`cmp:${(m.payload as { comparisonId: string }).comparisonId}`));
    holdLiveSocket(opts);
    const s = FakeSocket.all[0]!;
    s.open();
    s.deliver('{"type":"TREND_DISCOVERED","payload":{"id":"t1"}}');
    s.deliver('{"type":"COMPARISON_PROGRESS","payload":{"comparisonId":"c9"}}');
    s.deliver("garbage");
    s.deliver('{"type":"pong","payload":{}}');
    expect(got).toEqual(["trend:t1", "any:TREND_DISCOVERED", "cmp:c9", "any:COMPARISON_PROGRESS"]);
    expect(logs).toEqual(["live: ignoring malformed message"]);
    expect(states).toEqual([false, true]);
  });

  test("reconnects 3 s after the connection drops, but not after the server ends the session", () => {
    holdLiveSocket(opts);
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(1006);
    expect(FakeSocket.all).toHaveLength(1);
    expect(fire(RECONNECT_DELAY_MS)).toBe(1);
    expect(RECONNECT_DELAY_MS).toBe(3000);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.open();
    FakeSocket.all[1]!.drop(4001);
    expect(fire(RECONNECT_DELAY_MS)).toBe(0);
    expect(FakeSocket.all).toHaveLength(2);
  });

  test("heartbeats ping, and a silent line is closed so it can reconnect", () => {
    let t = 0;
    holdLiveSocket({ ...opts, now: () => t });
    const s = FakeSocket.all[0]!;
    s.open();
    t += 25_000;
    fire(25_000);
    expect(s.sent).toEqual(['{"type":"ping"}']);
    t += 60_000;
    fire(25_000);
    expect(s.closedWith).toBe(4000);
  });
});

describe("messages of a workspace", () => {
  const status = parseLiveMessage(JSON.stringify({ type: "COMPARISON_STATUS", payload: { id: "c1" }, workspaceId: "team" }))!;
  test("keep the workspace the hub named", () => {
    expect(status).toEqual({ type: "COMPARISON_STATUS", payload: { id: "c1" }, workspaceId: "team" });
  });
  test("a run's messages show only in their workspace; others, and a client that does not know its workspace yet, take everything", () => {
    expect(isForCurrentWorkspace(status, "team")).toBe(true);
    expect(isForCurrentWorkspace(status, "personal")).toBe(false);
    expect(isForCurrentWorkspace(status, null)).toBe(true);
    const agent = parseLiveMessage(JSON.stringify({ type: "AGENT_UPDATE", payload: {}, agentId: "a", workspaceId: "team" }))!;
    expect(isForCurrentWorkspace(agent, "personal")).toBe(true);
    const system = parseLiveMessage(JSON.stringify({ type: "ALERT", payload: {} }))!;
    expect(isForCurrentWorkspace(system, "personal")).toBe(true);
  });
});
