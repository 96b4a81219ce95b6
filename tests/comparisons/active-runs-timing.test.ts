// The run's extra timing loads: every capture times its page with its own load, and once a
// viewport's pages are all in, only the pages a timing finding could be about are loaded again.
// Findings and the stored snapshot see the timing over all loads.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { sqliteSql } from "#server/db/sql";
import type { Extraction } from "#server/modules/capture/model";
import type { Vitals } from "#server/modules/capture/page/types";
import { summariseSamples } from "#server/modules/capture/timing/timing-samples";
import { screenshotFiles } from "#server/modules/comparisons/files";
import { comparisonsRepository } from "#server/modules/comparisons/repository";
import { activeRuns, pagesInRun, QUEUED_STAGE, type TimeFn } from "#server/modules/comparisons/active-runs";
import type { Snapshot } from "#server/modules/capture/model";
import { fakeRunTools } from "#tests/api/comparisons-support";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const load = (fcpMs: number, lcpMs: number): Vitals => ({
  ttfbMs: 20,
  fcpMs,
  lcpMs,
  cls: 0,
  domContentLoadedMs: 60,
  loadMs: 300,
  lcpElement: "img.hero",
});

/** Two sites whose first loads are given; `time` answers with one more load 140 ms slower (LCP), or fails. */
async function run(first: Record<string, Vitals>, timeAnswer: "ok" | "fail" = "ok") {
  const dataDir = mkdtempSync(join(tmpdir(), "di-active-runs-timing-"));
  dirs.push(dataDir);
  const db = openDatabase(":memory:");
  migrate(db);
  db.query("INSERT INTO users (id, email, password_hash) VALUES ('u1', 'u1@example.com', 'x')").run();
  const sql = sqliteSql(db);
  const repo = comparisonsRepository(sql);
  const fake = fakeRunTools();
  const timed: { url: string; viewport: string; own: Vitals[] }[] = [];
  const seen: Snapshot[][] = [];
  const time: TimeFn = async (_owner, job) => {
    timed.push({ url: job.url, viewport: job.viewport, own: job.own });
    if (timeAnswer === "fail") return { ok: false, reason: "The browser crashed while capturing this page" };
    const more = { ...job.own[0]!, fcpMs: job.own[0]!.fcpMs! + 30, lcpMs: job.own[0]!.lcpMs! + 140 };
    return { ok: true, timing: summariseSamples([...job.own, more], job.profile) };
  };
  const logged: string[] = [];
  const runs = activeRuns({
    db: sql,
    repo,
    files: screenshotFiles(dataDir),
    tools: {
      ...fake.tools,
      time,
      capture: async (owner, job, onStage) => {
        expect(job.deferTiming).toBe(true);
        const r = await fake.tools.capture!(owner, job, onStage);
        if (!r.ok) return r;
        const x: Extraction = r.extraction;
        return { ...r, extraction: { ...x, timing: { ...x.timing, ...summariseSamples([first[job.url]!], "unthrottled") } } };
      },
      findingsFor: (pages) => {
        seen.push(pages);
        return [];
      },
    },
    now: Date.now,
    log: (msg) => logged.push(msg),
  });
  const at = new Date().toISOString();
  await repo.insertComparison({ id: "c1", ownerId: "u1", name: "Rivals", description: null, at });
  const urls = Object.keys(first);
  for (const [i, url] of urls.entries())
    await repo.insertTarget({ id: `t${i}`, comparisonId: "c1", ownerId: "u1", label: `Site ${i}`, url, at });
  await repo.markRunning("c1", "u1", pagesInRun(urls.length), QUEUED_STAGE, at);
  await repo.markTargetsCapturing("c1");
  await runs.launch({ ownerId: "u1", comparisonId: "c1", name: "Rivals" }, await repo.listTargets("c1", "u1"));
  await runs.idle();
  const stored = (await repo.latestSnapshots("c1", "u1")).map((s) => ({
    url: urls[Number(s.target_id.slice(1))]!,
    x: JSON.parse(s.extraction) as Extraction,
  }));
  return { timed, seen: seen[0] ?? [], stored, logged, status: (await repo.findComparison("c1", "u1"))!.status };
}

const A = "http://127.0.0.1:9/a";
const B = "http://127.0.0.1:9/b";

describe("extra timing loads, decided across the run's sites", () => {
  test("pages a finding could be about are loaded again; findings and the stored snapshots get every load", async () => {
    const r = await run({ [A]: load(300, 400), [B]: load(350, 1400) });
    expect(r.status).toBe("completed");
    // Both sides of the pair, at both viewports, each with its capture's own load handed over.
    expect(r.timed.map((t) => `${t.url} ${t.viewport}`).sort()).toEqual([`${A} desktop`, `${A} mobile`, `${B} desktop`, `${B} mobile`]);
    expect(r.timed.every((t) => t.own.length === 1 && t.own[0]!.domContentLoadedMs === 60)).toBe(true);
    expect(r.seen).toHaveLength(4);
    for (const p of r.seen) expect(p.extraction.timing.samples).toHaveLength(2);
    const b = r.seen.find((p) => p.url === B && p.viewport === "desktop")!;
    expect(b.extraction.timing.spread?.lcpMs).toEqual({ min: 1400, max: 1540 });
    expect(b.extraction.timing.lcpMs).toBe(1470);
    // The rest of the extraction is the capture's.
    expect(b.extraction.timing.bytes).toBe(1000);
    expect(r.stored).toHaveLength(4);
    for (const s of r.stored) expect(s.x.timing.samples).toHaveLength(2);
  });

  test("sites too close for any timing finding keep their one load: nothing is loaded again", async () => {
    const r = await run({ [A]: load(300, 400), [B]: load(320, 450) });
    expect(r.status).toBe("completed");
    expect(r.timed).toEqual([]);
    for (const p of r.seen) expect(p.extraction.timing.samples).toHaveLength(1);
    for (const s of r.stored) expect(s.x.timing.samples).toHaveLength(1);
  });

  test("timing loads that fail leave the first load's figures, and the run completes", async () => {
    const r = await run({ [A]: load(300, 400), [B]: load(350, 1400) }, "fail");
    expect(r.status).toBe("completed");
    expect(r.timed).toHaveLength(4);
    for (const p of r.seen) expect(p.extraction.timing.samples).toHaveLength(1);
    expect(r.seen.find((p) => p.url === B && p.viewport === "desktop")!.extraction.timing.lcpMs).toBe(1400);
    expect(r.logged.some((m) => m.includes("timing loads of t1") && m.includes("crashed"))).toBe(true);
  });
});
