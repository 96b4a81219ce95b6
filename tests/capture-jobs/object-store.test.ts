// Screenshots of capture jobs in an S3-compatible store (s3rver on loopback), on SQLite. A run
// driven as a serve drives it (capture and pair-scoring jobs, no browser, no pixels): each page's
// worker stores its screenshot once, under the content key the run records; the run adopts it
// without a second upload and keeps no copy; the pairs are scored by the worker. A page its run
// does not record is removed from the bucket; one whose steps stopped comes back stored the same way.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqlDb } from "#server/db/sql";
import { createAnalyser, type Analyser } from "#server/modules/analysis";
import { filmstripDirFor, MANIFEST_FILE, type CaptureJobInput, type CaptureResult } from "#server/modules/capture/public";
import { captureJobHandlers, jobAnalyser, jobCaptureTools, pairJobHandlers, storedCopies } from "#server/modules/capture-jobs/public";
import { screenshotFiles } from "#server/modules/comparisons/public";
import { JobRunner, jobsService } from "#server/modules/jobs/public";
import type { BlobStore } from "#server/modules/storage";
import { alpha, beta } from "#tests/analysis/pages";
import { makeTestApp } from "#tests/support/app";
import { startS3Server, type S3TestServer } from "#tests/support/s3-server";
import { waitFor } from "#tests/support/wait";
import { APP_SECRET, FakePool, folderOf, keyOf, OWNER, SESSION, sqliteHandle } from "./support";

setDefaultTimeout(60_000);

const A = alpha();
const B = beta();
/** A filmstrip frame's bytes (the route streams them as they are). */
const FRAME = new TextEncoder().encode("frame of a load");
const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

let s3: S3TestServer;
const dirs: string[] = [];
const tempDir = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), name));
  dirs.push(d);
  return d;
};
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Counts the PUTs made through `store` (the same object its owner writes through). */
function countPuts(store: BlobStore): string[] {
  const puts: string[] = [];
  const put = store.put.bind(store);
  store.put = (key, data, type) => {
    puts.push(key);
    return put(key, data, type);
  };
  return puts;
}

/** A capture pool that draws the synthetic Alpha or Beta page (by URL), after `delayMs[url]`. */
function pagesPool(delayMs: Record<string, number> = {}) {
  return {
    async submit(_owner: string, input: CaptureJobInput): Promise<CaptureResult> {
      await Bun.sleep(delayMs[input.url] ?? 0);
      const page = input.url.includes("alpha") ? A : B;
      await Bun.write(input.screenshotPath, page.png);
      // The load's filmstrip, recorded beside the screenshot as the capture does.
      const film = filmstripDirFor(input.screenshotPath);
      await Bun.write(join(film, "000.jpg"), FRAME);
      await Bun.write(
        join(film, MANIFEST_FILE),
        JSON.stringify({ version: 1, width: 1440, height: 900, frames: [{ ms: 120, file: "000.jpg" }] }),
      );
      return { ok: true, extraction: { ...page.extraction, viewport: input.viewport }, screenshotPath: input.screenshotPath };
    },
    submitTiming: async () => ({ ok: false as const, reason: "not timed here" }),
  };
}

let prefixes = 0;
/** An app driving runs as a serve does, and a worker beside it on the same database and bucket. */
function deployment(delayMs: Record<string, number> = {}) {
  const prefix = `d${++prefixes}`;
  const t = makeTestApp({ env: { DATA_DIR: tempDir("capjobs-serve-"), ALLOW_PRIVATE_TARGETS: "1", ...s3.env(prefix) }, runTools: {} });
  const driverStore = t.services.storage.store;
  const driverPuts = countPuts(driverStore);
  const worker = s3.storage(prefix);
  const workerPuts = countPuts(worker.store);
  const workerAnalyser: Analyser = createAnalyser();
  const copies = storedCopies(worker.store, join(worker.workDir!, "pair-copies"));
  const runner = new JobRunner({
    queue: jobsService({ db: t.sql }),
    handlers: {
      ...captureJobHandlers({
        db: t.sql,
        pool: pagesPool(delayMs),
        store: worker.store,
        secret: APP_SECRET,
        workDir: worker.workDir,
        scoring: { copies, analyser: workerAnalyser },
      }),
      ...pairJobHandlers({ db: t.sql, analyser: workerAnalyser, copies, secret: APP_SECRET }),
    },
    pollMs: 50,
    concurrency: 4,
  });
  runner.start();
  const ask = { db: t.sql, jobs: jobsService({ db: t.sql }), store: driverStore, wake: () => runner.poke() };
  // As src/boot/capture-jobs.ts wires a serve's runs.
  const { folderOf: folderOfPath } = screenshotFiles(t.env.DATA_DIR, t.services.storage);
  Object.assign(t.tools!, {
    capture: jobCaptureTools({ ...ask, secret: APP_SECRET, folderOf: folderOfPath }).capture,
    analyser: jobAnalyser(ask),
  });
  const keys = async () => (await s3.keys()).filter((k) => k.startsWith(`${prefix}/`)).map((k) => k.slice(prefix.length + 1));
  const stop = async () => {
    await runner.stop();
    workerAnalyser.close();
  };
  return { t, driverPuts, workerPuts, keys, stop, workDir: t.services.storage.workDir!, workerDir: worker.workDir! };
}

async function runComparison(t: ReturnType<typeof makeTestApp>) {
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Rivals" }, headers: h })).json;
  for (const [url, label] of [
    ["http://127.0.0.1:9/alpha", "Alpha"],
    ["http://127.0.0.1:9/beta", "Beta"],
  ])
    await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: h });
  expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
  await t.services.comparisons.whenIdle();
  const get = async (path = "") => (await t.call("GET", `/api/comparisons/${c.id}${path}`, { headers: h })).json;
  return { folder: `screenshots/${u.user.id}/${c.id}`, get, h };
}

const pngsUnder = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((n) => String(n).endsWith(".png")) : []);

describe("a run driven over capture and pair jobs", () => {
  test("each screenshot is stored once, by its worker, under the content key the run records; no copy, no temporary object", async () => {
    const d = deployment();
    try {
      const { folder, get, h } = await runComparison(d.t);
      expect((await get()).status).toBe("completed");
      const stored = [A.png, B.png].map((png) => `${folder}/${sha256(png)}.png`).sort();
      // Only content keys and the snapshots' filmstrips: nothing under capture-jobs/.
      const keys = await d.keys();
      expect(keys.filter((k) => !k.startsWith(`${folder}/filmstrips/`)).sort()).toEqual(stored);
      // The snapshots name them; each of the four captures was put once by the worker, the run put nothing.
      const snaps = d.t.db.query<{ screenshot_path: string }, []>("SELECT screenshot_path FROM snapshots").all();
      expect(snaps).toHaveLength(4);
      expect([...new Set(snaps.map((s) => s.screenshot_path))].sort()).toEqual(stored);
      expect(d.workerPuts.filter((k) => k.endsWith(".png")).sort()).toEqual([...stored, ...stored].sort());
      expect(d.driverPuts).toEqual([]);
      // The pairs were scored (by the worker): one a viewport.
      const diffs = d.t.db.query<{ overall_similarity: number }, []>("SELECT overall_similarity FROM diffs").all();
      expect(diffs).toHaveLength(2);
      for (const diff of diffs) expect(diff.overall_similarity).toBeGreaterThan(0);
      // The driving instance holds no screenshot of its own.
      expect(pngsUnder(d.workDir)).toEqual([]);
      // Each snapshot's load filmstrip was stored by its worker where the app serves it from, and is served.
      const snapIds = d.t.db
        .query<{ id: string }, []>("SELECT id FROM snapshots ORDER BY id")
        .all()
        .map((s) => s.id);
      expect(keys.filter((k) => k.startsWith(`${folder}/filmstrips/`)).sort()).toEqual(
        snapIds.flatMap((id) => [`${folder}/filmstrips/${id}/000.jpg`, `${folder}/filmstrips/${id}/${MANIFEST_FILE}`]).sort(),
      );
      const strips = await get("/filmstrips");
      expect(strips.map((s: { snapshotId: string }) => s.snapshotId).sort()).toEqual(snapIds);
      const frame = await d.t.call("GET", strips[0].frames[0].url, { headers: h });
      expect(frame.status).toBe(200);
      // The worker keeps nothing of a job once it is answered: no screenshot, no recording.
      expect(readdirSync(d.workerDir).filter((n) => n !== "pair-copies")).toEqual([]);
    } finally {
      await d.stop();
    }
  });

  test("a page its run does not record (it answered after its page timed out) is removed from the bucket", async () => {
    const d = deployment({ "http://127.0.0.1:9/beta": 1_500 });
    d.t.tools!.captureTimeoutMs = 400;
    try {
      const { folder, get } = await runComparison(d.t);
      expect((await get()).status).toBe("failed");
      const late = `${folder}/${sha256(B.png)}.png`;
      await waitFor("the late page's upload", () => d.workerPuts.includes(late), 20_000, 50);
      await waitFor("the late page's object to go", async () => !(await d.keys()).includes(late), 20_000, 50);
      // (A recording whose snapshot was never stored goes with the filmstrips' own prune, as on the single process.)
      expect((await d.keys()).filter((k) => !k.startsWith(`${folder}/filmstrips/`))).toEqual([`${folder}/${sha256(A.png)}.png`]);
      expect(d.driverPuts).toEqual([]);
    } finally {
      await d.stop();
    }
  });
});

test("a capture stopped at a step: its step and session come back, and its screenshot stored under its content key", async () => {
  const db: SqlDb = await sqliteHandle();
  const { store, workDir } = s3.storage("installs/one");
  const pool = new FakePool(["stopped"]);
  const runner = new JobRunner({
    queue: jobsService({ db }),
    handlers: captureJobHandlers({ db, pool, store, secret: APP_SECRET, workDir }),
  });
  runner.start();
  try {
    const tools = jobCaptureTools({ db, jobs: jobsService({ db }), store, secret: APP_SECRET, folderOf, wake: () => runner.poke() });
    const screenshotPath = join(tempDir("capjobs-s3-"), "stopped.png");
    const result = await tools.capture(OWNER, { url: "http://127.0.0.1:9/", viewport: "desktop", screenshotPath, keepSession: true });
    const png = pool.pngs.get("http://127.0.0.1:9/")!;
    const key = keyOf(png);
    expect(result).toEqual({
      ok: false,
      reason: 'Step 2: nothing on the page matches "#go"',
      step: { index: 2, error: 'nothing on the page matches "#go"' },
      screenshotPath,
      stored: { key, sha256: sha256(png), bytes: png.byteLength, width: 8, height: 6 },
      session: SESSION,
    });
    expect(existsSync(screenshotPath)).toBe(false);
    expect(await s3.keys()).toContain(`installs/one/${key}`);
    expect((await s3.keys()).filter((k) => k.includes("capture-jobs/"))).toEqual([]);
  } finally {
    await runner.stop();
    await db.close();
  }
});
