// Change detection as a job on PostgreSQL: instances sharing one database stand for a serve and a
// worker (scenarios in jobs-scenarios.ts); two attempts of one job at once store the changes once.
import { afterAll, describe, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { lazyMigratedPg, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";
import {
  alertsOutliveTheirWorker,
  deadJobRetriedFromConsole,
  deployment,
  detectedByAnotherInstance,
  detectedInProcess,
  missedRunQueued,
  rerunAfterLeaseExpiry,
  webhookReceiver,
} from "./jobs-scenarios";

setDefaultTimeout(PG_START_TIMEOUT);
const dirs: string[] = [];
const hooks: ReturnType<typeof webhookReceiver>[] = [];
afterAll(async () => {
  for (const h of hooks) h.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await stopPostgres();
});

/** One fresh database the instances share, as a deployment's do. */
function onPostgres() {
  const d = deployment({ sql: lazyMigratedPg({ max: 4 }) });
  dirs.push(d.dataDir);
  const hook = webhookReceiver();
  hooks.push(hook);
  return { d, hook };
}

describe.skipIf(pgMissing !== null)("change detection as a job (PostgreSQL)", () => {
  test("an instance that runs jobs detects a run's changes through its job, before the run closes", async () => {
    const { d, hook } = onPostgres();
    await detectedInProcess(d, hook);
  });

  test("a run completed by a serve is detected by a worker's job runner", async () => {
    const { d, hook } = onPostgres();
    await detectedByAnotherInstance(d, hook);
  });

  test("a job re-run after its lease ran out stores the changes once and alerts once; two attempts at once store once", async () => {
    const { d, hook } = onPostgres();
    await rerunAfterLeaseExpiry(d, hook);
  });

  test("the alerts of changes stored by a worker killed before it sent them are sent by another instance, once", async () => {
    const { d, hook } = onPostgres();
    await alertsOutliveTheirWorker(d, hook);
  });

  test("a dead detection job is listed in the console and its retry stores the changes", async () => {
    const { d, hook } = onPostgres();
    await deadJobRetriedFromConsole(d, hook);
  });

  test("a completed run whose serve stopped before queueing its detection is queued by a process that runs jobs, once", async () => {
    const { d, hook } = onPostgres();
    await missedRunQueued(d, hook);
  });
});
