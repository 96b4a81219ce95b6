// Pair scoring as `analysis.pair` jobs, on SQLite: the driving instance's analyser enqueues the two
// stored keys with the parts of the extractions scoring reads, a worker's handler scores them on its
// own analyser from its copies of the stored objects, and the scores are the in-process analyser's
// on the same two PNGs. A screenshot that is gone from the store fails the pair with why. A worker's
// pairs never wait behind its captures: they have a runner of their own.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqlDb } from "#server/db/sql";
import { createAnalyser, type Analyser } from "#server/modules/analysis";
import { pairRunnerOn } from "#server/boot/capture-jobs";
import type { BootContext } from "#server/boot/context";
import {
  captureJobHandlers,
  jobAnalyser,
  jobCaptureTools,
  PAIR_KIND,
  pairJobHandlers,
  storedCopies,
} from "#server/modules/capture-jobs/public";
import { JobRunner, jobsService } from "#server/modules/jobs/public";
import type { BlobStore } from "#server/modules/storage";
import { alpha, beta } from "#tests/analysis/pages";
import { APP_SECRET, FakePool, folderOf, keyOf, OWNER, sqliteHandle, tempStore } from "./support";

setDefaultTimeout(30_000);

const A = alpha();
const B = beta();
let db: SqlDb;
let store: BlobStore;
let cleanStore: () => void;
let work: string;
let workerAnalyser: Analyser;
let runner: JobRunner;
let downloads: string[];

beforeAll(async () => {
  db = await sqliteHandle();
  ({ store, cleanup: cleanStore } = tempStore());
  work = mkdtempSync(join(tmpdir(), "pair-jobs-"));
  for (const page of [A, B]) await store.put(keyOf(page.png), page.png, "image/png");
  downloads = [];
  // The worker's store: its downloads are counted.
  const counted: BlobStore = { ...store, download: (key, path) => (downloads.push(key), store.download(key, path)) };
  workerAnalyser = createAnalyser();
  runner = new JobRunner({
    queue: jobsService({ db }),
    handlers: pairJobHandlers({ db, analyser: workerAnalyser, copies: storedCopies(counted, join(work, "copies")), secret: APP_SECRET }),
    pollMs: 50,
  });
  runner.start();
});

afterAll(async () => {
  await runner?.stop();
  workerAnalyser?.close();
  await db?.close();
  cleanStore?.();
  if (work) rmSync(work, { recursive: true, force: true });
});

test("a pair scored by a worker's job gives the in-process analyser's scores on the same two PNGs", async () => {
  const aPath = join(work, "a.png");
  const bPath = join(work, "b.png");
  await Bun.write(aPath, A.png);
  await Bun.write(bPath, B.png);
  const inProcess = createAnalyser();
  let expected;
  try {
    expected = await inProcess.scorePair(aPath, A.extraction, bPath, B.extraction);
  } finally {
    inProcess.close();
  }

  const analyser = jobAnalyser({ db, jobs: jobsService({ db }), store, wake: () => runner.poke() });
  expect(await analyser.scorePair(keyOf(A.png), A.extraction, keyOf(B.png), B.extraction)).toEqual(expected);
  // Again: the worker's copies are kept (content keys never go stale), nothing is fetched twice.
  expect(await analyser.scorePair(keyOf(A.png), A.extraction, keyOf(B.png), B.extraction)).toEqual(expected);
  expect(downloads.sort()).toEqual([keyOf(A.png), keyOf(B.png)].sort());

  // The job carried the keys and what scoring reads, not the whole extraction; its answer was read and let go.
  const job = (await db.one<{ payload: string; owner_id: string }>("SELECT payload, owner_id FROM jobs WHERE kind = $1 LIMIT 1", [
    PAIR_KIND,
  ]))!;
  expect(job.payload).toContain(keyOf(A.png));
  expect(job.payload).not.toContain(A.extraction.title);
  expect(job.payload).not.toContain(JSON.stringify(A.extraction.accessibility));
  expect(job.owner_id).toBe(keyOf(A.png).split("/")[1]!);
  expect(await db.all("SELECT job_id FROM capture_results")).toEqual([]);
});

test("a pair whose screenshot is gone from the store fails with why, at once", async () => {
  const analyser = jobAnalyser({ db, jobs: jobsService({ db }), store, wake: () => runner.poke() });
  const gone = keyOf(new TextEncoder().encode("never stored"));
  await expect(analyser.scorePair(keyOf(A.png), A.extraction, gone, B.extraction)).rejects.toThrow(
    "The pair could not be scored: A screenshot of the pair is no longer stored (1 attempt)",
  );
  // A path that is not a stored key is never queued.
  await expect(analyser.scorePair("/tmp/a.png", A.extraction, keyOf(B.png), B.extraction)).rejects.toThrow("not a stored screenshot");
});

test("a worker's pairs are scored while every slot of its main runner waits on a capture", async () => {
  const own = await sqliteHandle();
  const analyser = createAnalyser();
  const handlers = {
    ...captureJobHandlers({ db: own, pool: new FakePool([], 8_000), store, secret: APP_SECRET }),
    ...pairJobHandlers({ db: own, analyser, copies: storedCopies(store, join(work, "own-copies")), secret: APP_SECRET }),
  };
  // The main runner's one slot is taken by a capture that waits for its browser.
  const main = new JobRunner({ queue: jobsService({ db: own }), handlers, concurrency: 1, pollMs: 50 });
  const pairs = pairRunnerOn({ db: own, log: () => {} } as unknown as BootContext, handlers);
  main.start();
  pairs.start();
  try {
    const wake = () => (main.poke(), pairs.poke());
    const ask = { db: own, jobs: jobsService({ db: own }), store, wake };
    const capture = jobCaptureTools({ ...ask, secret: APP_SECRET, folderOf }).capture(OWNER, {
      url: "http://127.0.0.1:9/slow",
      viewport: "desktop",
      screenshotPath: join(work, "slow.png"),
    });
    let captured = false;
    void capture.then(() => (captured = true));
    await Bun.sleep(200);
    await jobAnalyser(ask).scorePair(keyOf(A.png), A.extraction, keyOf(B.png), B.extraction);
    expect(captured).toBe(false);
    expect((await capture).ok).toBe(true);
  } finally {
    await Promise.all([main.stop(), pairs.stop()]);
    analyser.close();
    await own.close();
  }
});
