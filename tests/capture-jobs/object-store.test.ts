// The screenshot's hand-over through an S3-compatible store (s3rver on loopback), on SQLite: a
// capture whose steps stopped at one comes back with its step, its session and the screenshot of
// where it stopped at the run's path, and the bucket keeps no temporary object afterwards.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqlDb } from "#server/db/sql";
import { captureJobHandlers, jobCaptureTools } from "#server/modules/capture-jobs/public";
import { JobRunner, jobsService } from "#server/modules/jobs/public";
import { startS3Server, type S3TestServer } from "#tests/support/s3-server";
import { APP_SECRET, FakePool, OWNER, SESSION, sqliteHandle } from "./support";

let s3: S3TestServer;
let db: SqlDb;
let out: string;
beforeAll(async () => {
  s3 = await startS3Server();
  db = await sqliteHandle();
  out = mkdtempSync(join(tmpdir(), "capjobs-s3-"));
});
afterAll(async () => {
  await db?.close();
  await s3?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

test("a capture stopped at a step: its step, session and screenshot come back through the bucket, which keeps nothing", async () => {
  const { store, workDir } = s3.storage("installs/one");
  const pool = new FakePool(["stopped"]);
  const runner = new JobRunner({
    queue: jobsService({ db }),
    handlers: captureJobHandlers({ db, pool, store, secret: APP_SECRET, workDir }),
  });
  runner.start();
  try {
    const tools = jobCaptureTools({ db, jobs: jobsService({ db }), store, secret: APP_SECRET, wake: () => runner.poke() });
    const screenshotPath = join(out, "stopped.png");
    const result = await tools.capture(OWNER, { url: "http://127.0.0.1:9/", viewport: "desktop", screenshotPath, keepSession: true });
    expect(result).toEqual({
      ok: false,
      reason: 'Step 2: nothing on the page matches "#go"',
      step: { index: 2, error: 'nothing on the page matches "#go"' },
      screenshotPath,
      session: SESSION,
    });
    expect(readFileSync(screenshotPath).equals(pool.pngs.get("http://127.0.0.1:9/")!)).toBe(true);
    expect(await s3.keys()).toEqual([]);
  } finally {
    await runner.stop();
  }
});
