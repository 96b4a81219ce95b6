// The repositories of comparisons, runs, history, filmstrips and share links run the same
// statements on SQLite and PostgreSQL with the same answers: one scenario from a comparison's
// creation through a run, its results, retention and share links, read back at every step.
import { expect } from "bun:test";
import type { SqlDb } from "#server/db/sql";
import type { DiffRow, FindingRow, SnapshotRow } from "#server/modules/comparisons/repository";
import { comparisonsRepository } from "#server/modules/comparisons/repository";
import { filmstripRepository } from "#server/modules/filmstrip/repository";
import { historyRepository } from "#server/modules/history/repository";
import { shareRepository } from "#server/modules/share/repository";
import { scenarioOnBothDialects } from "#tests/support/dialects";

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, "0")}:00.000Z`;
const uuid = (n: number) => `0190c0de-0000-7000-8000-${String(n).padStart(12, "0")}`;

/** Everything the scenario reads back, in order; the same on both dialects. */
async function scenario(db: SqlDb): Promise<Record<string, unknown>> {
  const repo = comparisonsRepository(db);
  const history = historyRepository(db);
  const film = filmstripRepository(db);
  const shares = shareRepository(db);
  const out: Record<string, unknown> = {};
  await db.run("INSERT INTO users (id, email, password_hash, created_at) VALUES ('u1', 'u1@example.com', 'x', $1)", [at(0)]);

  const C = uuid(1);
  await repo.insertComparison({ id: C, ownerId: "u1", name: "Rivals", description: null, at: at(1) });
  await repo.insertComparison({ id: uuid(2), ownerId: "u1", name: "Other", description: "d", at: at(1) });
  out.list = (await repo.listComparisons("u1")).map((c) => [c.id, c.name, c.target_count, c.status]);
  out.count = await repo.countComparisons("u1");
  // Two sites added in the same millisecond: their ids say which came first.
  const [T1, T2] = [uuid(11), uuid(12)];
  await repo.insertTarget({ id: T2, comparisonId: C, ownerId: "u1", label: "B", url: "https://b.example/en/?x=1", at: at(2) });
  await repo.insertTarget({ id: T1, comparisonId: C, ownerId: "u1", label: "A", url: "https://a.example", at: at(2) });
  out.targets = (await repo.listTargets(C, "u1")).map((t) => [t.id, t.label, t.status]);
  out.countTargets = await repo.countTargets(C);
  out.hasUrl = [await repo.hasTargetUrl(C, "https://a.example"), await repo.hasTargetUrl(C, "https://c.example")];
  const pages = await repo.listPagesOfComparison(C, "u1");
  out.pages = pages.map((p) => [p.id, p.target_id, p.path, p.role, p.position]);
  out.findTarget = (await repo.findTarget(T1, "u1"))?.url;

  // A run: the comparison running, its row opened once, progress and target states during it.
  const R1 = uuid(21);
  await repo.markRunning(C, "u1", 4, "Queued", at(3));
  await repo.markTargetsCapturing(C);
  await repo.openRun({ id: R1, comparisonId: C, ownerId: "u1", trigger: "manual", at: at(3) });
  await repo.openRun({ id: R1, comparisonId: C, ownerId: "u1", trigger: "manual", at: at(3) });
  out.progress = await repo.setProgress(C, 1, 4, "Captured 1 of 4 pages", at(4));
  await repo.setTargetStatus(T1, "completed", null);
  out.running = (await repo.runningComparisons()).map((c) => [c.id, c.status, c.progress_done, c.progress_total, c.progress_stage]);

  const home = (target: string) => pages.find((p) => p.target_id === target)!.id;
  const snapshot = (n: number, target: string, viewport: "desktop" | "mobile", minute: number): SnapshotRow => ({
    id: uuid(n),
    target_id: target,
    comparison_id: C,
    owner_id: "u1",
    viewport,
    captured_at: at(minute),
    screenshot_path: `screenshots/u1/${C}/${target === T1 ? "a" : "b"}.png`,
    title: `Page ${n}`,
    colors: '["#112233"]',
    width: 1280,
    height: 900,
    extraction: JSON.stringify({ timing: { samples: [{ lcpMs: 100 + n }], profile: "unthrottled", browser: "chromium 1" } }),
    run_id: R1,
    content_hash: "0".repeat(64),
    file_bytes: 1000 + n,
    page_id: home(target),
    color_scheme: "light",
    step: null,
  });
  out.inserted = [
    await repo.insertSnapshot(snapshot(31, T1, "desktop", 5)),
    await repo.insertSnapshot(snapshot(32, T2, "desktop", 5)),
    await repo.insertSnapshot(snapshot(33, T1, "mobile", 5)),
    // Captured again at the same time: the newer id is the latest.
    await repo.insertSnapshot(snapshot(34, T1, "mobile", 5)),
  ];
  out.extraction = await repo.setSnapshotExtraction(uuid(31), "u1", JSON.stringify({ timing: { samples: [], profile: "slow-4g" } }));
  out.latest = (await repo.latestSnapshots(C, "u1")).map((s) => [s.id, s.target_id, s.viewport, s.role, s.path]);
  out.findSnapshot = (await repo.findSnapshot(uuid(32), "u1"))?.role;
  // The samples are JSON text, spaced as each database writes JSON: read as JSON.
  out.timings = (await repo.recentTimings("u1", "https://a.example", "mobile", at(0), 5)).map((t) => ({
    ...t,
    samples: JSON.parse(t.samples ?? "null") as unknown,
  }));
  out.pathsOfTarget = await repo.snapshotPathsOfTarget(T1);

  const diff: DiffRow = {
    id: uuid(41),
    comparison_id: C,
    owner_id: "u1",
    viewport: "desktop",
    target_a_id: T2,
    target_b_id: T1,
    color_similarity: 0.5,
    layout_similarity: 0.25,
    content_similarity: 0.75,
    overall_similarity: 0.5,
    components: '{"design":0.4}',
    created_at: at(6),
    run_id: R1,
    role: "home",
    color_scheme: "light",
    page_a_id: home(T2),
    page_b_id: home(T1),
  };
  const finding: FindingRow = {
    id: uuid(51),
    comparison_id: C,
    owner_id: "u1",
    target_id: T1,
    viewport: "desktop",
    grp: "ux",
    severity: "high",
    title: "CTA",
    evidence: "{}",
    fix: "Do it",
    source: "rule",
    position: 0,
    created_at: at(6),
    run_id: R1,
    rule: null,
    page_id: home(T1),
    color_scheme: "light",
  };
  await db.tx(async () => {
    out.finished = await repo.finish(C, "completed", null, "Completed", at(7));
    await repo.finishRun(R1, "completed", null, at(7));
    await repo.insertResults([diff], [finding]);
  });
  out.finishedAgain = await repo.finish(C, "failed", "x", "Failed", at(8));
  out.lateSnapshot = await repo.insertSnapshot(snapshot(35, T2, "mobile", 9));
  out.diffs = (await repo.listDiffs(C, "u1")).map((d) => [d.id, d.overall_similarity, d.components]);
  out.findings = (await repo.listFindings(C, "u1")).map((f) => [f.id, f.role, f.path, f.rule]);
  out.comparison = await repo.findComparison(C, "u1");
  await repo.setConsent(C, "u1", "accept", at(9));
  await repo.setColorSchemes(C, "u1", ["light", "dark"], at(9));
  out.settings = (({ consent, color_schemes }) => ({ consent, color_schemes }))((await repo.findComparison(C, "u1"))!);

  // A second run, interrupted; retention keeps the newest one ended run.
  const R2 = uuid(22);
  await repo.markRunning(C, "u1", 4, "Queued", at(10));
  await repo.openRun({ id: R2, comparisonId: C, ownerId: "u1", trigger: "schedule", at: at(10) });
  await repo.failUnfinishedTargets(C, "Restarted");
  await repo.interruptRuns(C, "Restarted", at(11));
  out.history = (await history.listRuns(C, "u1")).map((r) => [r.id, r.number, r.trigger, r.status, r.error]);
  out.findRun = (await history.findRun(R1, C, "u1"))?.number;
  out.lastCompleted = (await history.lastCompletedRuns(C, "u1", 5)).map((r) => r.id);
  out.before = [(await history.completedRunBefore(C, 2))?.id ?? null, (await history.completedRunBefore(C, 1))?.id ?? null];
  out.runSnapshots = (await history.runSnapshots(R1, "u1")).map((s) => [s.id, s.viewport, s.role]);
  out.runDiffs = (await history.runDiffs(R1, "u1")).map((d) => d.id);
  out.runFindings = (await history.runFindings(R1, "u1")).map((f) => [f.id, f.path]);
  out.storage = await history.storage();

  out.film = [
    await film.ownsComparison("u1", C),
    await film.ownsComparison("u2", C),
    (await film.latestSnapshots("u1", C)).map((s) => s.id),
    (await film.findSnapshot("u1", uuid(33)))?.viewport,
    [...(await film.snapshotIds(C))].sort(),
  ];

  const S1 = uuid(61);
  await shares.insert({ id: S1, comparisonId: C, runId: R1, tokenHash: "h1", createdBy: "u1", at: at(12), expiresAt: null });
  await shares.insert({ id: uuid(62), comparisonId: C, runId: R1, tokenHash: "h2", createdBy: "u1", at: at(12), expiresAt: at(59) });
  await shares.countView(S1, at(13));
  out.shares = [
    await shares.countFor(C),
    (await shares.listFor(C)).map((s) => [s.id, s.run_number, s.creator_email, s.views]),
    (await shares.find(S1))?.last_viewed_at,
    await shares.revoke(S1, at(14)),
    await shares.revoke(S1, at(15)),
    (await shares.byTokenHash("h1"))?.comparison_name,
    await shares.ownsComparison(C, "u1"),
    (await shares.findRun(R2, C))?.status,
    (await shares.latestCompletedRun(C))?.id,
    await shares.snapshotInRun(uuid(31), R1, C),
    await shares.snapshotInRun(uuid(31), R2, C),
  ];

  out.beyond = await repo.runsBeyond(C, 1);
  out.pathsOfRun = await repo.snapshotPathsOfRun(R1);
  out.inUse = [await repo.pathInUse(`screenshots/u1/${C}/a.png`), await repo.pathInUse("nope")];
  for (const id of out.beyond as string[]) await repo.deleteRun(id);
  out.afterPrune = [(await history.listRuns(C, "u1")).map((r) => r.number), await repo.pathInUse(`screenshots/u1/${C}/a.png`)];
  out.deleted = [await repo.deleteTarget(T2, "u1"), await repo.deleteComparison(C, "u1"), await repo.deleteComparison(C, "u1")];
  out.left = (await repo.listComparisons("u1")).map((c) => c.id);
  return out;
}

scenarioOnBothDialects("runs, history, filmstrips and shares", scenario, (out) => {
  expect(out.targets).toEqual([
    [uuid(11), "A", "pending"],
    [uuid(12), "B", "pending"],
  ]);
  expect(out.latest).toEqual([
    [uuid(31), uuid(11), "desktop", "home", "/"],
    [uuid(34), uuid(11), "mobile", "home", "/"],
    [uuid(32), uuid(12), "desktop", "home", "/en/?x=1"],
  ]);
  expect(out.timings).toEqual([
    { at: at(5), samples: [{ lcpMs: 134 }], profile: "unthrottled", browser: "chromium 1" },
    { at: at(5), samples: [{ lcpMs: 133 }], profile: "unthrottled", browser: "chromium 1" },
  ]);
  expect(out.history).toEqual([
    [uuid(22), 2, "schedule", "interrupted", "Restarted"],
    [uuid(21), 1, "manual", "completed", null],
  ]);
  expect(out.storage).toEqual({ runs: 2, snapshots: 4, files: 2, bytes: 1034 + 1032, raw: 1031 + 1032 + 1033 + 1034 });
  expect(out.beyond).toEqual([uuid(21)]);
  expect(out.afterPrune).toEqual([[2], false]);
  expect(out.deleted).toEqual([true, true, false]);
});
