// The jobs claim on a real PostgreSQL server, where claims run side by side (READ COMMITTED, one
// connection each): several pools claiming at once each take a different job, none is claimed
// while it runs, none is lost; a claim whose chosen owner's jobs are all held by another claim
// takes another due job instead of coming back empty; two instances returning expired leases at
// once return each job once; and owners still take turns for a single claimer.
import { afterAll, describe, expect, test } from "bun:test";
import { databaseTarget, migrateSql, openSql, type SqlDb } from "#server/db/sql";
import { pgMigrations } from "#server/db/sql/pg-migrations";
import { newId } from "#server/lib/ids";
import { jobsService, type JobsService } from "#server/modules/jobs/service";
import { freshPgDatabase, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";
import { expectOwnersTakeTurns } from "./support";

afterAll(() => stopPostgres());

const T0 = Date.parse("2026-03-02T08:00:00.000Z");

/** A fresh migrated database: its URL, for as many pools as a test opens on it. */
async function migratedUrl(): Promise<string> {
  const url = await freshPgDatabase();
  const db = await openSql(databaseTarget(url, "."), { max: 1 });
  try {
    await migrateSql(db);
  } finally {
    await db.close();
  }
  return url;
}

const pool = (url: string, max = 3) => openSql(databaseTarget(url, "."), { max });

async function user(db: SqlDb): Promise<string> {
  const id = newId();
  await db.run("INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')", [id, `${id}@example.test`]);
  return id;
}

describe.skipIf(pgMissing !== null)("the jobs claim on PostgreSQL", () => {
  test(
    "four pools claiming side by side: 300 jobs, each claimed and completed once, none while it runs, none lost",
    async () => {
      const url = await migratedUrl();
      const pools = await Promise.all([0, 1, 2, 3].map(() => pool(url)));
      const queues = pools.map((db) => jobsService({ db }));
      const owners = await Promise.all([0, 1, 2].map(() => user(pools[0]!)));
      const ids: string[] = [];
      for (let n = 0; n < 300; n++)
        ids.push(await queues[0]!.enqueue({ kind: "k", payload: { n }, ownerId: n % 4 === 3 ? null : owners[n % 4] }));

      const running = new Set<string>();
      const claims = new Map<string, number>();
      const whileRunning: string[] = [];
      const lostCompletions: string[] = [];
      // Three claimers per pool, each claim → a short attempt → complete, until nothing is left.
      const claimer = async (queue: JobsService, name: string) => {
        for (;;) {
          const { job } = await queue.claim(["k"], name, 60_000);
          if (!job) return;
          if (running.has(job.id)) whileRunning.push(job.id);
          running.add(job.id);
          claims.set(job.id, (claims.get(job.id) ?? 0) + 1);
          await Bun.sleep(job.id.charCodeAt(job.id.length - 1) % 3);
          running.delete(job.id);
          if (!(await queue.complete(job))) lostCompletions.push(job.id);
        }
      };
      await Promise.all(queues.flatMap((queue, p) => [0, 1, 2].map((c) => claimer(queue, `w${p}.${c}`))));

      expect(whileRunning).toEqual([]);
      expect(lostCompletions).toEqual([]);
      expect([...claims.keys()].sort()).toEqual([...ids].sort());
      expect([...claims.values()].every((n) => n === 1)).toBe(true);
      expect(await queues[0]!.counts()).toEqual({ queued: 0, running: 0, done: 300, failed: 0, dead: 0 });
      const attempts = await pools[0]!.all<{ attempts: number; n: number }>("SELECT attempts, COUNT(*) AS n FROM jobs GROUP BY attempts");
      expect(attempts).toEqual([{ attempts: 1, n: 300 }]);
      // Every claim drew its own number from the sequence.
      const seqs = await pools[0]!.one<{ n: number; distinct_n: number }>(
        "SELECT COUNT(claim_seq) AS n, COUNT(DISTINCT claim_seq) AS distinct_n FROM jobs",
      );
      expect(seqs).toEqual({ n: 300, distinct_n: 300 });
      await Promise.all(pools.map((db) => db.close()));
    },
    PG_START_TIMEOUT,
  );

  test(
    "when every due job of the owner whose turn it is is held by another claim, the claim takes another owner's job",
    async () => {
      const url = await migratedUrl();
      const [one, two] = await Promise.all([pool(url), pool(url)]);
      const q1 = jobsService({ db: one, now: () => T0 });
      const q2 = jobsService({ db: two, now: () => T0 });
      const [first, second] = [await user(one), await user(one)];
      // The first owner's job is older, so the first owner's turn comes first for both claims.
      const a = await q1.enqueue({ kind: "k", payload: "a", ownerId: first, runAt: T0 - 10 });
      const b = await q1.enqueue({ kind: "k", payload: "b", ownerId: second, runAt: T0 - 5 });

      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let claimedInFlight: string | undefined;
      // A claim on the first pool, in flight: its transaction holds a's row and has not committed.
      const inFlight = one.tx(async () => {
        claimedInFlight = (await q1.claim(["k"], "w1", 60_000)).job?.id;
        await held;
      });
      while (claimedInFlight === undefined) await Bun.sleep(5);
      expect(claimedInFlight).toBe(a);
      // The second claim still sees a as queued (uncommitted) and picks its owner, finds a locked,
      // and takes b rather than nothing.
      // (Were it to wait for the first claim's lock instead, it would wait for ever: bounded here.)
      const { job } = await Promise.race([
        q2.claim(["k"], "w2", 60_000),
        Bun.sleep(10_000).then(() => Promise.reject(new Error("the claim waited on the other claim's row"))),
      ]);
      expect(job?.id).toBe(b);
      release();
      await inFlight;
      expect((await q2.get(a))?.leased_by).toBe("w1");
      expect((await q2.get(b))?.leased_by).toBe("w2");
      // Nothing else is due: both claims now come back empty.
      expect((await q2.claim(["k"], "w2", 60_000)).job).toBeNull();
      await Promise.all([one.close(), two.close()]);
    },
    PG_START_TIMEOUT,
  );

  test(
    "four instances returning expired leases at once: each job returned once, by one of them",
    async () => {
      const url = await migratedUrl();
      const pools = await Promise.all([0, 1, 2, 3].map(() => pool(url)));
      let now = T0;
      const queues = pools.map((db) => jobsService({ db, now: () => now }));
      for (let n = 0; n < 60; n++) await queues[0]!.enqueue({ kind: "k", payload: n, maxAttempts: n % 2 ? 1 : 3 });
      for (let n = 0; n < 60; n++) expect((await queues[n % 4]!.claim(["k"], `w${n % 4}`, 1_000)).job).not.toBeNull();
      now = T0 + 5_000; // every lease has run out
      const results = await Promise.all(queues.flatMap((q, i) => [0, 1].map(() => q.claim(["k"], `r${i}`, 60_000))));
      const expired = results.flatMap((r) => r.expired);
      // Each expired lease was returned once: 30 to the queue, 30 dead (their last attempt).
      expect(expired.map((j) => j.id).sort()).toEqual([...new Set(expired.map((j) => j.id))].sort());
      expect(expired).toHaveLength(60);
      expect(expired.filter((j) => j.state === "dead")).toHaveLength(30);
      // The claims that ran after took the requeued jobs, each by one claim.
      const taken = results.flatMap((r) => (r.job ? [r.job.id] : []));
      expect(new Set(taken).size).toBe(taken.length);
      expect(taken.length).toBeGreaterThan(0);
      await Promise.all(pools.map((db) => db.close()));
    },
    PG_START_TIMEOUT,
  );

  test(
    "the claim counter starts past the claims a database already recorded (migration 0026 on a queue in use)",
    async () => {
      const db = await pool(await migratedUrl());
      const q = jobsService({ db, now: () => T0 });
      for (let i = 0; i < 3; i++) await q.enqueue({ kind: "k", payload: i });
      // A queue claimed under the earlier numbering, then the migration as an upgrade applies it.
      await db.exec("DROP SEQUENCE jobs_claim_counter");
      await db.run("UPDATE jobs SET claim_seq = 41 WHERE payload = '0'");
      await db.exec(pgMigrations.find((m) => m.version === 26)!.sql);
      expect((await q.claim(["k"], "w", 60_000)).job?.claim_seq).toBe(42);
      await db.close();
    },
    PG_START_TIMEOUT,
  );

  describe("one claimer", () => {
    test(
      "owners take turns: a burst of 30 from one owner does not hold back two others (as on SQLite)",
      async () => {
        const db = await pool(await migratedUrl());
        let now = T0;
        const q = jobsService({ db, now: () => now });
        await expectOwnersTakeTurns(q, [await user(db), await user(db), await user(db)], () => (now += 1));
        await db.close();
      },
      PG_START_TIMEOUT,
    );

    test(
      "an owner that arrives later goes ahead of one that has been served",
      async () => {
        const db = await pool(await migratedUrl());
        const q = jobsService({ db, now: () => T0 });
        const [a, b] = [await user(db), await user(db)];
        for (let i = 0; i < 5; i++) await q.enqueue({ kind: "k", payload: i, ownerId: a });
        await q.complete((await q.claim(["k"], "w", 60_000)).job!);
        await q.enqueue({ kind: "k", payload: "b", ownerId: b });
        expect((await q.claim(["k"], "w", 60_000)).job!.owner_id).toBe(b);
        await db.close();
      },
      PG_START_TIMEOUT,
    );
  });
});
