// The scheduler of a deployment on PostgreSQL, as real processes on one database and one bucket
// (s3rver) on loopback: a schedule saved through a serve wakes the scheduler at once (it starts the
// run at the schedule's slot, not at its own next look a minute later); the holder of the lease
// sweeps objects no snapshot names once they are old enough, a standby does not; and a serve
// killed in the middle of a run leaves it failed with a reason, to be started again elsewhere.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DRIVER_STOPPED_REASON } from "#server/boot/run-drivers";
import { databaseTarget, migrateSql, openSql, type SqlDb } from "#server/db/sql";
import { DEFAULT_LEASE_TTL_MS } from "#server/modules/leases/public";
import { freshPgDatabase, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";
import { startS3Server, type S3TestServer } from "#tests/support/s3-server";
import { SERVER_START_MS } from "#tests/support/server";
import { api } from "#tests/support/cluster";
import { waitFor } from "#tests/support/wait";
import { type RoleProcess, startRole } from "./support";

const suite = pgMissing ? describe.skip : describe;
const PREFIX = "deployment";
const HOUR = 3_600_000;
/** A stored screenshot's key: screenshots/<owner>/<comparison>/<sha256>.png */
const png = (hex: string) => `screenshots/sweep-owner/sweep-comparison/${hex.repeat(64)}.png`;
const REFERENCED = png("a");
const OLD_ORPHAN = png("b");
const FRESH_ORPHAN = png("c");
const LATER_ORPHAN = png("d");

suite("the scheduler on PostgreSQL", () => {
  let url: string;
  let s3: S3TestServer;
  let handle: SqlDb | null = null;
  const db = () => handle!;
  const started: RoleProcess[] = [];
  const start = async (role: "serve" | "scheduler") => {
    const p = await startRole(role, url, { ...s3.env(PREFIX), ALLOW_PRIVATE_TARGETS: "1" });
    started.push(p);
    return p;
  };
  let serveA: RoleProcess;
  let serveB: RoleProcess;
  let token: string;
  /** The scheduler holding the lease (the first, then the one that took over). */
  let scheduler: RoleProcess;
  const keys = async () => (await s3.keys()).filter((k) => k.startsWith(`${PREFIX}/`)).map((k) => k.slice(PREFIX.length + 1));

  beforeAll(async () => {
    url = await freshPgDatabase();
    handle = await openSql(databaseTarget(url, "."), { max: 2 });
    await migrateSql(handle);
    s3 = await startS3Server();

    // Stored screenshots from before any scheduler: one a snapshot names, one nobody names (an hour
    // old: a delete the store refused), one nobody names yet (a capture whose row is on its way).
    const at = new Date(Date.now() - 2 * HOUR).toISOString();
    await db().run("INSERT INTO users (id, email, password_hash, created_at) VALUES ('sweep-owner', 'sweep@example.com', 'x', $1)", [at]);
    await db().run(
      "INSERT INTO comparisons (id, owner_id, name, created_at, updated_at) VALUES ('sweep-comparison', 'sweep-owner', 'Swept', $1, $1)",
      [at],
    );
    await db().run(
      "INSERT INTO targets (id, comparison_id, owner_id, label, url, created_at) VALUES ('sweep-target', 'sweep-comparison', 'sweep-owner', 'T', 'http://x/', $1)",
      [at],
    );
    await db().run(
      `INSERT INTO snapshots (id, target_id, comparison_id, owner_id, viewport, captured_at, screenshot_path, title, colors, width, height, extraction)
       VALUES ('sweep-snapshot', 'sweep-target', 'sweep-comparison', 'sweep-owner', 'desktop', $1, $2, 't', '[]', 1, 1, '{}')`,
      [at, REFERENCED],
    );
    const bucket = new Bun.S3Client({ ...s3.settings(), bucket: s3.bucket });
    for (const key of [REFERENCED, OLD_ORPHAN, FRESH_ORPHAN]) await bucket.write(`${PREFIX}/${key}`, "png");
    for (const key of [REFERENCED, OLD_ORPHAN]) s3.backdate(`${PREFIX}/${key}`, 2 * HOUR);

    [serveA, serveB] = await Promise.all([start("serve"), start("serve")]);
    const signup = await api(serveA.url, "POST", "/api/auth/signup", undefined, {
      email: "owner@example.com",
      password: "correct-horse-battery",
    });
    expect(signup.status).toBe(201);
    token = signup.json.accessToken;
  }, PG_START_TIMEOUT + SERVER_START_MS);

  afterAll(async () => {
    await Promise.all(started.map((p) => p.stop("SIGKILL")));
    await handle?.close();
    await s3?.close();
    await stopPostgres();
  });

  /** A comparison of two sites nothing will capture (no worker): its runs stay running. */
  async function comparison(name: string): Promise<string> {
    const c = await api(serveA.url, "POST", "/api/comparisons", token, { name });
    expect(c.status).toBe(201);
    for (const [path, label] of [
      ["/alpha", "Alpha"],
      ["/beta", "Beta"],
    ])
      expect(
        (await api(serveA.url, "POST", `/api/comparisons/${c.json.id}/targets`, token, { url: `http://127.0.0.1:9${path}`, label })).status,
      ).toBe(201);
    return c.json.id;
  }

  const leaseHolder = async () =>
    (await db().one<{ holder: string }>("SELECT holder FROM leases WHERE name = 'scheduler' AND until_ms > $1", [Date.now()]))?.holder ??
    null;
  const pidOf = (instance: string) => Number(instance.split(":").at(-2));

  test(
    "a schedule saved through a serve is started by the scheduler at its slot, not at the scheduler's next look",
    async () => {
      const id = await comparison("Watched");
      // The scheduler looks when it takes the lease, then (nothing scheduled) a minute later. It
      // starts when the next minute is 25–45 s away, so that slot comes at least 15 s before that
      // look, with 20 s for a busy machine to start it and save the schedule.
      const toNextMinute = () => 60_000 - (Date.now() % 60_000);
      await waitFor("the next minute to be 25–45 s away", () => toNextMinute() >= 25_000 && toNextMinute() <= 45_000, 60_000, 100);
      const spawnedAt = Date.now();
      scheduler = await start("scheduler");
      const holder = await waitFor("the scheduler to hold its lease", leaseHolder, 20_000, 100);
      expect(pidOf(holder)).toBe(scheduler.proc.pid);

      const saved = await api(serveA.url, "PUT", `/api/comparisons/${id}/schedule`, token, { cron: "* * * * *", timezone: "UTC" });
      expect(saved.status).toBe(200);
      const slot = Date.parse(saved.json.nextRunAt);
      // Its own next look is at least a minute after it started: 15 s or more after the slot.
      expect(slot).toBeLessThanOrEqual(spawnedAt + 45_000);

      const ran = await waitFor(
        "the scheduled run",
        () =>
          db().one<{ last_run_at: string }>(
            "SELECT last_run_at FROM comparison_schedules WHERE comparison_id = $1 AND last_run_at IS NOT NULL",
            [id],
          ),
        75_000,
        100,
      );
      const late = Date.parse(ran.last_run_at) - slot;
      expect(late).toBeGreaterThanOrEqual(0);
      // Woken by the save, it starts the run at the slot; waiting for its own look would be 15 s late or more.
      expect(late).toBeLessThan(10_000);
      const run = await db().one<{ trigger: string; driver: string }>("SELECT trigger, driver FROM runs WHERE comparison_id = $1", [id]);
      expect(run).toEqual({ trigger: "schedule", driver: holder });
    },
    120_000 + SERVER_START_MS,
  );

  test(
    "the lease holder sweeps stored screenshots no snapshot names once an hour old; a standby does not, until it takes over",
    async () => {
      expect(scheduler).toBeDefined();
      // Swept when it took the lease: the old one nobody names went; the named and the fresh stay.
      await waitFor("the old unreferenced object to go", async () => !(await keys()).includes(OLD_ORPHAN), 20_000, 200);
      expect(await keys()).toEqual([REFERENCED, FRESH_ORPHAN]);
      await waitFor("the holder's log line", () => scheduler.output().includes("screenshot sweep: removed"), 5_000);

      // A second scheduler stands by: another leftover stays while it does.
      const bucket = new Bun.S3Client({ ...s3.settings(), bucket: s3.bucket });
      await bucket.write(`${PREFIX}/${LATER_ORPHAN}`, "png");
      s3.backdate(`${PREFIX}/${LATER_ORPHAN}`, 2 * HOUR);
      const standby = await start("scheduler");
      await waitFor(
        "the standby to name the holder",
        async () => (await standby.get("/api/health/ready")).json?.lease?.holder ?? null,
        20_000,
        200,
      );
      expect((await standby.get("/api/health/ready")).json.lease.held).toBe(false);
      await Bun.sleep(2_000);
      expect(await keys()).toContain(LATER_ORPHAN);
      expect(standby.output()).not.toContain("screenshot sweep");

      // The holder is killed: the standby takes the lease and sweeps.
      await scheduler.stop("SIGKILL");
      scheduler = standby;
      await waitFor("the new holder to sweep", async () => !(await keys()).includes(LATER_ORPHAN), DEFAULT_LEASE_TTL_MS * 2 + 10_000, 250);
      expect(await keys()).toEqual([REFERENCED, FRESH_ORPHAN]);
      expect(pidOf((await leaseHolder())!)).toBe(standby.proc.pid);
    },
    DEFAULT_LEASE_TTL_MS * 2 + SERVER_START_MS + 40_000,
  );

  test(
    "a serve killed (SIGKILL) mid-run: the scheduler fails its run with the reason, and it starts again through the other serve",
    async () => {
      expect(scheduler).toBeDefined();
      const id = await comparison("Driven by a serve that dies");
      expect((await api(serveA.url, "POST", `/api/comparisons/${id}/start`, token)).status).toBe(202);
      const first = await waitFor(
        "the run driven by serve A",
        () =>
          db().one<{ id: string; driver: string; status: string }>("SELECT id, driver, status FROM runs WHERE comparison_id = $1", [id]),
        10_000,
        100,
      );
      expect(pidOf(first.driver)).toBe(serveA.proc.pid);
      expect(first.status).toBe("running");

      await serveA.stop("SIGKILL");
      // Its drive lease runs out a TTL after its last renewal; the scheduler looks every TTL.
      const failed = await waitFor(
        "the run to be failed",
        () =>
          db().one<{ status: string; error: string }>("SELECT status, error FROM comparisons WHERE id = $1 AND status = 'failed'", [id]),
        DEFAULT_LEASE_TTL_MS * 2 + 10_000,
        250,
      );
      expect(failed.error).toBe(DRIVER_STOPPED_REASON);
      expect(await db().one("SELECT status, error FROM runs WHERE id = $1", [first.id])).toEqual({
        status: "interrupted",
        error: DRIVER_STOPPED_REASON,
      });
      const shown = await api(serveB.url, "GET", `/api/comparisons/${id}`, token);
      expect(shown.json).toMatchObject({ status: "failed", error: DRIVER_STOPPED_REASON });

      const again = await api(serveB.url, "POST", `/api/comparisons/${id}/start`, token);
      expect(again.status).toBe(202);
      expect(again.json.status).toBe("running");
      const second = await waitFor(
        "the second run",
        () =>
          db().one<{ driver: string; status: string }>("SELECT driver, status FROM runs WHERE comparison_id = $1 AND id <> $2", [
            id,
            first.id,
          ]),
        10_000,
        100,
      );
      expect(second.status).toBe("running");
      expect(pidOf(second.driver)).toBe(serveB.proc.pid);
    },
    DEFAULT_LEASE_TTL_MS * 2 + 30_000,
  );
});
