// The active runs on a real database with fake run tools: what the HTTP tests cannot reach easily —
// the run context and its after-completion hook, shutdown mid-capture, and a crash on a full disk
// whose failure is recorded once space returns (or dropped when the comparison is deleted).
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { sqliteSql } from "#server/db/sql";
import { STORAGE_UNAVAILABLE_MESSAGE } from "#server/http/storage-errors";
import { screenshotFiles } from "#server/modules/comparisons/files";
import { comparisonsRepository } from "#server/modules/comparisons/repository";
import { INTERRUPTED_REASON, QUEUED_STAGE, activeRuns, pagesInRun, type RunContext } from "#server/modules/comparisons/active-runs";
import { fakeRunTools } from "#tests/api/comparisons-support";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const URLS = ["http://127.0.0.1:9/alpha", "http://127.0.0.1:9/beta"];

function storageFull() {
  return Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
}

async function setup(
  opts: { onCompleted?: (run: Readonly<RunContext>) => unknown; onClosed?: (run: Readonly<RunContext>) => unknown } = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), "di-active-runs-"));
  dirs.push(dataDir);
  const db = openDatabase(":memory:");
  migrate(db);
  db.query("INSERT INTO users (id, email, password_hash) VALUES ('u1', 'u1@example.com', 'x')").run();
  const sql = sqliteSql(db);
  const real = comparisonsRepository(sql);
  // The disk "fills up" for the writes a test picks.
  const full = { progress: false, finish: false };
  let finishCalls = 0;
  const repo: typeof real = {
    ...real,
    setProgress: async (...a) => {
      if (full.progress) throw storageFull();
      return real.setProgress(...a);
    },
    finish: async (...a) => {
      finishCalls++;
      if (full.finish) throw storageFull();
      return real.finish(...a);
    },
  };
  const fake = fakeRunTools();
  const logged: string[] = [];
  const runs = activeRuns({
    db: sql,
    repo,
    files: screenshotFiles(dataDir),
    tools: fake.tools,
    now: Date.now,
    log: (msg) => logged.push(msg),
    onCompleted: opts.onCompleted,
    onClosed: opts.onClosed,
  });
  const at = new Date().toISOString();
  await real.insertComparison({ id: "c1", ownerId: "u1", name: "Rivals", description: null, at });
  for (const [i, url] of URLS.entries())
    await real.insertTarget({ id: `t${i}`, comparisonId: "c1", ownerId: "u1", label: `Site ${i}`, url, at });
  async function start(runId?: string) {
    await real.markRunning("c1", "u1", pagesInRun(URLS.length), QUEUED_STAGE, at);
    await real.markTargetsCapturing("c1");
    return runs.launch({ ownerId: "u1", comparisonId: "c1", name: "Rivals", runId }, await real.listTargets("c1", "u1"));
  }
  const comparison = async () => (await real.findComparison("c1", "u1"))!;
  const targets = async () => (await real.listTargets("c1", "u1")).map((t) => [t.status, t.error]);
  const pngs = () => {
    const dir = join(dataDir, "screenshots");
    return existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".png")) : [];
  };
  return { db, real, runs, fake, logged, full, finishCalls: () => finishCalls, start, comparison, targets, pngs };
}

/** Polls a condition; the test's own timeout is the only limit. */
async function until(ok: () => boolean) {
  while (!ok()) await Bun.sleep(5);
}

describe("active runs", () => {
  test("a completed run hands its context to the after-completion hook, and closes only after it", async () => {
    let seen: Readonly<RunContext> | null = null;
    let release!: () => void;
    const hookDone = new Promise<void>((r) => (release = r));
    const t = await setup({
      onCompleted: async (run) => {
        seen = run;
        await hookDone;
      },
    });
    expect(await t.start("run-42")).toBe("run-42");
    expect(t.runs.isActive("c1")).toBe(true);
    await until(() => seen !== null);
    expect((await t.comparison()).status).toBe("completed");
    expect(seen!).toMatchObject({
      runId: "run-42",
      trigger: "manual",
      comparisonId: "c1",
      outcome: { status: "completed", error: null, recorded: true },
    });
    expect(seen!.scoring.desktop!.diffs.length + seen!.scoring.mobile!.diffs.length).toBe(2);
    expect(seen!.findings.length).toBe(4);
    // Still open: the hook's work belongs to the run.
    expect(t.runs.isActive("c1")).toBe(true);
    release();
    await t.runs.idle();
    expect(t.runs.isActive("c1")).toBe(false);
  });

  test("a failing hook is logged and changes nothing", async () => {
    const t = await setup({ onCompleted: () => Promise.reject(new Error("webhook down")) });
    await t.start();
    await t.runs.idle();
    expect((await t.comparison()).status).toBe("completed");
    expect(t.logged).toContain("after-completion work for comparison c1 failed");
  });

  test("every run that closes is reported once, after its outcome is stored: completed and interrupted alike", async () => {
    const closed: [string, string][] = [];
    const t = await setup({ onClosed: async (run) => void closed.push([run.runId, (await t.comparison()).status]) });
    await t.start("r1");
    await t.runs.idle();
    expect(closed).toEqual([["r1", "completed"]]);
    t.fake.holdCaptures();
    await t.start("r2");
    await t.fake.captureStarted();
    await t.runs.interruptAll();
    // Closed only once its captures in flight came back.
    expect(closed).toHaveLength(1);
    t.fake.release();
    await t.runs.idle();
    expect(closed).toEqual([
      ["r1", "completed"],
      ["r2", "failed"],
    ]);
  });

  test("shutdown mid-capture fails the run with the restart reason once; captures that finish later are not kept", async () => {
    const t = await setup();
    t.fake.holdCaptures();
    await t.start();
    await t.fake.captureStarted();
    expect(await t.runs.interruptAll()).toBe(1);
    expect(await t.runs.interruptAll()).toBe(0);
    expect(await t.comparison()).toMatchObject({ status: "failed", error: INTERRUPTED_REASON, progress_stage: "Failed" });
    expect(await t.targets()).toEqual([
      ["failed", INTERRUPTED_REASON],
      ["failed", INTERRUPTED_REASON],
    ]);
    const last = t.fake.published.at(-1)!.message as { type: string; payload: { status: string } };
    expect(last).toMatchObject({ type: "COMPARISON_STATUS", payload: { status: "failed" } });
    expect(t.fake.activity.map((a) => a.status)).toEqual(["info", "error"]);
    t.fake.release();
    await t.runs.idle();
    expect(t.db.query("SELECT COUNT(*) AS n FROM snapshots").get()).toEqual({ n: 0 });
    expect(t.pngs()).toEqual([]);
    expect((await t.comparison()).status).toBe("failed");
  });

  test("a crash on a full disk is recorded as failed once space returns, with the storage reason", async () => {
    const t = await setup();
    t.fake.holdCaptures();
    await t.start();
    await t.fake.captureStarted();
    t.full.progress = true;
    t.full.finish = true;
    t.fake.release();
    await until(() => t.finishCalls() >= 2);
    expect(t.logged).toContain("comparison run c1 crashed");
    expect((await t.comparison()).status).toBe("running");
    t.full.progress = false;
    t.full.finish = false;
    await t.runs.idle();
    expect(await t.comparison()).toMatchObject({ status: "failed", error: STORAGE_UNAVAILABLE_MESSAGE });
    expect(await t.targets()).toEqual([
      ["failed", STORAGE_UNAVAILABLE_MESSAGE],
      ["failed", STORAGE_UNAVAILABLE_MESSAGE],
    ]);
  });

  test("deleting the comparison while its failure is being retried stops the retries and removes its files", async () => {
    const t = await setup();
    t.fake.holdCaptures();
    await t.start();
    await t.fake.captureStarted();
    t.full.progress = true;
    t.full.finish = true;
    t.fake.release();
    await until(() => t.finishCalls() >= 2);
    await t.runs.cancel("c1");
    await t.real.deleteComparison("c1", "u1");
    const calls = t.finishCalls();
    // The back-off timer is the run's own work, so idle() waits for it: its attempt was dropped.
    await t.runs.idle();
    expect(t.finishCalls()).toBe(calls);
    expect(t.pngs()).toEqual([]);
  });

  test("boot recovery fails each orphaned comparison once, and leaves one with a run in this process alone", async () => {
    const t = await setup();
    t.fake.holdCaptures();
    await t.start();
    await t.fake.captureStarted();
    expect(await t.runs.recoverInterruptedRuns()).toBe(0);
    expect((await t.comparison()).status).toBe("running");

    const other = await setup();
    await other.real.markRunning("c1", "u1", 4, QUEUED_STAGE, new Date().toISOString());
    expect(await other.runs.recoverInterruptedRuns()).toBe(1);
    expect(await other.runs.recoverInterruptedRuns()).toBe(0);
    expect(await other.comparison()).toMatchObject({ status: "failed", error: INTERRUPTED_REASON });
    expect(other.fake.activity).toMatchObject([{ status: "error", details: INTERRUPTED_REASON }]);
    t.fake.release();
    await t.runs.idle();
    expect((await t.comparison()).status).toBe("completed");
  });
});
