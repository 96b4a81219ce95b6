// A job enqueued by one instance is claimed by an idle worker of another at once (NOTIFY on
// enqueue), not at that worker's next poll; a job of a kind the worker does not run wakes nothing.
import { afterAll, describe, expect, test } from "bun:test";
import { databaseTarget, migrateSql, openSql } from "#server/db/sql";
import { JobRunner } from "#server/modules/jobs/runner";
import { jobsService } from "#server/modules/jobs/service";
import { freshPgDatabase, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";
import { waitFor } from "#tests/support/wait";

afterAll(() => stopPostgres());

describe.skipIf(pgMissing !== null)("enqueue wakes workers of other instances (PostgreSQL)", () => {
  test(
    "an idle runner polling once a minute runs a job another instance enqueued within seconds",
    async () => {
      // Two instances: two pools on one database.
      const url = await freshPgDatabase();
      const a = await openSql(databaseTarget(url, "."), { max: 2 });
      await migrateSql(a);
      const b = await openSql(databaseTarget(url, "."), { max: 2 });
      const ran: string[] = [];
      const runner = new JobRunner({
        queue: jobsService({ db: b }),
        handlers: { "test.echo": { run: (p: { n: number }) => void ran.push(`echo ${p.n}`) } },
        pollMs: 60_000,
      });
      runner.start();
      try {
        // The runner's first look (nothing due) is over and its LISTEN is in place before the enqueue.
        await Bun.sleep(500);
        const other = jobsService({ db: a });
        await other.enqueue({ kind: "test.other", payload: null });
        await other.enqueue({ kind: "test.echo", payload: { n: 1 } });
        // Bounded well inside the runner's one-minute poll: only the notification can have woken it.
        await waitFor("the job to run", () => ran.length === 1, 20_000, 20);
        expect(ran).toEqual(["echo 1"]);
        expect((await other.counts()).queued).toBe(1); // test.other: nobody here runs it
      } finally {
        await runner.stop();
        await b.close();
        await a.close();
      }
    },
    PG_START_TIMEOUT,
  );
});
