// Live messages cross instances through PostgreSQL's LISTEN/NOTIFY (src/live/relay.ts): what one
// instance sends every other receives, whole and in order, however large; its own never comes back.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { databaseTarget, openSql, type SqlDb } from "#server/db/sql";
import { postgresRelay, type LiveRelay, type RelayEvent } from "#server/live/relay";
import { freshPgDatabase, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";
import { waitFor } from "#tests/support/wait";

const suite = pgMissing ? describe.skip : describe;

suite("live relay over PostgreSQL", () => {
  let a: SqlDb;
  let b: SqlDb;
  let c: SqlDb;
  const heard: Record<"a" | "b" | "c", RelayEvent[]> = { a: [], b: [], c: [] };
  let relays: Record<"a" | "b" | "c", LiveRelay>;

  beforeAll(async () => {
    const url = await freshPgDatabase();
    // Three instances, each with its own pool, as three processes would have.
    const open = () => openSql(databaseTarget(url, "."), { max: 2 });
    [a, b, c] = [await open(), await open(), await open()];
    relays = {
      a: await postgresRelay(a, (e) => heard.a.push(e)),
      b: await postgresRelay(b, (e) => heard.b.push(e)),
      c: await postgresRelay(c, (e) => heard.c.push(e)),
    };
  }, PG_START_TIMEOUT);

  afterAll(async () => {
    for (const r of Object.values(relays ?? {})) await r.close();
    for (const db of [a, b, c]) await db?.close();
    await stopPostgres();
  });

  test("an event sent by one instance reaches the others, not itself", async () => {
    const event: RelayEvent = {
      kind: "publish",
      message: { type: "COMPARISON_PROGRESS", payload: { comparisonId: "c1", stage: "Capturing 1/3" } },
      to: { kind: "workspace", workspaceId: "w1" },
    };
    await relays.a.send(event);
    await waitFor("the event at b and c", () => heard.b.length === 1 && heard.c.length === 1, 10_000, 20);
    expect(heard.b[0]).toEqual(event);
    expect(heard.c[0]).toEqual(event);
    await Bun.sleep(100);
    expect(heard.a).toEqual([]);
  });

  test("a message larger than NOTIFY's 8000 bytes arrives whole, and messages keep their order", async () => {
    heard.b.length = 0;
    // Multi-byte characters too: the parts are cut by characters and must stay under the byte limit.
    const big = "ü€😀x".repeat(12_000);
    const events: RelayEvent[] = [
      { kind: "publish", message: { type: "RUN_CHANGES", payload: { note: big } }, to: { kind: "all" } },
      { kind: "disconnect", select: { userId: "u1", sessionId: "s1" }, reason: "Signed out", code: 4001 },
      { kind: "publish", message: { type: "ALERT", payload: { n: 3 } }, to: { kind: "admins" } },
    ];
    // Sent without waiting for each other, as a hub publishes: they still leave in call order.
    await Promise.all(events.map((e) => relays.c.send(e)));
    await waitFor("three events at b", () => heard.b.length === 3, 10_000, 20);
    expect(heard.b.map((e) => e.kind)).toEqual(["publish", "disconnect", "publish"]);
    expect(heard.b[0]).toEqual(events[0]!);
    expect(heard.b[2]).toEqual(events[2]!);
  });
});
