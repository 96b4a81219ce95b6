// One worker process of bench/queue.bench.ts: a JobRunner over a PostgreSQL pool of its own, one
// attempt at a time, whose `bench.capture` handler stands in for a capture by waiting a fixed time
// (see the bench's header for why a wait). Prints "ready" once its runner is looking at the queue;
// SIGTERM stops it (the runner finishes its attempt), prints how many jobs it ran and closes the pool.
import { databaseTarget, openSql } from "#server/db/sql";
import { JobRunner, jobsService } from "#server/modules/jobs/public";

const [url, workMs] = process.argv.slice(2);
let ran = 0;
const db = await openSql(databaseTarget(url!, "."), { max: 2 });
const runner = new JobRunner({
  queue: jobsService({ db }),
  worker: `bench-worker:${process.pid}`,
  concurrency: 1,
  handlers: {
    "bench.capture": {
      run: async () => {
        await Bun.sleep(Number(workMs));
        ran++;
      },
    },
  },
});
runner.start();
console.log("ready");
process.on("SIGTERM", async () => {
  await runner.stop();
  console.log(`ran ${ran}`);
  await db.close();
  process.exit(0);
});
