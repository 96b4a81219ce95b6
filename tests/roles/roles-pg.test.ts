// The roles of one binary on PostgreSQL (docs/scaling.md, "Roles"), as real processes on one
// database on loopback: a worker's and a scheduler's readiness, only one of two schedulers acting
// and the other taking over when it is killed, and live messages and sign-outs crossing serves.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { databaseTarget, migrateSql, openSql, type SqlDb } from "#server/db/sql";
import { DRIVER_STOPPED_REASON } from "#server/boot/run-drivers";
import { comparisonsRepository } from "#server/modules/comparisons/repository";
import { DEFAULT_LEASE_TTL_MS } from "#server/modules/leases/public";
import { WS_SUBPROTOCOL } from "#server/live/ws";
import { openSocket } from "#tests/support/live-server";
import { freshPgDatabase, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";
import { SERVER_START_MS } from "#tests/support/server";
import { waitFor } from "#tests/support/wait";
import { type RoleProcess, startRole } from "./support";

const suite = pgMissing ? describe.skip : describe;

suite("roles on PostgreSQL", () => {
  let url: string;
  const started: RoleProcess[] = [];
  const start = async (...args: Parameters<typeof startRole>) => {
    const p = await startRole(...args);
    started.push(p);
    return p;
  };
  // The scheduler left running by the failover test: the metrics it publishes reach serve B's socket.
  let scheduler: RoleProcess | null = null;

  // The test's own connection, to read the leases table.
  let handle: SqlDb | null = null;
  const db = () => handle!;

  beforeAll(async () => {
    url = await freshPgDatabase();
    // Migrated once here, so the processes below start together without racing on the schema.
    handle = await openSql(databaseTarget(url, "."), { max: 1 });
    await migrateSql(handle);
  }, PG_START_TIMEOUT);

  afterAll(async () => {
    await Promise.all(started.map((p) => p.stop("SIGKILL")));
    await handle?.close();
    await stopPostgres();
  });

  test(
    "a worker is ready with database, storage and a browser, and answers nothing but health",
    async () => {
      const worker = await start("worker", url);
      const ready = await worker.get("/api/health/ready");
      expect(ready.status).toBe(200);
      expect(ready.json).toMatchObject({
        ok: true,
        role: "worker",
        checks: {
          database: { ok: true, detail: expect.stringMatching(/^postgres \d+/) },
          storage: { ok: true, detail: expect.stringMatching(/^files \//) },
          capture: { ok: true, detail: expect.stringContaining("browsers") },
        },
      });
      expect(ready.json.checks.scheduler).toBeUndefined();
      expect(await worker.get("/api/health/live")).toEqual({ status: 200, json: { ok: true } });
      for (const path of ["/api/health", "/api/comparisons", "/"]) {
        const r = await worker.get(path);
        expect({ path, status: r.status }).toEqual({ path, status: 404 });
        expect(r.json.error).toContain("worker");
      }
      expect(await worker.stop()).toBe(0);
      // Its last line, once the pipe is read to the end.
      await waitFor("the worker's last log line", () => worker.output().includes("stopped cleanly"), 5_000);
    },
    SERVER_START_MS + 30_000,
  );

  test(
    "design-intel with no command runs every role in one process on PostgreSQL too",
    async () => {
      const all = await start(null, url);
      const ready = await all.get("/api/health/ready");
      expect(ready.status).toBe(200);
      expect(ready.json.role).toBe("all");
      expect(Object.keys(ready.json.checks)).toEqual(["database", "migrations", "storage", "capture"]);
      expect((await all.get("/api/health")).status).toBe(200);
      // It schedules under the lease like any scheduler (nobody else holds it yet), and lets it go on a clean stop.
      const held = async () => (await db().one<{ holder: string }>("SELECT holder FROM leases WHERE name = 'scheduler'"))?.holder ?? null;
      const holder = await waitFor("the single process to hold the scheduler lease", held, 20_000, 200);
      expect(Number(holder.split(":").at(-2))).toBe(all.proc.pid);
      expect(await all.stop()).toBe(0);
      expect(await held()).toBeNull();
    },
    SERVER_START_MS + 40_000,
  );

  test(
    "two schedulers: exactly one holds the lease, the other is ready standing by, and takes over once the holder is killed",
    async () => {
      const [a, b] = await Promise.all([start("scheduler", url), start("scheduler", url)]);
      const leases = async () => Promise.all([a, b].map(async (s) => (await s.get("/api/health/ready")).json));
      const settled = await waitFor(
        "one scheduler to hold the lease and the other to name it",
        async () => {
          const [ra, rb] = await leases();
          const holders = [ra, rb].filter((r) => r.lease?.held);
          const standby = [ra, rb].find((r) => r.lease && !r.lease.held && r.lease.holder);
          return holders.length === 1 && standby ? { holder: holders[0], standby } : null;
        },
        30_000,
        200,
      );
      for (const r of [settled.holder, settled.standby]) expect(r).toMatchObject({ ok: true, role: "scheduler" });
      expect(settled.holder.checks.scheduler.detail).toMatch(/^holds the scheduler lease until .*: scheduling$/);
      expect(settled.holder.checks.database.detail).toMatch(/^postgres \d+/);
      for (const r of [settled.holder, settled.standby])
        expect(Object.keys(r.checks)).toEqual(["database", "migrations", "storage", "scheduler"]);
      expect(settled.standby.checks.scheduler).toEqual({
        ok: true,
        detail: expect.stringMatching(
          new RegExp(`^standing by: ${settled.holder.lease.holder.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} holds`),
        ),
      });
      expect(settled.standby.lease.holder).toBe(settled.holder.lease.holder);

      // A holder is named host:pid:tag.
      const holderPid = Number(String(settled.holder.lease.holder).split(":").at(-2));
      const [holderProc, standbyProc] = a.proc.pid === holderPid ? [a, b] : [b, a];
      expect(holderProc.proc.pid).toBe(holderPid);
      const killedAt = Date.now();
      await holderProc.stop("SIGKILL");
      const took = await waitFor(
        "the standby to take the lease",
        async () => ((await standbyProc.get("/api/health/ready")).json.lease?.held ? Date.now() - killedAt : null),
        DEFAULT_LEASE_TTL_MS * 2 + 10_000,
        200,
      );
      // A lease runs out a whole TTL after its last renewal; the standby asks every third of it (and
      // a few seconds for a busy machine).
      expect(took).toBeLessThan(DEFAULT_LEASE_TTL_MS + DEFAULT_LEASE_TTL_MS / 3 + 5_000);
      scheduler = standbyProc;
    },
    SERVER_START_MS * 2 + 60_000,
  );

  test(
    "serves share live messages and sign-outs: a socket on serve B hears the scheduler's metrics and agents (switched on through serve A) and closes when its session signs out through serve A",
    async () => {
      expect(scheduler).not.toBeNull();
      const [a, b] = await Promise.all([start("serve", url), start("serve", url)]);
      const ready = await a.get("/api/health/ready");
      expect(ready.json).toMatchObject({ ok: true, role: "serve", checks: { database: { ok: true }, storage: { ok: true } } });
      // No browsers of its own: its runs' pages are captured as jobs by the workers.
      expect(Object.keys(ready.json.checks)).toEqual(["database", "migrations", "storage"]);
      // The first account is the admin: it hears SYSTEM_METRICS.
      const signup = await fetch(`${a.url}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "admin@example.com", password: "correct-horse-battery" }),
      });
      expect(signup.status).toBe(201);
      const { accessToken } = (await signup.json()) as { accessToken: string };
      const cookie = (signup.headers.get("set-cookie") ?? "").split(";")[0]!;
      const socket = openSocket(`${b.url.replace("http", "ws")}/ws`, { protocols: [WS_SUBPROTOCOL, `bearer.${accessToken}`] });
      expect(await socket.opened).toBe(true);
      await waitFor("the scheduler's metrics on serve B's socket", () => socket.messages.some((m) => m.type === "SYSTEM_METRICS"), 20_000);

      // Mission Control's switch, flipped through serve A, starts the agents in the scheduler only:
      // their updates reach serve B's socket, and neither serve runs an agent host.
      const started = await fetch(`${a.url}/api/system/start`, { method: "POST", headers: { authorization: `Bearer ${accessToken}` } });
      expect(started.status).toBe(200);
      expect(await started.json()).toMatchObject({ isActive: true, running: false });
      await waitFor(
        "agent updates from the scheduler on serve B's socket",
        () => socket.messages.some((m) => m.type === "AGENT_UPDATE"),
        20_000,
      );
      const status = await fetch(`${b.url}/api/system/status`, { headers: { authorization: `Bearer ${accessToken}` } });
      expect(await status.json()).toMatchObject({ isActive: true, running: false });

      // Maintenance switched on through A closes B's gate too (B reads the stored flag every few seconds).
      const admin = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
      const on = await fetch(`${a.url}/api/admin/maintenance`, { method: "POST", headers: admin, body: JSON.stringify({ enabled: true }) });
      expect(on.status).toBe(200);
      await waitFor("maintenance on serve B", async () => (await b.get("/api/maintenance")).json?.enabled === true, 15_000, 250);
      await fetch(`${a.url}/api/admin/maintenance`, { method: "POST", headers: admin, body: JSON.stringify({ enabled: false }) });
      await waitFor("maintenance off on serve B", async () => (await b.get("/api/maintenance")).json?.enabled === false, 15_000, 250);

      const logout = await fetch(`${a.url}/api/auth/logout`, { method: "POST", headers: { cookie, origin: a.url } });
      expect(logout.status).toBeLessThan(300);
      const closed = await Promise.race([socket.closed, Bun.sleep(10_000).then(() => null)]);
      expect(closed).toEqual({ code: 4001, reason: "Signed out" });
    },
    SERVER_START_MS * 2 + 60_000,
  );

  test(
    "the scheduler fails, within a lease, a run whose driving instance stopped, with that reason",
    async () => {
      expect(scheduler).not.toBeNull();
      const at = new Date(Date.now() - 60 * 60_000).toISOString();
      const repo = comparisonsRepository(db());
      await db().run("INSERT INTO users (id, email, password_hash, created_at) VALUES ('ghost-owner', 'ghost@example.com', 'x', $1)", [at]);
      await repo.insertComparison({
        id: "0190c0de-0000-7000-8000-00000000aaaa",
        ownerId: "ghost-owner",
        name: "Orphan",
        description: null,
        at,
      });
      await repo.markRunning("0190c0de-0000-7000-8000-00000000aaaa", "ghost-owner", 4, "Capturing", at);
      // Driven by an instance that is gone: no drive lease of its name.
      await repo.openRun({
        id: "0190c0de-0000-7000-8000-00000000bbbb",
        comparisonId: "0190c0de-0000-7000-8000-00000000aaaa",
        ownerId: "ghost-owner",
        trigger: "schedule",
        at,
        driver: "gone-host:4242:abcdef",
      });
      const failed = await waitFor(
        "the orphaned run to be failed",
        () =>
          db().one<{ status: string; error: string }>(
            "SELECT status, error FROM comparisons WHERE id = '0190c0de-0000-7000-8000-00000000aaaa' AND status = 'failed'",
          ),
        DEFAULT_LEASE_TTL_MS + 10_000,
        250,
      );
      expect(failed.error).toBe(DRIVER_STOPPED_REASON);
    },
    DEFAULT_LEASE_TTL_MS + 30_000,
  );
});
