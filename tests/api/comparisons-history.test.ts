// Run history through the API: every run keeps its snapshots, scores and findings; past runs open
// as they were; identical screenshots are one file; HISTORY_KEEP prunes old runs with the files
// no kept run shares; another user's ids are 404.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { migrations } from "#server/db/migrations";
import { makeTestApp } from "#tests/support/app";
import { fakeRunTools, pngBytes } from "./comparisons-support";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const URL_A = "http://127.0.0.1:9/alpha";
const URL_B = "http://127.0.0.1:9/beta";

/** Fake run tools, with each site's screenshot painted in the colour the test sets for it (so files differ by run when the test says so). */
function setup(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "di-history-"));
  dirs.push(dataDir);
  const sites: Record<string, { title?: string; hex?: string }> = {};
  const fake = fakeRunTools(sites);
  const paint: Record<string, [number, number, number]> = {};
  const capture = fake.tools.capture!;
  fake.tools.capture = async (ownerId, job, onStage) => {
    const r = await capture(ownerId, job, onStage);
    const rgb = paint[job.url];
    if (r.ok && rgb) await Bun.write(job.screenshotPath, pngBytes(job.viewport === "desktop" ? 48 : 13, 40, rgb));
    return r;
  };
  const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1", ...env }, runTools: fake.tools });
  const pngs = () => {
    const dir = join(dataDir, "screenshots");
    return existsSync(dir)
      ? readdirSync(dir, { recursive: true, encoding: "utf8" })
          .filter((f) => f.endsWith(".png"))
          .sort()
      : [];
  };
  return { ...t, tools: t.tools!, fake, sites, paint, dataDir, pngs };
}

async function comparison(t: ReturnType<typeof setup>) {
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Rivals" }, headers: h })).json;
  const targets = [];
  for (const [url, label] of [
    [URL_A, "Alpha"],
    [URL_B, "Beta"],
  ])
    targets.push((await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: h })).json);
  const get = async (path = "", headers = h) => t.call("GET", `/api/comparisons/${c.id}${path}`, { headers });
  const run = async () => {
    const r = await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h });
    expect(r.status).toBe(202);
    await t.services.comparisons.whenIdle();
  };
  return { u, h, c, targets, get, run };
}

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

describe("run history", () => {
  test("two runs keep both results; the list is newest first with numbers and triggers; a past run opens as it was", async () => {
    const t = setup();
    const x = await comparison(t);
    expect((await x.get("/runs")).json).toEqual([]);

    t.sites[URL_B] = { title: "Beta, first version", hex: "#3366ff" };
    await x.run();
    const [first] = (await x.get("/runs")).json;
    expect(first).toMatchObject({
      number: 1,
      trigger: "manual",
      status: "completed",
      changeCount: null,
      changesStatus: "first-run",
      error: null,
    });
    expect(Date.parse(first.finishedAt)).toBeGreaterThanOrEqual(Date.parse(first.startedAt));
    const before = (await x.get(`/runs/${first.id}`)).json;
    expect(before.run).toEqual(first);
    expect(before.snapshots.length).toBe(4);
    expect(before.diffs.length).toBe(2);
    expect(before.findings.length).toBe(4);
    // Run 1 is what the current endpoints answered after it.
    expect(before.snapshots).toEqual((await x.get("/snapshots")).json);
    expect(before.diffs).toEqual((await x.get("/diffs")).json);
    expect(before.findings).toEqual((await x.get("/findings")).json);

    t.sites[URL_B] = { title: "Beta, second version", hex: "#00aa00" };
    await x.run();
    const runs = (await x.get("/runs")).json;
    expect(runs.map((r: any) => [r.number, r.trigger, r.status])).toEqual([
      [2, "manual", "completed"],
      [1, "manual", "completed"],
    ]);
    expect(runs[1]).toEqual(first);

    // The first run opens exactly as it did before the second existed.
    expect((await x.get(`/runs/${first.id}`)).json).toEqual(before);
    const after = (await x.get(`/runs/${runs[0].id}`)).json;
    expect(after.snapshots.map((s: any) => s.title)).toEqual([
      "Title of " + URL_A,
      "Title of " + URL_A,
      "Beta, second version",
      "Beta, second version",
    ]);
    expect(before.snapshots.map((s: any) => s.title)).toContain("Beta, first version");
    expect(after.diffs[0].colorSimilarity).toBe(0.4);
    expect(before.diffs[0].colorSimilarity).toBe(0.9);
    // The current endpoints follow the newest run; nothing in their shape changed.
    expect((await x.get("/snapshots")).json).toEqual(after.snapshots);
    expect((await x.get("/diffs")).json).toEqual(after.diffs);
    expect((await x.get("/findings")).json).toEqual(after.findings);
    // A past run's screenshots still open.
    const old = await t.app.handle(new Request(`http://localhost${before.snapshots[2].screenshotUrl}`, { headers: x.h }));
    expect(old.status).toBe(200);
  });

  test("a failed run is kept with its reason; the current diffs and findings are its own (none)", async () => {
    const t = setup();
    const x = await comparison(t);
    await x.run();
    const fail = t.tools.capture!;
    t.tools.capture = async (o, job, s) => (job.url === URL_B ? { ok: false, reason: "DNS lookup failed" } : fail(o, job, s));
    await x.run();
    const runs = (await x.get("/runs")).json;
    expect(runs.map((r: any) => [r.number, r.status])).toEqual([
      [2, "failed"],
      [1, "completed"],
    ]);
    expect(runs[0].error).toBe("Only 1 of 2 websites could be captured — at least 2 are needed for a comparison");
    // A failed run has no results to compare: neither a first run nor waiting for its changes.
    expect(runs.map((r: any) => r.changesStatus)).toEqual([null, "first-run"]);
    expect((await x.get("/diffs")).json).toEqual([]);
    const failed = (await x.get(`/runs/${runs[0].id}`)).json;
    expect(failed.snapshots.map((s: any) => s.targetId)).toEqual([x.targets[0].id, x.targets[0].id]);
    expect(failed.diffs).toEqual([]);
    expect((await x.get(`/runs/${runs[1].id}`)).json.diffs.length).toBe(2);
  });

  test("identical captures are one file; different ones are not", async () => {
    const t = setup();
    const x = await comparison(t);
    t.paint[URL_A] = [10, 20, 30];
    t.paint[URL_B] = [40, 50, 60];
    await x.run();
    await x.run();
    // 2 runs x 2 sites x 2 viewports = 8 snapshots, 4 distinct pictures.
    expect(t.db.query("SELECT COUNT(*) AS n FROM snapshots").get()).toEqual({ n: 8 });
    const expected = [URL_A, URL_B].flatMap((u) => [sha256(pngBytes(48, 40, t.paint[u]!)), sha256(pngBytes(13, 40, t.paint[u]!))]);
    expect(t.pngs().map((p) => p.split("/").at(-1))).toEqual(expected.map((h) => `${h}.png`).sort());
    // Both runs' snapshots of a page serve the same bytes, each through its own row.
    const [r2, r1] = (await x.get("/runs")).json;
    const s1 = (await x.get(`/runs/${r1.id}`)).json.snapshots[0];
    const s2 = (await x.get(`/runs/${r2.id}`)).json.snapshots[0];
    expect(s1.id).not.toBe(s2.id);
    const bytes = async (url: string) =>
      new Uint8Array(await (await t.app.handle(new Request(`http://localhost${url}`, { headers: x.h }))).arrayBuffer());
    expect(sha256(await bytes(s1.screenshotUrl))).toBe(expected[0]!);
    expect(sha256(await bytes(s2.screenshotUrl))).toBe(expected[0]!);

    const storage = await t.services.history.storage();
    expect(storage).toMatchObject({ runs: 2, snapshots: 8, files: 4 });
    expect(storage.bytesWithoutDedupe).toBe(2 * storage.bytes);
    // The super-admin console's database figures carry it (the first account is the admin).
    const stats = await t.call("GET", "/api/admin/database-stats", { headers: x.h });
    expect(stats.json).toMatchObject({ historyRuns: 2, historyBytes: storage.bytes });
    expect(storage.bytes).toBe(t.pngs().reduce((n, p) => n + Bun.file(join(t.dataDir, "screenshots", p)).size, 0));
  });

  test("retention keeps the newest HISTORY_KEEP runs and removes the files only they used", async () => {
    const t = setup({ HISTORY_KEEP: "2" });
    const x = await comparison(t);
    const files = (rgb: [number, number, number]) => [sha256(pngBytes(48, 40, rgb)), sha256(pngBytes(13, 40, rgb))].map((h) => `${h}.png`);
    const v1: [number, number, number] = [1, 1, 1];
    const v2: [number, number, number] = [2, 2, 2];
    const v3: [number, number, number] = [3, 3, 3];
    t.paint[URL_B] = [9, 9, 9]; // Beta never changes: its files are shared by every run.
    const beta = files([9, 9, 9]);
    const names = () =>
      t
        .pngs()
        .map((p) => p.split("/").at(-1)!)
        .sort();

    t.paint[URL_A] = v1;
    await x.run();
    const run1 = (await x.get("/runs")).json[0];
    t.paint[URL_A] = v2;
    await x.run();
    t.paint[URL_A] = v1;
    await x.run();
    // Run 1 is gone, but its pictures are run 3's too, so they stay.
    expect((await x.get("/runs")).json.map((r: any) => r.number)).toEqual([3, 2]);
    expect(names()).toEqual([...files(v1), ...files(v2), ...beta].sort());
    const gone = await x.get(`/runs/${run1.id}`);
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ error: "Run not found" });

    t.paint[URL_A] = v3;
    await x.run();
    // Run 2 is gone, and with it the only snapshots of v2.
    expect((await x.get("/runs")).json.map((r: any) => r.number)).toEqual([4, 3]);
    expect(names()).toEqual([...files(v1), ...files(v3), ...beta].sort());
    expect(t.db.query("SELECT COUNT(*) AS n FROM snapshots").get()).toEqual({ n: 8 });
    expect(t.db.query("SELECT COUNT(*) AS n FROM diffs").get()).toEqual({ n: 4 });
    expect(t.db.query("SELECT COUNT(*) AS n FROM findings").get()).toEqual({ n: 8 });
  });

  test("deleting a target or the comparison removes files no other snapshot shares", async () => {
    const t = setup();
    const x = await comparison(t);
    const c2 = (
      await t.call("POST", `/api/comparisons/${x.c.id}/targets`, {
        body: { url: "http://127.0.0.1:9/gamma", label: "Gamma" },
        headers: x.h,
      })
    ).json;
    t.paint[URL_A] = [5, 5, 5];
    t.paint[URL_B] = [5, 5, 5]; // Beta looks exactly like Alpha: one file for both.
    t.paint["http://127.0.0.1:9/gamma"] = [7, 7, 7];
    await x.run();
    expect(t.pngs().length).toBe(4);
    expect((await t.call("DELETE", `/api/targets/${x.targets[1].id}`, { headers: x.h })).status).toBe(200);
    expect(t.pngs().length).toBe(4); // Alpha still shows Beta's pictures
    expect((await t.call("DELETE", `/api/targets/${c2.id}`, { headers: x.h })).status).toBe(200);
    expect(t.pngs().length).toBe(2);
    expect((await t.call("DELETE", `/api/comparisons/${x.c.id}`, { headers: x.h })).status).toBe(200);
    expect(t.pngs()).toEqual([]);
    expect(t.db.query("SELECT COUNT(*) AS n FROM runs").get()).toEqual({ n: 0 });
  });

  test("the boot sweep removes files no snapshot names, and leaves fresh captures in progress alone", async () => {
    const t = setup();
    const x = await comparison(t);
    t.paint[URL_A] = [1, 2, 3];
    await x.run();
    const kept = t.pngs();
    const dir = join(t.dataDir, "screenshots", x.u.user.id, x.c.id);
    const orphan = join(dir, `${"ab".repeat(32)}.png`);
    const oldTemp = join(dir, "0190aaaa-old-capture.png");
    const freshTemp = join(dir, "0190bbbb-capture-in-flight.png");
    for (const f of [orphan, oldTemp, freshTemp]) await Bun.write(f, pngBytes(2, 2, [0, 0, 0]));
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(oldTemp, hourAgo, hourAgo);
    expect(await t.services.comparisons.sweepScreenshots()).toBe(2);
    expect(t.pngs()).toEqual([...kept, `${x.u.user.id}/${x.c.id}/0190bbbb-capture-in-flight.png`].sort());
  });

  test("another user's comparison and runs are 404 with a JSON error; a run of another comparison is not found here", async () => {
    const t = setup();
    const x = await comparison(t);
    await x.run();
    const [run] = (await x.get("/runs")).json;
    const snap = (await x.get(`/runs/${run.id}`)).json.snapshots[0];
    const other = await t.signup();
    const oh = t.auth(other.token);
    for (const path of ["/runs", `/runs/${run.id}`]) {
      const r = await x.get(path, oh);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ error: "Comparison not found" });
      expect(r.text).not.toContain(run.id);
    }
    expect((await t.call("GET", snap.screenshotUrl, { headers: oh })).status).toBe(404);
    expect((await t.call("GET", `/api/comparisons/${x.c.id}/runs`)).status).toBe(401);

    // Same owner, another comparison: the run id does not belong to it.
    const c2 = (await t.call("POST", "/api/comparisons", { body: { name: "Other" }, headers: x.h })).json;
    const r = await t.call("GET", `/api/comparisons/${c2.id}/runs/${run.id}`, { headers: x.h });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ error: "Run not found" });
  });

  test("a run ended by a restart is kept as interrupted; the previous run's results stay current", async () => {
    const t = setup();
    const x = await comparison(t);
    await x.run();
    const diffs = (await x.get("/diffs")).json;
    t.fake.holdCaptures();
    await t.call("POST", `/api/comparisons/${x.c.id}/start`, { headers: x.h });
    await t.fake.captureStarted();
    await t.services.comparisons.interruptRuns();
    t.fake.release();
    await t.services.comparisons.whenIdle();
    const runs = (await x.get("/runs")).json;
    expect(runs.map((r: any) => [r.number, r.status])).toEqual([
      [2, "interrupted"],
      [1, "completed"],
    ]);
    expect(runs[0].error).toBe("Interrupted by a server restart — start the analysis again");
    expect((await x.get("/diffs")).json).toEqual(diffs);
  });
});

describe("changes between runs (fake run tools)", () => {
  test("the first run has nothing to compare with; the second stores its changes against it; the API answers them", async () => {
    const t = setup();
    const x = await comparison(t);
    await x.run();
    const none = await x.get("/changes");
    expect(none.status).toBe(404);
    expect(none.json).toEqual({ error: "Changes need two completed runs of this comparison" });

    t.sites[URL_B] = { title: "Beta rewritten" };
    await x.run();
    const [r2, r1] = (await x.get("/runs")).json;
    expect(r1.changeCount).toBeNull();
    expect([r1.changesStatus, r2.changesStatus]).toEqual(["first-run", "ready"]);
    const res = await x.get("/changes");
    expect(res.status).toBe(200);
    expect(res.json.from).toBe(r1.id);
    expect(res.json.to).toBe(r2.id);
    const [alpha, beta] = res.json.targets;
    expect(alpha).toEqual({ targetId: x.targets[0].id, label: "Alpha", url: URL_A, changes: [] });
    expect(beta.changes.length).toBeGreaterThan(0);
    expect(r2.changeCount).toBe(beta.changes.length);
    // The run list counts them by kind and severity (the timeline needs no request per run).
    expect(r1.changes).toBeNull();
    const tally = (key: "kind" | "severity", keys: string[]) =>
      Object.fromEntries(keys.map((k) => [k, beta.changes.filter((c: any) => c[key] === k).length]));
    expect(r2.changes).toEqual({
      total: beta.changes.length,
      byKind: tally("kind", ["copy", "cta", "palette", "typography", "layout", "meta", "timing", "visual", "pages"]),
      bySeverity: tally("severity", ["low", "medium", "high"]),
    });
    expect(r2.changes.byKind.copy).toBeGreaterThan(0);
    expect((await x.get(`/runs/${r2.id}`)).json.run.changes).toEqual(r2.changes);
    // Completed, with a run before it, and its changes not stored yet (detection still running): pending, not a first run.
    t.db.query("UPDATE runs SET change_count = NULL WHERE id = ?").run(r2.id);
    const waiting = (await x.get(`/runs/${r2.id}`)).json.run;
    expect(waiting).toMatchObject({ changeCount: null, changes: null, changesStatus: "pending" });
    expect((await x.get("/runs")).json.map((r: any) => r.changesStatus)).toEqual(["pending", "first-run"]);
    expect((await x.get(`/runs/${r1.id}`)).json.run.changesStatus).toBe("first-run");
    const headline = beta.changes.find((c: any) => c.kind === "copy" && c.viewport === "desktop");
    expect(headline).toMatchObject({ before: `Title of ${URL_B}`, after: "Beta rewritten" });
    expect(beta.changes.some((c: any) => c.kind === "meta" && c.before === `Title of ${URL_B}` && c.after === "Beta rewritten")).toBe(true);
    // The fake's screenshots are byte-identical run to run: no visual change is claimed.
    expect(beta.changes.some((c: any) => c.kind === "visual")).toBe(false);
  });

  test("the OpenAPI document describes the run list's change counts", async () => {
    const t = setup();
    const doc = (await t.call("GET", "/api/openapi.json")).json;
    const list = doc.paths["/api/comparisons/{id}/runs"].get.responses["200"].content["application/json"].schema;
    const changes = JSON.stringify(list.items.properties.changes);
    for (const key of ["total", "byKind", "bySeverity", "typography", "high"]) expect(changes).toContain(`"${key}"`);
    expect(list.items.required).toContain("changes");
  });

  test("which runs can be compared: errors name the problem", async () => {
    const t = setup();
    const x = await comparison(t);
    await x.run();
    await x.run();
    const fail = t.tools.capture!;
    t.tools.capture = async (o, job, s) => (job.url === URL_B ? { ok: false, reason: "down" } : fail(o, job, s));
    await x.run();
    const [r3, r2, r1] = (await x.get("/runs")).json;
    // The default pair skips the failed run: the last two completed.
    expect((await x.get("/changes")).json).toMatchObject({ from: r1.id, to: r2.id });
    const ask = (q: string) => x.get(`/changes?${q}`);
    expect((await ask(`from=${r2.id}&to=${r1.id}`)).json).toEqual({ error: "from must be an earlier run than to" });
    expect((await ask(`from=${r1.id}&to=${r1.id}`)).status).toBe(400);
    expect((await ask(`from=${r1.id}&to=${r3.id}`)).json).toEqual({
      error: "Run #3 did not complete: only completed runs can be compared",
    });
    const unknown = await ask(`from=nope&to=${r2.id}`);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: "Run not found" });
    expect((await ask(`to=${r1.id}`)).json).toEqual({ error: "Changes need two completed runs of this comparison" });
    // On request, a pair that is not consecutive is found then and there.
    expect((await ask(`from=${r1.id}&to=${r2.id}`)).status).toBe(200);
  });

  test("the heat map: query checked, the page must exist in both runs, owner only (bearer or cookie)", async () => {
    const t = setup();
    const x = await comparison(t);
    t.paint[URL_A] = [10, 10, 10];
    await x.run();
    t.paint[URL_A] = [200, 10, 10];
    await x.run();
    const visual = (q: string, headers: Record<string, string> = x.h) =>
      t.call("GET", `/api/comparisons/${x.c.id}/changes/visual?${q}`, { headers });
    const ok = await visual(`targetId=${x.targets[0].id}&viewport=mobile`, { cookie: x.u.cookie });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("image/png");
    expect(ok.headers.get("cache-control")).toStartWith("private");
    expect((await visual("viewport=desktop")).json).toEqual({ error: "targetId is required", details: expect.any(Array) });
    expect((await visual(`targetId=${x.targets[0].id}&viewport=tablet`)).status).toBe(400);
    expect((await visual(`targetId=nope&viewport=desktop`)).json).toEqual({ error: "Website not found" });
    expect((await visual(`targetId=${x.targets[0].id}&viewport=desktop`, {})).status).toBe(401);

    const other = await t.signup();
    for (const headers of [t.auth(other.token), { cookie: other.cookie }]) {
      const r = await visual(`targetId=${x.targets[0].id}&viewport=desktop`, headers);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ error: "Comparison not found" });
    }
    const r = await x.get("/changes", t.auth(other.token));
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ error: "Comparison not found" });

    // A website added after the first run has no picture in it to compare with.
    const gamma = (
      await t.call("POST", `/api/comparisons/${x.c.id}/targets`, {
        body: { url: "http://127.0.0.1:9/gamma", label: "Gamma" },
        headers: x.h,
      })
    ).json;
    await x.run();
    const [, , first] = (await x.get("/runs")).json;
    const missing = await visual(`targetId=${gamma.id}&viewport=desktop&from=${first.id}`);
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ error: "This website was not captured at desktop in both runs" });
    await x.run();
    expect((await visual(`targetId=${gamma.id}&viewport=desktop`)).status).toBe(200);
  });
});

describe("migration 0008", () => {
  test("results from before run history become run #1 of their comparison", () => {
    const db = openDatabase(":memory:");
    // The schema as it was before 0008, with a comparison that ran and one that never did.
    db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))",
    );
    for (const m of migrations.filter((m) => m.version < 8)) {
      db.exec(m.sql);
      db.query("INSERT INTO schema_migrations (version, name) VALUES (?, ?)").run(m.version, m.name);
    }
    const at = "2030-01-01T00:00:00.000Z";
    db.query("INSERT INTO users (id, email, password_hash) VALUES ('u1', 'u1@example.com', 'x')").run();
    db.query(
      `INSERT INTO comparisons (id, owner_id, name, status, created_at, updated_at, started_at, completed_at) VALUES ('c1', 'u1', 'Ran', 'completed', ?1, ?1, ?1, ?1)`,
    ).run(at);
    db.query(`INSERT INTO comparisons (id, owner_id, name, created_at, updated_at) VALUES ('c2', 'u1', 'Never ran', ?1, ?1)`).run(at);
    for (const id of ["t1", "t2"])
      db.query("INSERT INTO targets (id, comparison_id, owner_id, label, url, created_at) VALUES (?, 'c1', 'u1', ?, ?, ?)").run(
        id,
        id,
        `http://x/${id}`,
        at,
      );
    for (const [id, tg] of [
      ["s1", "t1"],
      ["s2", "t2"],
    ] as const)
      db.query(
        `INSERT INTO snapshots (id, target_id, comparison_id, owner_id, viewport, captured_at, screenshot_path, title, colors, width, height, extraction)
        VALUES (?, ?, 'c1', 'u1', 'desktop', ?, ?, 't', '[]', 1, 1, '{}')`,
      ).run(id, tg, at, `screenshots/u1/c1/${id}.png`);
    db.query(
      `INSERT INTO diffs (id, comparison_id, owner_id, viewport, target_a_id, target_b_id, color_similarity, layout_similarity, content_similarity, overall_similarity, components, created_at)
      VALUES ('d1', 'c1', 'u1', 'desktop', 't1', 't2', 0.5, 0.5, 0.5, 0.5, '{}', ?)`,
    ).run(at);
    db.query(
      `INSERT INTO findings (id, comparison_id, owner_id, target_id, viewport, grp, severity, title, evidence, fix, source, position, created_at)
      VALUES ('f1', 'c1', 'u1', 't1', 'desktop', 'design', 'low', 'x', '{}', 'y', 'rules', 0, ?)`,
    ).run(at);

    expect(migrate(db)).toContain(8);
    expect(db.query("SELECT comparison_id, number, trigger, status, started_at, finished_at FROM runs").all()).toEqual([
      { comparison_id: "c1", number: 1, trigger: "manual", status: "completed", started_at: at, finished_at: at },
    ]);
    const runId = (db.query("SELECT id FROM runs").get() as { id: string }).id;
    for (const table of ["snapshots", "diffs", "findings"])
      expect(db.query(`SELECT DISTINCT run_id FROM ${table}`).all()).toEqual([{ run_id: runId }]);
  });
});
