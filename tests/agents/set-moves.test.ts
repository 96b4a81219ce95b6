// TrendHunter across the set: moves several competitors of one comparison made this week, read
// from the run history through ChangeHistory (a stub here; the watch's changes table implements it).
import { beforeEach, describe, expect, test } from "bun:test";
import { openDatabase, type Db } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { sqliteSql } from "#server/db/sql";
import { AgentLoop } from "#server/modules/agents/loop/loop";
import type { ChangeHistory, RecentChange } from "#server/modules/changes/public";
import { findSetMoves, moveOf } from "#server/modules/agents/logic/set-moves";
import { insertComparison, insertUser } from "./fixtures";

const NOW = Date.parse("2025-06-10T12:00:00Z");
const daysAgo = (d: number) => new Date(NOW - d * 86_400_000).toISOString();

function change(over: Partial<RecentChange> & Pick<RecentChange, "ownerId" | "comparisonId" | "targetId">): RecentChange {
  return {
    comparisonName: "Rivals",
    label: over.targetId,
    url: `http://127.0.0.1:4100/${over.targetId}`,
    kind: "cta",
    summary: "CTA text “Start free” → “Book a demo”",
    at: daysAgo(1),
    runId: `run-${over.targetId}`,
    ...over,
  };
}

describe("moveOf", () => {
  test("reads the move from the detectors' summaries", () => {
    expect(moveOf("cta", "CTA text “Start” → “Go”")).toBe("cta-text");
    expect(moveOf("cta", "CTA “Go” colour #111111 → #222222 (ΔE 12.0)")).toBe("cta-colour");
    expect(moveOf("cta", "CTA “Go” moved above the fold → below the fold")).toBe("cta-position");
    expect(moveOf("cta", "CTA added: “Go” (above the fold)")).toBe("cta-added");
    expect(moveOf("copy", "Headline “A” → “B”")).toBe("headline");
    expect(moveOf("meta", "Meta description added: “x”")).toBe("description");
    expect(moveOf("meta", "Title “a” → “b”")).toBe("title");
    expect(moveOf("typography", "Font families Inter → Poppins")).toBe("fonts");
    expect(moveOf("visual", "12% of the page changed in 2 regions")).toBeNull();
  });
});

describe("findSetMoves", () => {
  test("2 of 3 competitors changed their CTA text; a move one site made alone is no move", () => {
    const changes = [
      change({ ownerId: "o1", comparisonId: "c1", targetId: "a" }),
      change({ ownerId: "o1", comparisonId: "c1", targetId: "b", at: daysAgo(3) }),
      // The same target twice counts once, with its latest change.
      change({ ownerId: "o1", comparisonId: "c1", targetId: "b", at: daysAgo(2), runId: "run-b2", summary: "CTA text “Try” → “Buy”" }),
      change({
        ownerId: "o1",
        comparisonId: "c1",
        targetId: "a",
        kind: "palette",
        summary: "Accent #111111 → #222222 (ΔE 20.0, 8% of page)",
      }),
      // Another owner's comparison: its own set.
      change({ ownerId: "o2", comparisonId: "c2", targetId: "x" }),
    ];
    const moves = findSetMoves(changes, (id) => (id === "c1" ? 3 : 2), { window: "this week" });
    expect(moves).toHaveLength(1);
    const m = moves[0]!;
    expect(m).toMatchObject({
      ownerId: "o1",
      comparisonId: "c1",
      move: "cta-text",
      support: 2,
      of: 3,
      title: "2 of 3 competitors changed their CTA text this week",
    });
    expect(m.sites.map((s) => [s.targetId, s.runId, s.summary])).toEqual([
      ["a", "run-a", "CTA text “Start free” → “Book a demo”"],
      ["b", "run-b2", "CTA text “Try” → “Buy”"],
    ]);
  });

  test("a comparison of one site has no set", () => {
    const changes = [
      change({ ownerId: "o", comparisonId: "c", targetId: "a" }),
      change({ ownerId: "o", comparisonId: "c", targetId: "a", runId: "r2" }),
    ];
    expect(findSetMoves(changes, () => 1, { window: "this week" })).toEqual([]);
  });
});

describe("TrendHunter reports moves from the history", () => {
  let db: Db;
  let history: RecentChange[];
  let asked: string[];
  beforeEach(() => {
    db = openDatabase(":memory:");
    migrate(db);
    history = [];
    asked = [];
  });
  const stub: ChangeHistory = {
    async recentChanges(since) {
      asked.push(since);
      return history.filter((c) => c.at >= since);
    },
  };

  test("told once to the owner's feed, with links to each site's change view", async () => {
    const owner = insertUser(db);
    const other = insertUser(db);
    const { comparisonId, targetIds } = insertComparison(db, owner, [
      { url: "http://127.0.0.1:4100/orbit/" },
      { url: "http://127.0.0.1:4100/ember/" },
      { url: "http://127.0.0.1:4100/flint/" },
    ]);
    const [a, b] = targetIds as [string, string];
    history.push(
      change({ ownerId: owner, comparisonId, targetId: a, label: "Orbit", runId: "r-a2", fromRunId: "r-a1" }),
      change({ ownerId: owner, comparisonId, targetId: b, label: "Ember", runId: "r-b2", fromRunId: "r-b1", at: daysAgo(2) }),
      // Older than a week: outside the window.
      change({ ownerId: owner, comparisonId, targetId: targetIds[2]!, label: "Flint", at: daysAgo(9) }),
    );
    const loop = new AgentLoop({ db: sqliteSql(db), emit: () => {}, now: () => NOW, log: () => {}, changes: stub });
    await loop.trendHunter.run();
    expect(asked).toEqual([daysAgo(7)]);

    const rows = db
      .query<{ message: string; details: string; user_id: string | null; metadata: string }, []>(
        "SELECT message, details, user_id, metadata FROM activity_log WHERE message LIKE '%competitors%'",
      )
      .all();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.message).toBe("2 of 3 competitors changed their CTA text this week in “Rivals”");
    expect(rows[0]!.user_id).toBe(owner);
    expect(rows[0]!.details).toBe("Ember: CTA text “Start free” → “Book a demo”\nOrbit: CTA text “Start free” → “Book a demo”");
    const meta = JSON.parse(rows[0]!.metadata);
    expect(meta.sites.map((s: any) => s.link)).toEqual([
      `/comparison?id=${comparisonId}&from=r-b1&to=r-b2&target=${b}`,
      `/comparison?id=${comparisonId}&from=r-a1&to=r-a2&target=${a}`,
    ]);
    expect(loop.trendHunter.movesFor(owner)).toHaveLength(1);
    expect(loop.trendHunter.movesFor(other)).toEqual([]);

    // The next scan over the same history tells nothing new; a third site joining is news.
    await loop.trendHunter.run();
    expect(db.query("SELECT COUNT(*) AS n FROM activity_log WHERE message LIKE '%competitors%'").get()).toEqual({ n: 1 });
    history.push(change({ ownerId: owner, comparisonId, targetId: targetIds[2]!, label: "Flint", at: daysAgo(0) }));
    await loop.trendHunter.run();
    const last = db
      .query<{ message: string }, []>("SELECT message FROM activity_log WHERE message LIKE '%competitors%' ORDER BY rowid DESC LIMIT 1")
      .get();
    expect(last!.message).toBe("3 of 3 competitors changed their CTA text this week in “Rivals”");
  });

  test("a failing history does not stop the trend scan", async () => {
    const owner = insertUser(db);
    insertComparison(db, owner, [{ url: "http://127.0.0.1:4100/a/" }, { url: "http://127.0.0.1:4100/b/" }]);
    const logs: string[] = [];
    const loop = new AgentLoop({
      db: sqliteSql(db),
      emit: () => {},
      now: () => NOW,
      log: (m) => logs.push(m),
      changes: {
        recentChanges: async () => {
          throw new Error("database is locked");
        },
      },
    });
    await loop.trendHunter.run();
    expect(logs).toEqual(["TrendHunter: could not read the run history"]);
    expect((await loop.ctx.agent("trend-hunter")).currentTask).toContain("Scanned 2 sites");
  });
});
