// Captures as jobs, on SQLite and on a real PostgreSQL: the run side's capture and time tools
// enqueue, a JobRunner with the worker handlers runs them on a stand-in pool, and the answer comes
// back as the pool's own (extraction, thumbnail, session, the file at the caller's path, stages on
// the way). Afterwards no answer row or temporary object is left; secrets and the session are never
// in plain text in the tables; a page's own failure is an answer, a lost browser is retried, and a
// job that fails every time goes dead and the run hears why. On PostgreSQL two workers share six
// captures, each captured once.
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqlDb } from "#server/db/sql";
import type { CaptureJobInput } from "#server/modules/capture/public";
import { captureJobHandlers, CAPTURE_KIND, jobCaptureTools, pruneCaptureResults } from "#server/modules/capture-jobs/public";
import { toCapturePayload } from "#server/modules/capture-jobs/codec";
import { jobSealer } from "#server/modules/capture-jobs/seal";
import { drain, JobRunner, jobsService, type JobRow } from "#server/modules/jobs/public";
import { PG_START_TIMEOUT, pgMissing, postgres, stopPostgres } from "#tests/support/postgres";
import { waitFor } from "#tests/support/wait";
import {
  APP_SECRET,
  fakeExtraction,
  FakePool,
  FOLDER,
  folderOf,
  keyOf,
  OWNER,
  pgHandles,
  screenshotObjects,
  SESSION,
  sqliteHandle,
  STAGES,
  tempObjects,
  tempStore,
} from "./support";

// Each test makes its own database (a PostgreSQL one takes about a second) and runs a few jobs.
setDefaultTimeout(30_000);
afterAll(stopPostgres);

const SECRET_VALUE = "hunter2-secret-value";

interface Rig {
  run: SqlDb;
  workers: SqlDb[];
}

const dialects: [string, () => Promise<Rig>, boolean][] = [
  [
    "SQLite",
    async () => {
      const db = await sqliteHandle();
      return { run: db, workers: [db] };
    },
    false,
  ],
  [
    "PostgreSQL",
    async () => {
      const [run, a, b] = await pgHandles(3);
      return { run: run!, workers: [a!, b!] };
    },
    pgMissing !== null,
  ],
];

for (const [name, open, skip] of dialects) {
  describe.skipIf(skip)(`capture jobs on ${name}`, () => {
    let rig: Rig;
    const cleanups: (() => unknown)[] = [];
    const later = (fn: () => unknown) => cleanups.push(fn);
    // The cluster starts once for the file, within its own limit.
    beforeAll(async () => {
      if (name === "PostgreSQL") await postgres();
    }, PG_START_TIMEOUT);
    afterEach(async () => {
      for (const fn of cleanups.splice(0).reverse()) await fn();
    });

    /** The run's side and `pools.length` workers, each a JobRunner on its own handle (on SQLite all on the one). */
    async function start(pools: FakePool[], opts: { backoff?: (n: number) => number; concurrency?: number } = {}) {
      rig = await open();
      later(async () => {
        for (const db of new Set([rig.run, ...rig.workers])) await db.close();
      });
      const { store, dir, cleanup } = tempStore();
      later(cleanup);
      const runners = pools.map((pool, i) => {
        const db = rig.workers[i % rig.workers.length]!;
        const runner = new JobRunner({
          queue: jobsService({ db }),
          handlers: captureJobHandlers({ db, pool, store, secret: APP_SECRET, backoff: opts.backoff ?? (() => 20) }),
          pollMs: 50,
          concurrency: opts.concurrency ?? 2,
        });
        runner.start();
        later(() => runner.stop());
        return runner;
      });
      const jobs = jobsService({ db: rig.run });
      const tools = jobCaptureTools({
        db: rig.run,
        jobs,
        store,
        secret: APP_SECRET,
        folderOf,
        wake: () => runners.forEach((r) => r.poke()),
        // On PostgreSQL the answer must come through the notification: the backstop poll is too slow for any test here.
        pollMs: name === "PostgreSQL" ? 60_000 : undefined,
      });
      const out = mkdtempSync(join(tmpdir(), "capjobs-out-"));
      later(() => rmSync(out, { recursive: true, force: true }));
      return { tools, jobs, store, dir, out };
    }

    /** The one capture job, once its worker has finished it (the answer is written, then the job is marked done). */
    async function settled() {
      const one = () => rig.run.one<JobRow>("SELECT * FROM jobs WHERE kind = $1", [CAPTURE_KIND]);
      await waitFor("the job to settle", async () => ["done", "dead"].includes((await one())?.state ?? ""), 10_000, 20);
      return (await one())!;
    }

    const input = (out: string, over: Partial<CaptureJobInput> = {}): CaptureJobInput => ({
      url: "http://127.0.0.1:9/pricing",
      viewport: "desktop",
      screenshotPath: join(out, `${crypto.randomUUID()}.png`),
      steps: [
        { type: "fill", selector: "#password", value: "{{secret:password}}" },
        { type: "click", text: "Sign in" },
      ],
      secrets: { password: SECRET_VALUE },
      siteOrigin: "http://127.0.0.1:9",
      keepSession: true,
      ...over,
    });

    test("a capture comes back as the pool answered it, its screenshot stored under its content key, its stages on the way, and nothing left behind", async () => {
      const pool = new FakePool([], 40);
      const { tools, store, out } = await start([pool]);
      const stages: string[] = [];
      const asked = input(out);
      const result = await tools.capture(OWNER, asked, (s) => stages.push(s));
      if (!result.ok) throw new Error(result.reason);
      expect(result.extraction).toEqual(fakeExtraction(asked.url));
      expect(result.screenshotPath).toBe(asked.screenshotPath);
      // Stored by the worker where the run records it; nothing comes to the run's path, and no thumbnail crosses the database.
      const png = pool.pngs.get(asked.url)!;
      const key = keyOf(png);
      expect(result.stored).toEqual({ key, sha256: key.slice(-68, -4), bytes: png.byteLength, width: 8, height: 6 });
      expect(Buffer.from((await store.get(key))!).equals(png)).toBe(true);
      expect(await screenshotObjects(store)).toEqual([key]);
      expect(existsSync(asked.screenshotPath)).toBe(false);
      expect(result.thumb).toBeUndefined();
      expect(result.session).toEqual(SESSION);
      expect(stages).toEqual([...STAGES]);
      // The worker got the secrets and the steps, and wrote to a path of its own.
      const got = pool.inputs[0]!;
      expect(got.secrets).toEqual({ password: SECRET_VALUE });
      expect(got.steps).toEqual(asked.steps);
      expect(got.screenshotPath).not.toBe(asked.screenshotPath);
      expect(existsSync(got.screenshotPath)).toBe(false);
      expect(pool.owners).toEqual([OWNER]);
      // The run read its answer: no row, no object; the job is done after one attempt, owned by the run's owner.
      expect(await rig.run.all("SELECT job_id FROM capture_results")).toEqual([]);
      expect(await tempObjects(store)).toEqual([]);
      const job = await settled();
      expect([job.state, job.attempts, job.owner_id]).toEqual(["done", 1, OWNER]);
      expect(job.payload).not.toContain(SECRET_VALUE);
      expect(job.payload).not.toContain(asked.screenshotPath);
    });

    test("a login's secrets and session are sealed in jobs.payload and capture_results", async () => {
      const pool = new FakePool();
      const { store, out } = await start([]);
      const db = rig.workers[0]!;
      const queue = jobsService({ db });
      const sealer = jobSealer(APP_SECRET);
      const id = await queue.enqueue({ kind: CAPTURE_KIND, ownerId: OWNER, payload: toCapturePayload(input(out), OWNER, sealer, FOLDER) });
      const handlers = captureJobHandlers({ db, pool, store, secret: APP_SECRET });
      const [outcome] = await drain({ queue, handlers, ids: [id] });
      expect(outcome?.state).toBe("done");
      expect(pool.inputs[0]!.secrets).toEqual({ password: SECRET_VALUE });
      const tables = JSON.stringify([await db.all("SELECT * FROM jobs"), await db.all("SELECT * FROM capture_results")]);
      expect(tables).toContain("sealed");
      for (const plain of [SECRET_VALUE, SESSION.cookies[0]!.value]) expect(tables).not.toContain(plain);
      // Sealed for this job's owner: the same payload under another owner does not open, and the job gives up at once.
      const stolen = await queue.enqueue({
        kind: CAPTURE_KIND,
        ownerId: null,
        payload: toCapturePayload(input(out), OWNER, sealer, FOLDER),
      });
      const [refused] = await drain({ queue, handlers, ids: [stolen] });
      expect(refused?.state).toBe("dead");
      expect(refused?.error).toContain("app secret");
      expect(pool.inputs).toHaveLength(1);
    });

    test("a page's own failure is the answer, not a job failure: no retry", async () => {
      const pool = new FakePool(["unreachable"]);
      const { tools, out } = await start([pool]);
      const result = await tools.capture(OWNER, input(out));
      expect(result).toEqual({ ok: false, reason: "The page could not be reached (connection refused)" });
      expect(pool.inputs).toHaveLength(1);
      expect(await settled()).toMatchObject({ state: "done", attempts: 1 });
      expect(await rig.run.all("SELECT job_id FROM capture_results")).toEqual([]);
    });

    test("a lost browser fails the attempt and the page is captured on the next", async () => {
      const pool = new FakePool(["lost"]);
      const { tools, store, out } = await start([pool]);
      const asked = input(out, { secrets: undefined, steps: undefined, keepSession: undefined });
      const result = await tools.capture(OWNER, asked);
      expect(result.ok).toBe(true);
      expect(await screenshotObjects(store)).toEqual([result.ok ? result.stored!.key : ""]);
      expect(pool.inputs).toHaveLength(2);
      expect(await settled()).toMatchObject({ state: "done", attempts: 2, last_error: pool.lostReason });
      expect(await tempObjects(store)).toEqual([]);
    });

    test("a job whose attempts all fail goes dead, and the run hears why", async () => {
      const pool = new FakePool(["throw", "throw", "throw"]);
      const { tools, store, out } = await start([pool]);
      const asked = input(out);
      const result = await tools.capture(OWNER, asked);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.reason).toBe("The page could not be captured: the browser exploded (3 attempts)");
      expect(pool.inputs).toHaveLength(3);
      expect(await screenshotObjects(store)).toEqual([]);
      expect(await rig.run.one("SELECT state FROM jobs")).toEqual({ state: "dead" });
      expect(await tempObjects(store)).toEqual([]);
    });

    test("with no worker to take it, the wait ends at its limit with a reason", async () => {
      const { store, out } = await start([]);
      const tools = jobCaptureTools({
        db: rig.run,
        jobs: jobsService({ db: rig.run }),
        store,
        secret: APP_SECRET,
        folderOf,
        pollMs: 50,
        maxWaitMs: 300,
      });
      expect(await tools.capture(OWNER, input(out))).toEqual({ ok: false, reason: "No capture worker finished this page in time" });
    });

    test("a job that cannot be queued is a failed page, in the user's words rather than the driver's", async () => {
      const { store, out } = await start([]);
      const jobs = { ...jobsService({ db: rig.run }), enqueue: () => Promise.reject(new Error("relation jobs: internal detail")) };
      const tools = jobCaptureTools({ db: rig.run, jobs, store, secret: APP_SECRET, folderOf });
      expect(await tools.capture(OWNER, input(out))).toEqual({ ok: false, reason: "The page could not be queued for capture" });
    });

    test("a timing job's loads come back", async () => {
      const pool = new FakePool();
      const { tools } = await start([pool]);
      const own = [{ lcpMs: 900, fcpMs: 400 }] as never[];
      const result = await tools.time(OWNER, { url: "http://127.0.0.1:9/", viewport: "mobile", profile: "unthrottled", own, earlier: [] });
      expect(result).toEqual({ ok: true, timing: { samples: [...own, ...own], spread: {}, profile: "unthrottled" } as never });
      expect(await rig.run.all("SELECT job_id FROM capture_results")).toEqual([]);
    });

    test("answers nobody read are pruned once a day old, with their objects; younger ones stay", async () => {
      const { store, dir } = await start([]);
      const db = rig.run;
      const queue = jobsService({ db });
      const now = Date.now();
      const put = async (age: number, key: string | null) => {
        const id = await queue.enqueue({ kind: CAPTURE_KIND, payload: {}, ownerId: OWNER });
        if (key) await store.put(key, "png");
        await db.run("INSERT INTO capture_results (job_id, result, sealed, blob_key, created_at) VALUES ($1, '{}', NULL, $2, $3)", [
          id,
          key,
          now - age,
        ]);
        return id;
      };
      const old = await put(25 * 3_600_000, "capture-jobs/old.png");
      await put(26 * 3_600_000, null);
      const young = await put(3_600_000, "capture-jobs/young.png");
      // An object whose row is gone, a day old by its file's time.
      await store.put("capture-jobs/orphan.png", "png");
      const dayAgo = new Date(now - 25 * 3_600_000);
      utimesSync(join(dir, "capture-jobs", "orphan.png"), dayAgo, dayAgo);
      expect(await pruneCaptureResults({ db, store, now: () => now })).toEqual({ rows: 2, objects: 1 });
      expect((await db.all<{ job_id: string }>("SELECT job_id FROM capture_results")).map((r) => r.job_id)).toEqual([young]);
      expect((await tempObjects(store)).sort()).toEqual(["capture-jobs/young.png"]);
      expect(await db.one("SELECT job_id FROM capture_results WHERE job_id = $1", [old])).toBeNull();
    });

    if (name === "PostgreSQL")
      test("a lost notification: the slow poll finds the answer all the same", async () => {
        rig = await open();
        const [run, worker] = [rig.run, rig.workers[0]!];
        later(async () => {
          for (const db of [run, ...rig.workers]) await db.close();
        });
        const { store, cleanup } = tempStore();
        later(cleanup);
        // The worker's notifications go nowhere, as they would while the run's listening connection is down.
        const deaf: SqlDb = {
          ...worker,
          run: (text, params) => (text.includes("pg_notify") ? Promise.resolve(0) : worker.run(text, params)),
        };
        const runner = new JobRunner({
          queue: jobsService({ db: worker }),
          handlers: captureJobHandlers({ db: deaf, pool: new FakePool(), store, secret: APP_SECRET }),
          pollMs: 50,
        });
        runner.start();
        later(() => runner.stop());
        const tools = jobCaptureTools({ db: run, jobs: jobsService({ db: run }), store, secret: APP_SECRET, folderOf, pollMs: 300 });
        const stages: string[] = [];
        const out = mkdtempSync(join(tmpdir(), "capjobs-out-"));
        later(() => rmSync(out, { recursive: true, force: true }));
        const result = await tools.capture(OWNER, input(out, { secrets: undefined, steps: undefined }), (s) => stages.push(s));
        expect(result.ok).toBe(true);
        expect(stages).toEqual([]);
      });

    if (name === "PostgreSQL")
      test("two workers share six captures: each page captured once, by one of them", async () => {
        const pools = [new FakePool([], 150), new FakePool([], 150)];
        const { tools, store, out } = await start(pools, { concurrency: 1 });
        const asks = Array.from({ length: 6 }, (_, i) =>
          input(out, { url: `http://127.0.0.1:9/p${i}`, secrets: undefined, steps: undefined }),
        );
        const results = await Promise.all(asks.map((a) => tools.capture(OWNER, a)));
        expect(results.every((r) => r.ok)).toBe(true);
        const urls = pools.flatMap((p) => p.inputs.map((i) => i.url)).sort();
        expect(urls).toEqual(asks.map((a) => a.url).sort());
        expect(pools.every((p) => p.inputs.length > 0)).toBe(true);
        expect(await screenshotObjects(store)).toEqual([...new Set(results.map((r) => (r.ok ? r.stored!.key : "")))].sort());
        await waitFor("every job done", async () => (await rig.run.one("SELECT id FROM jobs WHERE state <> 'done'")) === null, 10_000, 20);
        expect(await rig.run.all("SELECT state, attempts FROM jobs WHERE attempts <> 1")).toEqual([]);
        expect(await tempObjects(store)).toEqual([]);
      });
  });
}
