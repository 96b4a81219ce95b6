// /api/health/live and /api/health/ready through the app: each readiness check turns the answer
// into a 503 that names it. The real read-only and full disks are in tests/faults/health-ready.test.ts.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "#server/db/migrations";
import type { CaptureReadiness } from "#server/modules/capture/browser/pool";
import { sqliteSql } from "#server/db/sql";
import { healthService, MIN_FREE_BYTES } from "#server/modules/health/service";
import { makeTestApp } from "#tests/support/app";

const browsers =
  (n: number, available = true, onDemand = false): (() => CaptureReadiness) =>
  () => ({ available, browsers: n, concurrency: 2, onDemand });

describe("GET /api/health/live", () => {
  test("200 { ok: true } whatever the readiness", async () => {
    const t = makeTestApp();
    const r = await t.call("GET", "/api/health/live");
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true });
    expect(r.headers.get("cache-control")).toBe("no-store");
  });
});

describe("GET /api/health/ready", () => {
  test("200 with every check when all pass", async () => {
    const t = makeTestApp({ captureReadiness: browsers(2) });
    const r = await t.call("GET", "/api/health/ready");
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.json).toEqual({
      ok: true,
      role: "all",
      checks: {
        database: { ok: true, detail: "sqlite, writable" },
        migrations: { ok: true, detail: `${migrations.length} applied` },
        storage: { ok: true, detail: expect.stringContaining("free in the data directory") },
        capture: { ok: true, detail: "2 of 2 browsers running" },
      },
    });
    // The probe is a real committed write.
    expect(t.db.query<{ n: number }, []>("SELECT count(*) AS n FROM health_probe").get()!.n).toBe(1);
  });

  test("503 naming capture when no browser is up, or none can be", async () => {
    for (const [readiness, detail] of [
      [browsers(0), "no capture browser running yet (0 of 2)"],
      [browsers(0, false), "no Chromium browser found: install chromium or set CHROMIUM_PATH"],
      [undefined, "no capture pool in this process"],
    ] as const) {
      const t = makeTestApp({ captureReadiness: readiness });
      const r = await t.call("GET", "/api/health/ready");
      expect(r.status).toBe(503);
      expect(r.json.error).toBe(`capture: ${detail}`);
      expect(r.json.checks.capture).toEqual({ ok: false, detail });
      expect(r.json.checks.database.ok).toBe(true);
    }
  });

  test("200 with no browser running when the pool launches them on the first capture (CAPTURE_LAZY)", async () => {
    const t = makeTestApp({ captureReadiness: browsers(0, true, true) });
    const r = await t.call("GET", "/api/health/ready");
    expect(r.status).toBe(200);
    expect(r.json.checks.capture).toEqual({ ok: true, detail: "0 of 2 browsers running; they launch on the first capture (CAPTURE_LAZY)" });
    // No Chromium at all is still a fault, lazy or not.
    const none = await makeTestApp({ captureReadiness: browsers(0, false, true) }).call("GET", "/api/health/ready");
    expect(none.status).toBe(503);
  });

  test("503 naming migrations when one is missing, or the database is newer than this build", async () => {
    const t = makeTestApp({ captureReadiness: browsers(1) });
    const last = migrations.at(-1)!;
    t.db.run("DELETE FROM schema_migrations WHERE version = ?", [last.version]);
    let r = await t.call("GET", "/api/health/ready");
    expect(r.status).toBe(503);
    expect(r.json.error).toBe(`migrations: not applied: ${last.name}`);

    t.db.run("INSERT INTO schema_migrations (version, name) VALUES (?, ?), (999, 'from_the_future')", [last.version, last.name]);
    r = await t.call("GET", "/api/health/ready");
    expect(r.status).toBe(503);
    expect(r.json.error).toBe("migrations: the database has migrations this build does not know: 999");
  });

  test("503 naming the database when it refuses writes, and every failing check is named", async () => {
    let clock = Date.parse("2026-01-01T00:00:00Z");
    const t = makeTestApp({ captureReadiness: browsers(0), now: () => clock });
    t.db.exec("PRAGMA query_only = ON");
    const r = await t.call("GET", "/api/health/ready");
    expect(r.status).toBe(503);
    expect(r.json.checks.database.ok).toBe(false);
    expect(r.json.checks.database.detail).toStartWith("not writable (");
    expect(r.json.error).toBe(`database: ${r.json.checks.database.detail}; capture: no capture browser running yet (0 of 2)`);
    // Writable again: the next probe (a second later; they are throttled) says so.
    t.db.exec("PRAGMA query_only = OFF");
    clock += 1000;
    expect((await t.call("GET", "/api/health/ready")).json.checks.database).toEqual({ ok: true, detail: "sqlite, writable" });
  });

  test("/api/health keeps its answer", async () => {
    const t = makeTestApp({ captureReadiness: browsers(0) });
    const r = await t.call("GET", "/api/health");
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true, capture: { available: true, browsers: 0, concurrency: 2, onDemand: false } });
  });
});

describe("storage check", () => {
  test("fails below the free-space floor, with the figures", async () => {
    const t = makeTestApp();
    const at = (free: number) =>
      healthService({
        db: sqliteSql(t.db),
        dataDir: "/data",
        migrations,
        captureReadiness: browsers(1),
        freeBytes: () => free,
        createProbeFile: () => {},
      }).ready();
    expect((await at(MIN_FREE_BYTES)).ok).toBe(true);
    const full = await at(3 * 1024 * 1024);
    expect(full.ok).toBe(false);
    expect(full).toMatchObject({ error: "storage: 3.0 MB free in the data directory, at least 64 MB needed" });
    const gone = await healthService({
      db: sqliteSql(t.db),
      dataDir: "/no/such/dir",
      migrations,
      captureReadiness: browsers(1),
      freeBytes: () => {
        throw Object.assign(new Error("no such file or directory"), { code: "ENOENT" });
      },
    }).ready();
    expect(gone).toMatchObject({
      ok: false,
      error: "storage: the data directory could not be checked (ENOENT: no such file or directory)",
    });
  });

  test("fails when a file cannot be created in the data directory, though it has room", async () => {
    const t = makeTestApp();
    const denied = await healthService({
      db: sqliteSql(t.db),
      dataDir: "/data",
      migrations,
      captureReadiness: browsers(1),
      freeBytes: () => MIN_FREE_BYTES * 10,
      createProbeFile: () => {
        throw Object.assign(new Error("permission denied, open '/data/.ready-probe-1'"), { code: "EACCES" });
      },
    }).ready();
    expect(denied).toMatchObject({
      ok: false,
      error: "storage: new files cannot be created in the data directory (EACCES: permission denied, open '/data/.ready-probe-1')",
    });
  });

  test("the real probe leaves nothing behind in the data directory, and names a directory that is not there", async () => {
    const t = makeTestApp();
    const dir = mkdtempSync(join(tmpdir(), "di-ready-"));
    const at = (dataDir: string) =>
      healthService({ db: sqliteSql(t.db), dataDir, migrations, captureReadiness: browsers(1), freeBytes: () => MIN_FREE_BYTES }).ready();
    expect((await at(dir)).ok).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
    const missing = await at(join(dir, "gone"));
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error).toStartWith("storage: new files cannot be created in the data directory (ENOENT");
    rmSync(dir, { recursive: true });
  });
});

describe("browser check, with remote browsers (BROWSER_WS_ENDPOINTS)", () => {
  const remote =
    (reachable: boolean[], browsersUp = 2): (() => CaptureReadiness) =>
    () => ({
      available: true,
      browsers: browsersUp,
      concurrency: 2,
      onDemand: false,
      remote: {
        reachable: reachable.filter(Boolean).length,
        total: reachable.length,
        endpoints: reachable.map((up, i) => ({
          endpoint: `ws://browser-${i + 1}:3000`,
          reachable: up,
          detail: up ? null : "ECONNREFUSED",
        })),
      },
    });

  test("200 while one browser server answers, naming each", async () => {
    const r = await makeTestApp({ captureReadiness: remote([false, true]) }).call("GET", "/api/health/ready");
    expect(r.status).toBe(200);
    expect(r.json.checks.browser).toEqual({
      ok: true,
      detail: "1 of 2 browser servers reachable: ws://browser-1:3000 not reachable (ECONNREFUSED); ws://browser-2:3000 reachable",
    });
    expect(r.json.checks.capture).toEqual({ ok: true, detail: "2 of 2 browsers running" });
  });

  test("503 naming the browser check when none answers", async () => {
    const r = await makeTestApp({ captureReadiness: remote([false, false], 0) }).call("GET", "/api/health/ready");
    expect(r.status).toBe(503);
    const detail =
      "0 of 2 browser servers reachable: ws://browser-1:3000 not reachable (ECONNREFUSED); ws://browser-2:3000 not reachable (ECONNREFUSED)";
    expect(r.json.checks.browser).toEqual({ ok: false, detail });
    expect(r.json.error).toBe(`capture: no capture browser running yet (0 of 2); browser: ${detail}`);
  });

  test("without remote browsers there is no browser check, and /api/health keeps its answer either way", async () => {
    const local = await makeTestApp({ captureReadiness: browsers(2) }).call("GET", "/api/health/ready");
    expect(Object.keys(local.json.checks)).toEqual(["database", "migrations", "storage", "capture"]);
    const r = await makeTestApp({ captureReadiness: remote([true, true]) }).call("GET", "/api/health");
    expect(r.json).toEqual({ ok: true, capture: { available: true, browsers: 2, concurrency: 2, onDemand: false } });
  });
});
