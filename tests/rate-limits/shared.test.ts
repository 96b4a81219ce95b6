// Rate limits in the database (src/modules/rate-limits): on SQLite and on a real PostgreSQL server,
// several instances spending one budget at once get exactly its limit between them, a window
// that ended starts afresh, and a refund gives back one use.
import { afterAll, describe, expect, test } from "bun:test";
import { openDatabase } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { databaseTarget, openSql, type SqlDb, sqliteSql } from "#server/db/sql";
import { sharedRateLimiter } from "#server/modules/rate-limits/public";
import { freshPgDatabase, migratedPg, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";

const sqlite = async (): Promise<SqlDb> => {
  const db = openDatabase(":memory:");
  migrate(db);
  return sqliteSql(db);
};

afterAll(() => stopPostgres());

const statusOf = async (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: { status?: number; code?: number }) => e.status ?? e.code ?? 500,
  );

for (const [name, open, skip] of [
  ["SQLite", sqlite, false],
  ["PostgreSQL", () => migratedPg(), !!pgMissing],
] as const) {
  describe.skipIf(skip)(`shared rate limits on ${name}`, () => {
    test(
      "one window: the limit, then 429 with Retry-After; a refund gives one back; the next window starts afresh",
      async () => {
        const db = await open();
        let t = 1_000_000;
        const limiter = sharedRateLimiter(db, { name: "login-account", limit: 3, windowMs: 60_000, now: () => t });
        for (let i = 0; i < 3; i++) await limiter.hit("ann@example.com");
        expect(await limiter.exhausted("ann@example.com")).toBe(true);
        t += 15_000;
        const refused = (await limiter.hit("ann@example.com").catch((e: unknown) => e)) as { status: number; message: string };
        expect(refused.status).toBe(429);
        // Retry-After: what is left of the window, 45 s.
        expect(JSON.stringify(refused)).toContain('"retryAfter":45');
        expect(refused.message).not.toContain("ann@example.com");
        // Another key, and the same key under another limiter's name, are budgets of their own.
        await limiter.hit("bob@example.com");
        await sharedRateLimiter(db, { name: "login-ip", limit: 1, windowMs: 60_000, now: () => t }).hit("ann@example.com");
        await limiter.refund("ann@example.com");
        await limiter.refund("ann@example.com");
        expect(await limiter.exhausted("ann@example.com")).toBe(false);
        t += 45_000;
        for (let i = 0; i < 3; i++) await limiter.hit("ann@example.com");
        expect(await statusOf(limiter.hit("ann@example.com"))).not.toBe(200);
        await db.close();
      },
      PG_START_TIMEOUT,
    );
  });
}

describe.skipIf(!!pgMissing)("across instances", () => {
  test(
    "three instances spending one budget at once get exactly its limit between them",
    async () => {
      const url = await freshPgDatabase();
      const first = await openSql(databaseTarget(url, "."), { max: 4 });
      const { migrateSql } = await import("#server/db/sql");
      await migrateSql(first);
      const instances = [first, await openSql(databaseTarget(url, "."), { max: 4 }), await openSql(databaseTarget(url, "."), { max: 4 })];
      const limiters = instances.map((db) => sharedRateLimiter(db, { name: "login-account", limit: 10, windowMs: 60_000 }));
      // 30 attempts, 10 per instance, all in flight together.
      const outcomes = await Promise.all(limiters.flatMap((l) => Array.from({ length: 10 }, () => statusOf(l.hit("ann@example.com")))));
      expect(outcomes.filter((s) => s === 200)).toHaveLength(10);
      expect(outcomes.filter((s) => s === 429)).toHaveLength(20);
      for (const db of instances) await db.close();
    },
    PG_START_TIMEOUT,
  );
});
