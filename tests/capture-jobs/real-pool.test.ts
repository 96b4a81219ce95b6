// The job path end to end with a real capture pool (Debian's Chromium, loopback targets allowed) on
// SQLite: a run side's capture enqueues, a JobRunner with the worker handlers captures the fixture
// site, and the run gets the extraction and the stages, the whole PNG stored under its content key.
// A second page signs in with a secret and hands back its session through the sealed answer.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import type { SqlDb } from "#server/db/sql";
import { findChromium } from "#server/lib/chromium";
import { CapturePool } from "#server/modules/capture/browser/pool";
import { captureJobHandlers, jobCaptureTools, type JobCaptureTools } from "#server/modules/capture-jobs/public";
import { JobRunner, jobsService } from "#server/modules/jobs/public";
import type { BlobStore } from "#server/modules/storage";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { LOGIN_EMAIL, LOGIN_PASSWORD, loginSite } from "#tests/support/login-site";
import { APP_SECRET, folderOf, keyOf, OWNER, sqliteHandle, tempObjects, tempStore } from "./support";

// Two real captures, one at a time, each within the pool's 60 s.
setDefaultTimeout(180_000);

let site: FixtureServer;
let pool: CapturePool;
let db: SqlDb;
let runner: JobRunner;
let tools: JobCaptureTools;
let store: BlobStore;
let out: string;
let cleanStore: () => void;

beforeAll(async () => {
  site = startFixtureServer(
    undefined,
    loginSite(() => site.origin),
  );
  pool = new CapturePool({
    concurrency: 1,
    chromiumPath: findChromium(process.env.CHROMIUM_PATH),
    allowPrivate: true,
    navigationTimeoutMs: 30_000,
    totalTimeoutMs: 60_000,
    timingSamples: 1,
  });
  db = await sqliteHandle();
  ({ store, cleanup: cleanStore } = tempStore());
  runner = new JobRunner({
    queue: jobsService({ db }),
    handlers: captureJobHandlers({ db, pool, store, secret: APP_SECRET }),
    concurrency: 1,
  });
  runner.start();
  tools = jobCaptureTools({ db, jobs: jobsService({ db }), store, secret: APP_SECRET, folderOf, wake: () => runner.poke() });
  out = mkdtempSync(join(tmpdir(), "capjobs-real-"));
});

afterAll(async () => {
  await runner?.stop();
  await pool?.close();
  await site?.close();
  await db?.close();
  cleanStore?.();
  if (out) rmSync(out, { recursive: true, force: true });
});

test("a fixture page captured through a job: extraction, stages and the PNG stored under its content key", async () => {
  const stages: string[] = [];
  const screenshotPath = join(out, "alpha.png");
  const result = await tools.capture(OWNER, { url: site.url("/alpha/"), viewport: "desktop", screenshotPath }, (s) => stages.push(s));
  if (!result.ok) throw new Error(result.reason);
  expect(result.screenshotPath).toBe(screenshotPath);
  expect(result.extraction.title).toBe("Orbit — Plan launches your whole team can follow");
  const bytes = (await store.get(result.stored!.key))!;
  expect(result.stored!.key).toBe(keyOf(bytes));
  const png = PNG.sync.read(Buffer.from(bytes));
  expect([png.width, png.height]).toEqual([result.stored!.width, result.stored!.height]);
  expect(png.width).toBe(1440);
  expect(png.height).toBe(result.extraction.capturedHeight);
  expect(stages).toEqual(["navigating", "settling", "measuring", "screenshot"]);
  expect(await db.all("SELECT job_id FROM capture_results")).toEqual([]);
  expect(await tempObjects(store)).toEqual([]);
});

test("a page behind a sign-in: the secret reaches the browser sealed, the session comes back sealed", async () => {
  const result = await tools.capture(OWNER, {
    url: site.url("/login-site/pricing/"),
    viewport: "desktop",
    screenshotPath: join(out, "pricing.png"),
    steps: [
      { type: "fill", selector: "#email", value: LOGIN_EMAIL },
      { type: "fill", selector: "#password", value: "{{secret:password}}" },
      { type: "click", text: "Sign in" },
      { type: "wait", selector: "#plan, #features" },
    ],
    secrets: { password: LOGIN_PASSWORD },
    siteOrigin: site.origin,
    keepSession: true,
  });
  if (!result.ok) throw new Error(result.reason);
  expect(JSON.stringify(result.extraction.copy)).toContain("Members' price");
  expect(result.session?.cookies.length).toBeGreaterThan(0);
  const payloads = JSON.stringify(await db.all("SELECT payload FROM jobs"));
  expect(payloads).not.toContain(LOGIN_PASSWORD);
});
