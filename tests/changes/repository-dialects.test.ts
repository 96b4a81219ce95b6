// The changes repository (and the feed and counts over it) runs the same statements on SQLite and
// PostgreSQL with the same answers: two workspaces' runs, a page's earlier captures, stored changes
// with their count, page sets listed twice, and the change feed for one owner and for all.
import { expect } from "bun:test";
import type { SqlDb } from "#server/db/sql";
import { changeCounts, changeHistory } from "#server/modules/changes/public";
import { changesRepository, type ChangeRow } from "#server/modules/changes/repository";
import { comparisonsRepository, type SnapshotRow } from "#server/modules/comparisons/repository";
import { scenarioOnBothDialects } from "#tests/support/dialects";

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, "0")}:00.000Z`;
const uuid = (n: number) => `0190c0de-0000-7000-8000-${String(n).padStart(12, "0")}`;

/** Everything the scenario reads back, in order; the same on both dialects. */
async function scenario(db: SqlDb): Promise<Record<string, unknown>> {
  const cmp = comparisonsRepository(db);
  const repo = changesRepository(db);
  const out: Record<string, unknown> = {};
  for (const u of ["u1", "u2"])
    await db.run("INSERT INTO users (id, email, password_hash, created_at) VALUES ($1, $2, 'x', $3)", [u, `${u}@example.com`, at(0)]);

  // u1 compares two sites; u2 one.
  const [C, D] = [uuid(1), uuid(2)];
  const [T1, T2, T3] = [uuid(11), uuid(12), uuid(13)];
  await cmp.insertComparison({ id: C, ownerId: "u1", name: "Rivals", description: null, at: at(1) });
  await cmp.insertComparison({ id: D, ownerId: "u2", name: "Theirs", description: null, at: at(1) });
  await cmp.insertTarget({ id: T1, comparisonId: C, ownerId: "u1", label: "A", url: "https://a.example", at: at(2) });
  await cmp.insertTarget({ id: T2, comparisonId: C, ownerId: "u1", label: "B", url: "https://b.example/en/", at: at(2) });
  await cmp.insertTarget({ id: T3, comparisonId: D, ownerId: "u2", label: "C", url: "https://c.example", at: at(2) });
  const pages = [...(await cmp.listPagesOfComparison(C, "u1")), ...(await cmp.listPagesOfComparison(D, "u2"))];
  const home = (target: string) => pages.find((p) => p.target_id === target)!.id;
  out.sitePages = [await repo.sitePages(T1), await repo.sitePages(uuid(99))];

  let n = 30;
  const snapshot = (run: string, comparison: string, owner: string, target: string, minute: number, extraction: object): SnapshotRow => ({
    id: uuid(++n),
    target_id: target,
    comparison_id: comparison,
    owner_id: owner,
    viewport: "desktop",
    captured_at: at(minute),
    screenshot_path: `screenshots/${owner}/${n}.png`,
    title: `Page ${n}`,
    colors: "[]",
    width: 1280,
    height: 900,
    extraction: JSON.stringify(extraction),
    run_id: run,
    content_hash: null,
    file_bytes: 1000,
    page_id: home(target),
    color_scheme: "light",
    step: null,
  });
  const timing = (lcpMs: number) => ({ samples: [{ lcpMs }], profile: "unthrottled", browser: "chromium 1" });

  // Three runs of C (the third still running) and one of D, each capturing its sites.
  const runs: [string, string, string, number][] = [
    [uuid(21), C, "u1", 3],
    [uuid(22), C, "u1", 10],
    [uuid(23), C, "u1", 20],
    [uuid(24), D, "u2", 12],
  ];
  for (const [id, comparison, owner, minute] of runs) {
    await cmp.markRunning(comparison, owner, 2, "Queued", at(minute));
    await cmp.openRun({ id, comparisonId: comparison, ownerId: owner, trigger: "manual", at: at(minute) });
    const targets = comparison === C ? [T1, T2] : [T3];
    for (const t of targets)
      await cmp.insertSnapshot(
        snapshot(id, comparison, owner, t, minute + 1, {
          timing: timing(100 + minute),
          ...(t === T1 ? { volatility: { texts: [`Slide ${minute}`], boxes: [], colors: [], fading: false } } : {}),
        }),
      );
    if (id !== uuid(23)) await cmp.finishRun(id, "completed", null, at(minute + 2));
  }
  const [R1, R2, , R4] = runs.map((r) => r[0]) as [string, string, string, string];

  // A page's earlier captures: completed runs only, up to a run number, newest first, by page or by
  // target. The JSON is compared parsed: PostgreSQL spells it with spaces.
  const parsed = (rows: { timing: string | null; volatility: string | null }[]) =>
    rows.map((r) => ({
      timing: r.timing && (JSON.parse(r.timing) as unknown),
      volatility: r.volatility && (JSON.parse(r.volatility) as unknown),
    }));
  out.history = parsed(await repo.pageHistory(T1, "desktop", C, 3, 12));
  out.historyOfPage = parsed(await repo.pageHistory(T1, "desktop", C, 2, 12, { pageId: home(T1), colorScheme: "light" }));
  out.historyLimited = parsed(await repo.pageHistory(T1, "desktop", C, 2, 1));
  out.historyUpTo1 = parsed(await repo.pageHistory(T2, "desktop", C, 1, 12));
  out.historyOtherPage = await repo.pageHistory(T1, "desktop", C, 2, 12, { pageId: home(T2), colorScheme: "light" });
  out.historyDark = await repo.pageHistory(T1, "desktop", C, 2, 12, { pageId: null, colorScheme: "dark" });

  // Changes stored with their count: one row names its place, one falls back to its page's, one has no page.
  const change = (
    id: number,
    run: string,
    from: string,
    comparison: string,
    owner: string,
    target: string,
    position: number,
  ): ChangeRow => ({
    id: uuid(id),
    run_id: run,
    from_run_id: from,
    comparison_id: comparison,
    owner_id: owner,
    target_id: target,
    viewport: position % 2 === 0 ? "desktop" : "mobile",
    kind: position === 2 ? "copy" : "cta",
    severity: position === 0 ? "high" : "low",
    summary: `Change ${id}`,
    before: position === 1 ? null : `before ${id}`,
    after: `after ${id}`,
    evidence: JSON.stringify({ n: id }),
    position,
    page_id: position === 2 ? null : home(target),
    color_scheme: "light",
    role: position === 0 ? "pricing" : null,
    path: position === 0 ? "/pricing" : null,
  });
  await db.tx(() =>
    repo.storeChanges(R2, [change(51, R2, R1, C, "u1", T2, 0), change(52, R2, R1, C, "u1", T2, 1), change(53, R2, R1, C, "u1", T1, 0)], 3),
  );
  await repo.storeChanges(R4, [change(54, R4, R4, D, "u2", T3, 0), change(55, R4, R4, D, "u2", T3, 2)], 2);
  // A run whose changes were found but are none.
  await repo.storeChanges(R1, [], 0);
  out.changeCount = await db.all("SELECT id, change_count FROM runs ORDER BY id");
  out.changes = await repo.changes(R2, R1, "u1");
  out.changesOtherOwner = await repo.changes(R2, R1, "u2");
  out.changesOtherFrom = await repo.changes(R2, R2, "u1");
  out.counts = (await repo.changeCounts(C, "u1")).sort((a, b) =>
    `${a.run_id}${a.kind}${a.severity}`.localeCompare(`${b.run_id}${b.kind}${b.severity}`),
  );
  out.countsOtherOwner = await repo.changeCounts(C, "u2");
  out.foldedCounts = [...(await changeCounts(db)(D, "u2"))];

  // Page sets: a second listing of the same run and site keeps the first.
  const set = (run: string, target: string, nav: string | null, listedAt: string) => ({
    run_id: run,
    target_id: target,
    owner_id: "u1",
    nav,
    sitemap: null,
    listed_at: listedAt,
  });
  out.storedSet = [
    await repo.storePageSet(set(R2, T1, '[{"path":"/","role":"home"}]', at(30))),
    await repo.storePageSet(set(R2, T1, "[]", at(31))),
    await repo.storePageSet(set(R2, T2, null, at(30))),
  ];
  out.pageSets = (await repo.pageSets(R2, "u1")).sort((a, b) => a.target_id.localeCompare(b.target_id));
  out.pageSetsOtherOwner = await repo.pageSets(R2, "u2");

  // The feed: completed runs since a time, one owner's or everyone's, capped.
  out.recentMine = await repo.recentChanges(at(0), "u1", 100);
  out.recentAll = await repo.recentChanges(at(0), null, 100);
  out.recentCapped = await repo.recentChanges(at(0), null, 2);
  out.recentLate = await repo.recentChanges(at(14), null, 100);
  out.feed = await changeHistory(db).recentChanges(at(0));
  out.feedMine = await changeHistory(db, 1).recentChanges(at(0), "u2");
  return out;
}

scenarioOnBothDialects("change detection", scenario, (out) => {
  const runIds = [uuid(21), uuid(22)];
  // Run 3 is still running: runs 2 then 1, newest first.
  const volatility = (minute: number) => ({ texts: [`Slide ${minute}`], boxes: [], colors: [], fading: false });
  const timing = (lcpMs: number) => ({ samples: [{ lcpMs }], profile: "unthrottled", browser: "chromium 1" });
  expect(out.history).toEqual([
    { timing: timing(110), volatility: volatility(10) },
    { timing: timing(103), volatility: volatility(3) },
  ]);
  expect(out.historyOfPage).toEqual(out.history);
  expect(out.historyLimited).toEqual([{ timing: timing(110), volatility: volatility(10) }]);
  expect(out.historyUpTo1).toEqual([{ timing: timing(103), volatility: null }]);
  expect(out.historyOtherPage).toEqual([]);
  expect(out.historyDark).toEqual([]);
  expect((out.changes as ChangeRow[]).map((c) => [c.id, c.target_id, c.position, c.role, c.path])).toEqual([
    [uuid(53), uuid(11), 0, "pricing", "/pricing"],
    [uuid(51), uuid(12), 0, "pricing", "/pricing"],
    [uuid(52), uuid(12), 1, "home", "/en/"],
  ]);
  expect(out.changesOtherOwner).toEqual([]);
  expect(out.changesOtherFrom).toEqual([]);
  expect(out.changeCount).toEqual([
    { id: runIds[0], change_count: 0 },
    { id: runIds[1], change_count: 3 },
    { id: uuid(23), change_count: null },
    { id: uuid(24), change_count: 2 },
  ]);
  expect(out.counts).toEqual([
    { run_id: runIds[1], kind: "cta", severity: "high", n: 2 },
    { run_id: runIds[1], kind: "cta", severity: "low", n: 1 },
  ]);
  expect(out.countsOtherOwner).toEqual([]);
  expect(out.storedSet).toEqual([1, 0, 1]);
  expect((out.pageSets as { nav: string | null; listed_at: string }[]).map((s) => [s.nav, s.listed_at])).toEqual([
    ['[{"path":"/","role":"home"}]', at(30)],
    [null, at(30)],
  ]);
  expect(out.pageSetsOtherOwner).toEqual([]);
  expect((out.recentMine as { summary: string }[]).map((c) => c.summary)).toEqual(["Change 53", "Change 51", "Change 52"]);
  // Run 4 (u2) finished after run 2 (u1): newest first.
  expect((out.recentAll as { summary: string }[]).map((c) => c.summary)).toEqual([
    "Change 54",
    "Change 55",
    "Change 53",
    "Change 51",
    "Change 52",
  ]);
  expect(out.recentCapped).toEqual((out.recentAll as unknown[]).slice(0, 2));
  expect((out.recentLate as { summary: string }[]).map((c) => c.summary)).toEqual(["Change 54", "Change 55"]);
  expect((out.feedMine as { summary: string; comparisonName: string }[]).map((c) => [c.summary, c.comparisonName])).toEqual([
    ["Change 54", "Theirs"],
  ]);
});
