// One holder at a time (src/modules/leases): on SQLite and on a real PostgreSQL server, two
// instances asking for the same lease never both hold it; a clean stop hands it over at the
// standby's next ask, and a lease whose holder stopped renewing is taken only once it ran out.
import { afterAll, describe, expect, test } from "bun:test";
import { openDatabase } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { type SqlDb, sqliteSql } from "#server/db/sql";
import { leaseKeeper } from "#server/modules/leases/public";
import { migratedPg, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";
import { waitFor } from "#tests/support/wait";

const TTL = 600;

function sqlite(): SqlDb {
  const db = openDatabase(":memory:");
  migrate(db);
  return sqliteSql(db);
}

const dialects: [string, () => Promise<SqlDb>, boolean][] = [
  ["SQLite", async () => sqlite(), false],
  ["PostgreSQL", () => migratedPg(), !!pgMissing],
];

afterAll(() => stopPostgres());

for (const [name, open, skip] of dialects) {
  describe.skipIf(skip)(`lease on ${name}`, () => {
    test(
      "one holder at a time; a clean stop hands it to the standby",
      async () => {
        const db = await open();
        const events: string[] = [];
        const keeper = (holder: string) =>
          leaseKeeper({ db, name: "scheduler", holder, ttlMs: TTL, onChange: (h) => events.push(`${holder}:${h}`) });
        const a = keeper("a");
        const b = keeper("b");
        a.start();
        await waitFor("a to hold", () => a.held(), 10_000, 10);
        b.start();
        // Over a whole lease length b asks at least twice, and never gets it while a renews.
        const overlaps: boolean[] = [];
        for (const end = Date.now() + TTL; Date.now() < end; await Bun.sleep(20)) overlaps.push(a.held() && b.held());
        expect(overlaps.some(Boolean)).toBe(false);
        expect(b.state()).toMatchObject({ held: false, holder: "a" });

        await a.stop();
        await waitFor("b to hold", () => b.held(), 10_000, 10);
        expect(events).toEqual(["a:true", "a:false", "b:true"]);
        await b.stop();
        await db.close();
      },
      PG_START_TIMEOUT,
    );

    test(
      "a lease its holder stopped renewing is taken once it ran out, not before",
      async () => {
        const db = await open();
        // A holder that froze mid-lease: its row stays, nobody renews it.
        const until = Date.now() + TTL;
        await db.run("INSERT INTO leases (name, holder, until_ms, acquired_ms) VALUES ($1, $2, $3, $4)", [
          "scheduler",
          "frozen",
          until,
          Date.now(),
        ]);
        const c = leaseKeeper({ db, name: "scheduler", holder: "c", ttlMs: TTL });
        c.start();
        await waitFor("c to see the frozen holder", () => c.state().holder === "frozen", 10_000, 10);
        await waitFor("c to hold", () => c.held(), 10_000, 10);
        expect(Date.now()).toBeGreaterThanOrEqual(until);
        expect((await db.one<{ holder: string }>("SELECT holder FROM leases WHERE name = $1", ["scheduler"]))?.holder).toBe("c");
        await c.stop();
        await db.close();
      },
      PG_START_TIMEOUT,
    );
  });
}

test("a holder whose database stops answering stops acting a margin before its lease runs out", async () => {
  const real = sqlite();
  let down = false;
  const db: SqlDb = {
    ...real,
    one: (text, params) => (down ? Promise.reject(new Error("database unreachable")) : real.one(text, params)),
  };
  let t = 1_000_000;
  const changes: boolean[] = [];
  const k = leaseKeeper({ db, name: "scheduler", holder: "a", ttlMs: 900, now: () => t, onChange: (h) => changes.push(h) });
  k.start();
  await waitFor("a to hold", () => k.held(), 10_000, 5);
  down = true;
  // The lease runs to t + 900; a margin of a third of it before that, the holder stops counting itself one.
  t += 550;
  expect(k.held()).toBe(true);
  t += 100;
  expect(k.held()).toBe(false);
  await k.stop();
  expect(changes).toEqual([true, false]);
});
