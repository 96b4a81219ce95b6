import { afterEach, describe, expect, test } from "bun:test";
import { WS_SUBPROTOCOL } from "#server/live/ws";
import { makeTestApp } from "#tests/support/app";
import { openSocket, serveTestApp, type TestSocket } from "#tests/support/live-server";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const t = makeTestApp();
  const srv = serveTestApp(t);
  cleanups.push(() => srv.stop());
  const admin = await t.signup();
  const alice = await t.signup();
  const bob = await t.signup();
  return { t, srv, admin, alice, bob };
}

function track(s: TestSocket): TestSocket {
  cleanups.push(() => s.ws.close());
  return s;
}

// The bound only names a condition that never comes; a busy machine can take seconds to deliver.
async function until(probe: () => boolean, what: string, ms = 15_000) {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}

const bearer = (token: string) => ({ protocols: [WS_SUBPROTOCOL, `bearer.${token}`] });

describe("/ws live feed", () => {
  test("plain HTTP gets 426; no credentials, a bad token or a foreign origin are refused at the upgrade", async () => {
    const { srv, alice, t } = await setup();
    const plain = await fetch(`${srv.base}/ws`);
    expect(plain.status).toBe(426);
    expect((await plain.json()).error).toBeString();

    expect(await track(openSocket(srv.wsUrl)).opened).toBe(false);
    expect(await track(openSocket(srv.wsUrl, bearer("not-a-token"))).opened).toBe(false);
    expect(await track(openSocket(srv.wsUrl, { ...bearer(alice.token), headers: { origin: "https://evil.example" } })).opened).toBe(false);
    expect(await track(openSocket(srv.wsUrl, { headers: { cookie: alice.cookie, origin: "https://evil.example" } })).opened).toBe(false);
    expect(t.services.live.size).toBe(0);
  });

  test("an access token (subprotocol) or the refresh cookie authenticates; same-origin is fine", async () => {
    const { srv, alice, bob, t } = await setup();
    const a = track(openSocket(srv.wsUrl, bearer(alice.token)));
    expect(await a.opened).toBe(true);
    expect(a.protocol()).toBe(WS_SUBPROTOCOL);
    const b = track(openSocket(srv.wsUrl, { headers: { cookie: bob.cookie, origin: srv.base } }));
    expect(await b.opened).toBe(true);
    await until(() => t.services.live.size === 2, "two registered sockets");
  });

  test("messages reach exactly their audience: all, one user (comparison progress), owner plus admins", async () => {
    const { srv, admin, alice, bob, t } = await setup();
    const sa = track(openSocket(srv.wsUrl, bearer(admin.token)));
    const s1 = track(openSocket(srv.wsUrl, bearer(alice.token)));
    const s2 = track(openSocket(srv.wsUrl, bearer(bob.token)));
    await Promise.all([sa.opened, s1.opened, s2.opened]);
    await until(() => t.services.live.size === 3, "three sockets");
    const hub = t.services.live;
    hub.publish({ type: "AGENT_UPDATE", payload: { id: "trend-hunter", status: "active" }, agentId: "trend-hunter" });
    hub.publish({ type: "COMPARISON_PROGRESS", payload: { comparisonId: "c1" } }, { kind: "user", userId: alice.user.id });
    hub.publish({ type: "COMPONENT_GENERATED", payload: { id: "k1" }, agentId: "design-ninja" }, { kind: "owner", userId: bob.user.id });
    hub.publish({ type: "SYSTEM_METRICS", payload: { cpu: 1 } }, { kind: "admins" });
    await until(() => sa.messages.length === 3 && s1.messages.length === 2 && s2.messages.length === 2, "deliveries");
    expect(sa.messages.map((m) => m.type)).toEqual(["AGENT_UPDATE", "COMPONENT_GENERATED", "SYSTEM_METRICS"]);
    expect(s1.messages.map((m) => m.type)).toEqual(["AGENT_UPDATE", "COMPARISON_PROGRESS"]);
    expect(s2.messages.map((m) => m.type)).toEqual(["AGENT_UPDATE", "COMPONENT_GENERATED"]);
    expect(s1.messages[0]).toEqual({ type: "AGENT_UPDATE", payload: { id: "trend-hunter", status: "active" }, agentId: "trend-hunter" });
  });

  test("ping gets pong; malformed, unknown or oversized frames close that socket only", async () => {
    const { srv, alice, bob, t } = await setup();
    const good = track(openSocket(srv.wsUrl, bearer(alice.token)));
    const garbage = track(openSocket(srv.wsUrl, bearer(bob.token)));
    const unknown = track(openSocket(srv.wsUrl, bearer(bob.token)));
    const huge = track(openSocket(srv.wsUrl, bearer(bob.token)));
    await Promise.all([good.opened, garbage.opened, unknown.opened, huge.opened]);

    good.ws.send('{"type":"ping"}');
    await until(() => good.messages.some((m) => m.type === "pong"), "pong");

    garbage.ws.send("{not json");
    unknown.ws.send('{"type":"subscribe","payload":"everything"}');
    huge.ws.send(JSON.stringify({ type: "ping", pad: "x".repeat(10_000) }));
    expect((await garbage.closed).code).toBe(1007);
    expect((await unknown.closed).code).toBe(1008);
    expect((await huge.closed).code).toBe(1009);

    await until(() => t.services.live.size === 1, "the bad sockets unregistered");
    t.services.live.publish({ type: "AGENT_UPDATE", payload: { id: "x" }, agentId: "x" });
    await until(() => good.messages.some((m) => m.type === "AGENT_UPDATE"), "delivery to the good socket");
  });

  test("a session ended on the server (hub.disconnect) closes with 4001", async () => {
    const { srv, alice, t } = await setup();
    const s = track(openSocket(srv.wsUrl, bearer(alice.token)));
    await s.opened;
    await until(() => t.services.live.size === 1, "registered");
    t.services.live.disconnect((x) => x.userId === alice.user.id, "Signed out");
    expect((await s.closed).code).toBe(4001);
  });
});
