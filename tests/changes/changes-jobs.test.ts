// Change detection as a job on SQLite: two instances on one database file stand for a serve and a
// worker, or for one server before and after a restart (scenarios in jobs-scenarios.ts).
import { afterAll, describe, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

const dirs: string[] = [];
const hooks: ReturnType<typeof webhookReceiver>[] = [];
afterAll(() => {
  for (const h of hooks) h.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function onSqlite() {
  const dir = mkdtempSync(join(tmpdir(), "di-changes-jobs-db-"));
  const d = deployment({ dbPath: join(dir, "app.db") });
  dirs.push(dir, d.dataDir);
  const hook = webhookReceiver();
  hooks.push(hook);
  return { d, hook };
}

describe("change detection as a job (SQLite)", () => {
  test("the single process detects a completed run's changes through its job, before the run closes", async () => {
    const { d, hook } = onSqlite();
    await detectedInProcess(d, hook);
  });

  test("a run completed by an instance that does not detect is detected by the next instance's job runner", async () => {
    const { d, hook } = onSqlite();
    await detectedByAnotherInstance(d, hook);
  });

  test("a job re-run after its lease ran out stores the changes once and alerts once", async () => {
    const { d, hook } = onSqlite();
    await rerunAfterLeaseExpiry(d, hook);
  });

  test("the alerts of changes stored by a worker killed before it sent them are sent by another instance, once", async () => {
    const { d, hook } = onSqlite();
    await alertsOutliveTheirWorker(d, hook);
  });

  test("a dead detection job is listed in the console and its retry stores the changes", async () => {
    const { d, hook } = onSqlite();
    await deadJobRetriedFromConsole(d, hook);
  });

  test("a completed run whose serve stopped before queueing its detection is queued by a process that runs jobs, once", async () => {
    const { d, hook } = onSqlite();
    await missedRunQueued(d, hook);
  });
});
