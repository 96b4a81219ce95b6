// Two instances' hubs on one PostgreSQL database, wired as the roles wire them (relayLive): what
// one publishes reaches the other's sockets (each once, by its audience), a disconnect by selector
// (sign-out, maintenance) closes the matching sockets on both, and a shutdown's closes only its own.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { relayLive } from "#server/boot/roles/compose";
import { databaseTarget, openSql, type SqlDb } from "#server/db/sql";
import { LiveHub, type LiveSocket } from "#server/live/hub";
import { silentLogger } from "#server/lib/logger";
import { freshPgDatabase, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";
import { waitFor } from "#tests/support/wait";

const suite = pgMissing ? describe.skip : describe;

interface FakeSocket extends LiveSocket {
  got: { type: string; workspaceId?: string }[];
  closedWith: { code?: number; reason?: string } | null;
}
const socket = (userId: string, extra: Partial<LiveSocket> = {}): FakeSocket => {
  const s: FakeSocket = {
    userId,
    role: "user",
    sessionId: null,
    got: [],
    closedWith: null,
    send: (data) => void s.got.push(JSON.parse(data)),
    close: (code, reason) => void (s.closedWith = { code, reason }),
    ...extra,
  };
  return s;
};

suite("live hubs of two instances on PostgreSQL", () => {
  const dbs: SqlDb[] = [];
  const stops: (() => Promise<void>)[] = [];
  // Workspace w1 has members u1 and u2.
  const membersOf = (w: string) => (w === "w1" ? ["u1", "u2"] : [w]);
  const a = new LiveHub({ membersOf });
  const b = new LiveHub({ membersOf });

  beforeAll(async () => {
    const url = await freshPgDatabase();
    for (const hub of [a, b]) {
      const db = await openSql(databaseTarget(url, "."), { max: 2 });
      dbs.push(db);
      stops.push(await relayLive({ shared: true, db, log: () => {}, logger: silentLogger() }, hub));
    }
  }, PG_START_TIMEOUT);

  afterAll(async () => {
    for (const stop of stops) await stop();
    for (const db of dbs) await db.close();
    await stopPostgres();
  });

  test("a message published on A reaches B's sockets of its audience, and A's own once", async () => {
    const onA = socket("u1");
    const member = socket("u2");
    const outsider = socket("u3");
    a.add(onA);
    b.add(member);
    b.add(outsider);
    a.publish({ type: "COMPARISON_PROGRESS", payload: { comparisonId: "c1" } }, { kind: "workspace", workspaceId: "w1" });
    a.publish({ type: "COMPARISON_STATUS", payload: { comparisonId: "c1" } }, { kind: "workspace", workspaceId: "w1" });
    await waitFor("both messages on B", () => member.got.length === 2, 10_000);
    expect(member.got.map((m) => [m.type, m.workspaceId])).toEqual([
      ["COMPARISON_PROGRESS", "w1"],
      ["COMPARISON_STATUS", "w1"],
    ]);
    await Bun.sleep(300);
    expect(outsider.got).toEqual([]);
    // Nothing comes back to the instance that sent it: A's socket heard each message once.
    expect(onA.got.map((m) => m.type)).toEqual(["COMPARISON_PROGRESS", "COMPARISON_STATUS"]);
    for (const s of [onA, member, outsider]) (s === onA ? a : b).remove(s);
  });

  test("a sign-out on A closes that session's sockets on B; A's shutdown closes only A's", async () => {
    const session = socket("u1", { sessionId: "s1" });
    const otherSession = socket("u1", { sessionId: "s2" });
    const admin = socket("u9", { role: "admin" });
    const user = socket("u2");
    for (const s of [session, otherSession, admin, user]) b.add(s);
    a.disconnect({ userId: "u1", sessionId: "s1" }, "Signed out");
    await waitFor("the session's socket on B to close", () => session.closedWith, 10_000);
    expect(session.closedWith).toEqual({ code: 4001, reason: "Signed out" });
    // Maintenance: every non-admin's socket, on every instance.
    a.disconnect({ nonAdmins: true }, "Maintenance mode");
    await waitFor("non-admin sockets on B to close", () => user.closedWith && otherSession.closedWith, 10_000);
    expect(admin.closedWith).toBeNull();
    // A's own restart closes A's sockets only (a function selects, it does not travel).
    a.disconnect(() => true, "Server restarting", 1001);
    await Bun.sleep(500);
    expect(admin.closedWith).toBeNull();
    expect(b.size).toBe(1);
  });
});
