// Migration 0018 on a database from before pages: every target gets its home page (its URL's
// path), the stored results become the home page's in light, and the API reads them as before with
// the page, role and scheme added. A target added afterwards, by any writer, gets its home page too.
import { describe, expect, test } from "bun:test";
import { openDatabase } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { migrations } from "#server/db/migrations";
import { comparisonsService } from "#server/modules/comparisons/service";

const AT = "2026-01-01T00:00:00.000Z";

function before18() {
  const db = openDatabase(":memory:");
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))",
  );
  for (const m of migrations.filter((m) => m.version < 18)) {
    db.exec(m.sql);
    db.query("INSERT INTO schema_migrations (version, name) VALUES (?, ?)").run(m.version, m.name);
  }
  db.query("INSERT INTO users (id, email, password_hash) VALUES ('u1', 'u1@example.com', 'x')").run();
  db.query(
    `INSERT INTO comparisons (id, owner_id, name, status, created_at, updated_at) VALUES ('c1', 'u1', 'Old', 'completed', ?1, ?1)`,
  ).run(AT);
  const urls = { t1: "https://alpha.example/", t2: "https://beta.example/en/home?ref=x#top", t3: "https://gamma.example" };
  for (const [id, url] of Object.entries(urls))
    db.query("INSERT INTO targets (id, comparison_id, owner_id, label, url, created_at) VALUES (?, 'c1', 'u1', ?, ?, ?)").run(
      id,
      id,
      url,
      AT,
    );
  db.query(
    `INSERT INTO runs (id, comparison_id, owner_id, number, trigger, status, started_at, finished_at) VALUES ('r1', 'c1', 'u1', 1, 'manual', 'completed', ?1, ?1)`,
  ).run(AT);
  const extraction = JSON.stringify({ url: urls.t1, finalUrl: urls.t1, viewport: "desktop", title: "A" });
  for (const t of ["t1", "t2"])
    db.query(
      `INSERT INTO snapshots (id, target_id, comparison_id, owner_id, viewport, captured_at, screenshot_path, title, colors, width, height, extraction, run_id)
       VALUES (?, ?, 'c1', 'u1', 'desktop', ?, ?, 'A', '[]', 1440, 900, ?, 'r1')`,
    ).run(`s-${t}`, t, AT, `u1/c1/${t}.png`, extraction);
  db.query(
    `INSERT INTO diffs (id, comparison_id, owner_id, viewport, target_a_id, target_b_id, color_similarity, layout_similarity, content_similarity,
       overall_similarity, components, created_at, run_id) VALUES ('d1', 'c1', 'u1', 'desktop', 't1', 't2', 0.5, 0.5, 0.5, 0.5, '{}', ?, 'r1')`,
  ).run(AT);
  db.query(
    `INSERT INTO findings (id, comparison_id, owner_id, target_id, viewport, grp, severity, title, evidence, fix, source, position, created_at, run_id)
       VALUES ('f1', 'c1', 'u1', 't2', 'desktop', 'design', 'low', 'T', '{}', 'F', 'rules', 0, ?, 'r1')`,
  ).run(AT);
  return db;
}

describe("migration 0018", () => {
  test("every existing target gets its home page; results become the home page's, in light", async () => {
    const db = before18();
    expect(migrate(db)).toContain(18);
    const pages = db
      .query<{ id: string; target_id: string; path: string; role: string; position: number; owner_id: string; steps: string }, []>(
        "SELECT id, target_id, path, role, position, owner_id, steps FROM pages ORDER BY target_id",
      )
      .all();
    expect(pages).toEqual([
      { id: "home-t1", target_id: "t1", path: "/", role: "home", position: 0, owner_id: "u1", steps: "[]" },
      { id: "home-t2", target_id: "t2", path: "/en/home?ref=x#top", role: "home", position: 0, owner_id: "u1", steps: "[]" },
      { id: "home-t3", target_id: "t3", path: "/", role: "home", position: 0, owner_id: "u1", steps: "[]" },
    ]);
    expect(db.query("SELECT page_id, color_scheme, step FROM snapshots ORDER BY id").all()).toEqual([
      { page_id: "home-t1", color_scheme: "light", step: null },
      { page_id: "home-t2", color_scheme: "light", step: null },
    ]);
    expect(db.query("SELECT role, color_scheme, page_a_id, page_b_id FROM diffs").get()).toEqual({
      role: "home",
      color_scheme: "light",
      page_a_id: "home-t1",
      page_b_id: "home-t2",
    });
    expect(db.query("SELECT page_id, color_scheme FROM findings").get()).toEqual({ page_id: "home-t2", color_scheme: "light" });
    expect(db.query("SELECT color_schemes FROM comparisons").get()).toEqual({ color_schemes: '["light"]' });

    // The API reads the old results with their page, role and scheme.
    const service = comparisonsService({ db, dataDir: "/nonexistent", allowPrivateTargets: true });
    expect((await service.get("u1", "c1")).colorSchemes).toEqual(["light"]);
    expect(service.snapshots("u1", "c1").map((s) => [s.targetId, s.pageId, s.role, s.path, s.colorScheme, s.step])).toEqual([
      ["t1", "home-t1", "home", "/", "light", null],
      ["t2", "home-t2", "home", "/en/home?ref=x#top", "light", null],
    ]);
    expect(service.diffs("u1", "c1")).toMatchObject([{ role: "home", colorScheme: "light", pageAId: "home-t1", pageBId: "home-t2" }]);
    expect(service.findings("u1", "c1")).toMatchObject([{ targetId: "t2", pageId: "home-t2", role: "home", colorScheme: "light" }]);

    // A target added afterwards, even by plain SQL, has its home page.
    db.query(
      "INSERT INTO targets (id, comparison_id, owner_id, label, url, created_at) VALUES ('t4', 'c1', 'u1', 'D', 'http://d.example:8080/a/b', ?)",
    ).run(AT);
    expect(db.query("SELECT id, path, role, position FROM pages WHERE target_id = 't4'").all()).toEqual([
      { id: "home-t4", path: "/a/b", role: "home", position: 0 },
    ]);
    // Deleting a target deletes its pages.
    db.query("DELETE FROM targets WHERE id = 't3'").run();
    expect(db.query("SELECT COUNT(*) AS n FROM pages WHERE target_id = 't3'").get()).toEqual({ n: 0 });
  });
});
