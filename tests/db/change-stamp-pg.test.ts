// The change stamp on PostgreSQL (src/db/change-stamp.ts, src/db/sql/pg-changes.ts), on a real
// server: a handle's own writes move it at once, another instance's commits once announced (and
// not before they commit), and it holds nothing while the LISTEN is not known to be live.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { changeStamp, StampedCache } from "#server/db/change-stamp";
import { databaseTarget, migrateSql, openSql, type SqlDb } from "#server/db/sql";
import { CHANGES_CHANNEL, LISTEN_LAG_MS, pgChanges } from "#server/db/sql/pg-changes";
import { freshPgDatabase, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";

/** Asks until `check` holds, or LISTEN_LAG_MS and a margin have passed. */
async function soon(check: () => boolean | Promise<boolean>, within = LISTEN_LAG_MS + 500): Promise<boolean> {
  const deadline = performance.now() + within;
  while (!(await check())) {
    if (performance.now() > deadline) return false;
    await Bun.sleep(5);
  }
  return true;
}

const live = (stamp: () => number) => soon(() => !Number.isNaN(stamp()));

/** The backends LISTENing on this database: the stamp's own connection among them. */
const listeners = async (db: SqlDb) =>
  (
    await db.one<{ n: number }>(
      "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND state = 'idle'",
    )
  )?.n ?? 0;

afterAll(stopPostgres);

describe.skipIf(pgMissing !== null)("the change stamp on PostgreSQL", () => {
  let url: string;
  let a: SqlDb;
  let b: SqlDb;
  beforeAll(async () => {
    url = await freshPgDatabase();
    a = await openSql(databaseTarget(url, "."), { max: 3 });
    await migrateSql(a);
    b = await openSql(databaseTarget(url, "."), { max: 3 });
  }, PG_START_TIMEOUT);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const T = "2026-01-01T00:00:00.000Z";
  let k = 0;
  const setting = () => [`k${++k}`, "v", T];

  test("holds nothing until its LISTEN is heard live, then holds while nothing is written", async () => {
    const stamp = changeStamp(a);
    // The first look starts the LISTEN: nothing is known yet.
    expect(stamp()).toBeNaN();
    expect(await live(stamp)).toBe(true);
    const held = stamp();
    await a.one("SELECT COUNT(*) AS n FROM users");
    await a.all("SELECT key FROM settings");
    // Pings come and go (every 500 ms) without moving it.
    await Bun.sleep(700);
    expect(stamp()).toBe(held);
  });

  test("a write of its own moves it as soon as the statement returns, before the announcement comes back", async () => {
    const stamp = changeStamp(a);
    expect(await live(stamp)).toBe(true);
    const seen = new Set<number>();
    const moved = () => {
      const s = stamp();
      const fresh = !seen.has(s);
      seen.add(s);
      return fresh;
    };
    moved();
    await a.run("INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3)", setting());
    expect(moved()).toBe(true);
    await a.one("INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3) RETURNING key", setting());
    expect(moved()).toBe(true);
    await a.all("WITH gone AS (DELETE FROM settings WHERE key = $1 RETURNING key) SELECT key FROM gone", [`k${k}`]);
    expect(moved()).toBe(true);
    await a.exec("DELETE FROM rate_windows");
    expect(moved()).toBe(true);
  });

  test("its own transaction moves it again once committed: a read in between saw none of it", async () => {
    const stamp = changeStamp(a);
    expect(await live(stamp)).toBe(true);
    let inside = NaN;
    await a.tx(async (tx) => {
      await tx.run("INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3)", setting());
      inside = stamp();
    });
    expect(stamp()).not.toBe(inside);
  });

  test("another instance's commit moves it once announced, and a write not yet committed does not", async () => {
    const stamp = changeStamp(a);
    expect(await live(stamp)).toBe(true);
    // Let our own announcements of the tests before come back first.
    await Bun.sleep(100);
    const before = stamp();
    let during = NaN;
    await b.tx(async (tx) => {
      await tx.run("INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3)", setting());
      await Bun.sleep(300);
      during = stamp();
    });
    expect(during).toBe(before);
    expect(await soon(() => stamp() !== before)).toBe(true);
    expect(stamp()).not.toBeNaN();

    // A statement outside a transaction commits as it returns.
    const again = stamp();
    await b.run("UPDATE settings SET value = 'w'");
    expect(await soon(() => stamp() !== again)).toBe(true);
  });

  test("a cached read is answered from memory until the other instance writes", async () => {
    const stamp = changeStamp(a);
    expect(await live(stamp)).toBe(true);
    await b.run("INSERT INTO settings (key, value, updated_at) VALUES ('shown', 'one', $1)", [T]);
    await Bun.sleep(100);
    const cache = new StampedCache<Promise<string | undefined>>(stamp, 10);
    let loads = 0;
    const read = () =>
      cache.load("shown", async () => {
        loads++;
        return (await a.one<{ value: string }>("SELECT value FROM settings WHERE key = 'shown'"))?.value;
      });
    expect(await read()).toBe("one");
    expect(await read()).toBe("one");
    expect(loads).toBe(1);
    await b.run("UPDATE settings SET value = 'two' WHERE key = 'shown'");
    expect(await soon(async () => (await read()) === "two")).toBe(true);
  });

  test("a LISTEN that drops and comes back moves it: commits made meanwhile went unheard", async () => {
    const stamp = changeStamp(a);
    expect(await live(stamp)).toBe(true);
    const before = stamp();
    const ended = await b.all<{ ok: boolean }>(
      "SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
    );
    expect(ended.length).toBeGreaterThan(0);
    expect(await soon(() => stamp() !== before, 10_000)).toBe(true);
    expect(await live(stamp)).toBe(true);
  });
});

describe.skipIf(pgMissing !== null)("the announcements' listener, alone", () => {
  let url: string;
  let client: SQL;
  beforeAll(async () => {
    url = await freshPgDatabase();
    client = new SQL({ url, max: 2 });
  }, PG_START_TIMEOUT);
  afterAll(() => client?.close());

  test("once its pings stop coming back, it holds nothing", async () => {
    // Pinging once (as it starts listening) and then not for a minute: a silent listener.
    const changes = pgChanges(client, { pingEveryMs: 60_000, lagMs: 300, idleMs: 60_000 });
    try {
      expect(changes.stamp()).toBeNaN();
      expect(await live(changes.stamp)).toBe(true);
      expect(await soon(() => Number.isNaN(changes.stamp()), 1_000)).toBe(true);
    } finally {
      await changes.close();
    }
  });

  test("it hears any commit announced on the channel, and another instance's pings move nothing", async () => {
    const changes = pgChanges(client, { idleMs: 60_000 });
    const other = pgChanges(client, { idleMs: 60_000 });
    try {
      changes.stamp();
      other.stamp();
      expect(await live(changes.stamp)).toBe(true);
      expect(await live(other.stamp)).toBe(true);
      const held = changes.stamp();
      await Bun.sleep(600);
      expect(changes.stamp()).toBe(held);
      await client.unsafe("SELECT pg_notify($1, '')", [CHANGES_CHANNEL]);
      expect(await soon(() => changes.stamp() !== held)).toBe(true);
    } finally {
      await changes.close();
      await other.close();
    }
  });

  test("left unlooked at, it lets its LISTEN go and starts again at the next look; closed, it holds nothing", async () => {
    const db = await openSql(databaseTarget(url, "."), { max: 2 });
    const changes = pgChanges(client, { pingEveryMs: 50, idleMs: 300 });
    try {
      expect(changes.stamp()).toBeNaN();
      expect(await live(changes.stamp)).toBe(true);
      expect(await listeners(db)).toBe(1);
      expect(await soon(async () => (await listeners(db)) === 0, 3_000)).toBe(true);
      expect(changes.stamp()).toBeNaN();
      expect(await live(changes.stamp)).toBe(true);
      await changes.close();
      expect(changes.stamp()).toBeNaN();
      expect(await soon(async () => (await listeners(db)) === 0, 3_000)).toBe(true);
    } finally {
      await changes.close();
      await db.close();
    }
  });
});
