// The deployment end to end (issue 30): PostgreSQL, an S3 endpoint, two browser servers, two of
// each role, all on loopback (tests/support/cluster.ts, as scripts/cluster.sh starts them). A user
// signs up through one `serve`, creates a comparison of three fixture sites and starts it through
// the other; the workers capture it on the browser servers; a socket on the first `serve` sees its
// stages; its screenshots are in the bucket and none under any instance's DATA_DIR. Then the faults:
// a worker killed holding a capture, a browser server killed mid-run, PostgreSQL stopped for 10 s
// mid-run, and a one-minute schedule with two schedulers running.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseTarget, openSql, type SqlDb } from "#server/db/sql";
import { WS_SUBPROTOCOL } from "#server/live/ws";
import { api, startCluster, type Cluster } from "#tests/support/cluster";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { openSocket, type TestSocket } from "#tests/support/live-server";
import { pgMissing, PG_START_TIMEOUT } from "#tests/support/postgres";
import { waitFor } from "#tests/support/wait";

let dir: string;
let cluster: Cluster;
let fixtures: FixtureServer;
let db: SqlDb;

const SITES = [
  ["/alpha/", "Orbit"],
  ["/gamma/", "Fieldnotes"],
  ["/alpha-edited/", "Orbit edited"],
] as const;

describe.skipIf(Boolean(pgMissing))("a deployment on loopback", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "di-cluster-"));
    fixtures = startFixtureServer();
    cluster = await startCluster({ dir, env: { ALLOW_PRIVATE_TARGETS: "1" } });
    // The test's own look at the jobs table: which worker holds which capture.
    db = await openSql(databaseTarget(cluster.databaseUrl, "."), { max: 1 });
  }, PG_START_TIMEOUT + 180_000);

  afterAll(async () => {
    await db?.close();
    await cluster?.stop();
    await fixtures?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("every role is ready and says which role it is; one scheduler holds the lock, the other stands by", async () => {
    const ready = await Promise.all(cluster.instances.map(async (i) => ({ i, r: await api(i.url, "GET", "/api/health/ready") })));
    for (const { i, r } of ready) {
      expect(r.status, i.name).toBe(200);
      expect(r.json.role, i.name).toBe(i.role);
      expect(r.json.checks.database.detail, i.name).toStartWith("postgres 1");
      expect(r.json.checks.storage.detail, i.name).toStartWith("s3");
    }
    // Workers and schedulers answer nothing but their health.
    expect((await api(cluster.of("worker")[0]!.url, "GET", "/api/comparisons")).status).toBe(404);
    const leases = ready.filter(({ i }) => i.role === "scheduler").map(({ r }) => r.json.lease);
    expect(leases.filter((l) => l.held)).toHaveLength(1);
    expect(leases.find((l) => !l.held)?.holder).toBeTruthy();
  });

  test("signed up through one serve, started through the other: the run completes, watched from the first", async () => {
    const [a, b] = cluster.of("serve") as [Cluster["instances"][number], Cluster["instances"][number]];
    const signup = await api(a.url, "POST", "/api/auth/signup", undefined, {
      email: "owner@example.com",
      password: "correct-horse-battery",
    });
    expect(signup.status).toBe(201);
    const token = signup.json.accessToken as string;

    const socket: TestSocket = openSocket(`${a.url.replace("http", "ws")}/ws`, {
      protocols: [WS_SUBPROTOCOL, `bearer.${token}`],
      headers: { origin: a.url },
    });
    expect(await socket.opened).toBe(true);

    const c = await api(b.url, "POST", "/api/comparisons", token, { name: "Three sites" });
    expect(c.status).toBe(201);
    for (const [path, label] of [
      ["/alpha/", "Orbit"],
      ["/gamma/", "Fieldnotes"],
      ["/alpha-edited/", "Orbit edited"],
    ])
      expect((await api(b.url, "POST", `/api/comparisons/${c.json.id}/targets`, token, { url: fixtures.url(path!), label })).status).toBe(
        201,
      );
    expect((await api(b.url, "POST", `/api/comparisons/${c.json.id}/start`, token)).status).toBe(202);

    let done: { status: string; error: string | null } | null = null;
    await waitFor(
      "the run to finish",
      async () => {
        done = (await api(b.url, "GET", `/api/comparisons/${c.json.id}`, token)).json;
        return done?.status === "completed" || done?.status === "failed";
      },
      240_000,
      500,
    );
    expect(done!).toMatchObject({ status: "completed", error: null });

    // The socket on the other serve saw the run's stages, in order, to the end.
    const mine = socket.messages.filter((m) => (m.payload as { comparisonId?: string })?.comparisonId === c.json.id);
    expect(mine.some((m) => m.type === "COMPARISON_PROGRESS")).toBe(true);
    expect(mine.filter((m) => m.type === "COMPARISON_STATUS").at(-1)?.payload).toMatchObject({ status: "completed" });

    // Six screenshots (three sites, two viewports) in the bucket; none under any DATA_DIR.
    const snaps = (await api(a.url, "GET", `/api/comparisons/${c.json.id}/snapshots`, token)).json as { screenshotUrl: string }[];
    expect(snaps).toHaveLength(6);
    const keys = (await cluster.s3.keys()).filter((k) => k.endsWith(".png"));
    expect(keys.filter((k) => k.startsWith("cluster/screenshots/")).length).toBeGreaterThanOrEqual(1);
    expect(cluster.filesUnderDataDirs().filter((f) => /\.(png|jpe?g|webp)$/.test(f))).toEqual([]);
    // An image streams through either serve, behind the owner's token.
    const shot = await fetch(`${b.url}${snaps[0]!.screenshotUrl}`, { headers: { authorization: `Bearer ${token}` } });
    expect(shot.status).toBe(200);
    expect(shot.headers.get("content-type")).toContain("image/png");
    socket.ws.close();
  }, 300_000);

  /** A new account with a comparison of the three sites, made through `base`. */
  async function threeSites(base: string, name: string) {
    const signup = await api(base, "POST", "/api/auth/signup", undefined, {
      email: `${crypto.randomUUID()}@example.com`,
      password: "correct-horse-battery",
    });
    expect(signup.status).toBe(201);
    const token = signup.json.accessToken as string;
    const c = await api(base, "POST", "/api/comparisons", token, { name });
    expect(c.status).toBe(201);
    for (const [path, label] of SITES)
      expect((await api(base, "POST", `/api/comparisons/${c.json.id}/targets`, token, { url: fixtures.url(path), label })).status).toBe(
        201,
      );
    return { token, id: c.json.id as string };
  }

  async function finished(base: string, token: string, id: string) {
    return waitFor(
      "the run to finish",
      async () => {
        const c = (await api(base, "GET", `/api/comparisons/${id}`, token)).json;
        return c && (c.status === "completed" || c.status === "failed") ? (c as { status: string; error: string | null }) : null;
      },
      280_000,
      500,
    );
  }

  /** Three sites, two viewports: six pages, each once. */
  async function sixPagesOnce(base: string, token: string, id: string) {
    const snaps = (await api(base, "GET", `/api/comparisons/${id}/snapshots`, token)).json as { targetId: string; viewport: string }[];
    expect(snaps).toHaveLength(6);
    expect(new Set(snaps.map((s) => `${s.targetId} ${s.viewport}`)).size).toBe(6);
  }

  const runningCapture = () =>
    waitFor(
      "a worker holding a capture",
      async () =>
        (await db.one<{ id: string; leased_by: string }>(
          "SELECT id, leased_by FROM jobs WHERE kind = 'capture' AND state = 'running' ORDER BY updated_at LIMIT 1",
        )) ?? null,
      120_000,
      25,
    );

  test("a worker killed (SIGKILL) while it holds a capture: another finishes it after the lease runs out, the run completes, each page once", async () => {
    const a = cluster.of("serve")[0]!;
    const { token, id } = await threeSites(a.url, "Worker killed");
    expect((await api(a.url, "POST", `/api/comparisons/${id}/start`, token)).status).toBe(202);
    const held = await runningCapture();
    // A runner's name is host:pid:random.
    const pid = Number(held.leased_by.split(":")[1]);
    const victim = cluster.of("worker").find((w) => w.server.proc.pid === pid);
    expect(victim, held.leased_by).toBeDefined();
    victim!.server.proc.kill("SIGKILL");
    await victim!.server.proc.exited;

    expect(await finished(a.url, token, id)).toMatchObject({ status: "completed", error: null });
    await sixPagesOnce(a.url, token, id);
    const job = await db.one<{ state: string; attempts: number }>("SELECT state, attempts FROM jobs WHERE id = $1", [held.id]);
    expect(job).toMatchObject({ state: "done", attempts: 2 });
    // The deployment gets its second worker back for what follows.
    await cluster.add("worker");
  }, 300_000);

  test("a browser server killed (SIGKILL) mid-run: the run completes on the other", async () => {
    const b = cluster.of("serve")[1]!;
    const { token, id } = await threeSites(b.url, "Browser server killed");
    expect((await api(b.url, "POST", `/api/comparisons/${id}/start`, token)).status).toBe(202);
    await runningCapture();
    cluster.browsers[0]!.process().kill("SIGKILL");
    expect(await finished(b.url, token, id)).toMatchObject({ status: "completed", error: null });
    await sixPagesOnce(b.url, token, id);
  }, 300_000);

  test("PostgreSQL stopped for 10 s mid-run: 503s, never a 500; then the run ends with a reason or completes, starts again, and nothing is lost", async () => {
    const a = cluster.of("serve")[0]!;
    const before = await threeSites(a.url, "Before the outage");
    const { token, id } = await threeSites(a.url, "Through the outage");
    expect((await api(a.url, "POST", `/api/comparisons/${id}/start`, token)).status).toBe(202);
    await runningCapture();

    await cluster.pg.halt();
    const stoppedAt = Date.now();
    const statuses: number[] = [];
    try {
      const ready = await waitFor(
        "readiness to fail",
        async () => ((await api(a.url, "GET", "/api/health/ready")).status === 503 ? true : null),
        8_000,
        200,
      );
      expect(ready).toBe(true);
      // Every serve, reads and a write, side by side while the database is away.
      const calls = cluster
        .of("serve")
        .flatMap((serve) => [
          api(serve.url, "GET", "/api/comparisons", token),
          api(serve.url, "GET", `/api/comparisons/${id}`, token),
          api(serve.url, "POST", "/api/comparisons", token, { name: "During the outage" }),
        ]);
      for (const r of await Promise.all(calls)) {
        statuses.push(r.status);
        expect(typeof r.json?.error).toBe("string");
      }
      expect(new Set(statuses)).toEqual(new Set([503]));
    } finally {
      // Back after 10 s, and never before every call above was answered: they all met the outage.
      await Bun.sleep(Math.max(0, 10_000 - (Date.now() - stoppedAt)));
      await cluster.pg.resume();
    }
    expect(statuses).not.toContain(500);

    await waitFor(
      "every serve ready again",
      async () => {
        const all = await Promise.all(cluster.of("serve").map((s) => api(s.url, "GET", "/api/health/ready")));
        return all.every((r) => r.status === 200) || null;
      },
      60_000,
      500,
    );
    const ended = await finished(a.url, token, id);
    if (ended.status === "failed") {
      expect(ended.error?.length ?? 0).toBeGreaterThan(10);
      expect((await api(a.url, "POST", `/api/comparisons/${id}/start`, token)).status).toBe(202);
      expect(await finished(a.url, token, id)).toMatchObject({ status: "completed", error: null });
    }
    await sixPagesOnce(a.url, token, id);
    // What was written before the outage is all there.
    const kept = (await api(a.url, "GET", `/api/comparisons/${before.id}/targets`, before.token)).json as unknown[];
    expect(kept).toHaveLength(3);
  }, 420_000);

  test("a one-minute schedule with two schedulers running fires once a minute, four minutes running", async () => {
    const a = cluster.of("serve")[0]!;
    const signup = await api(a.url, "POST", "/api/auth/signup", undefined, {
      email: `${crypto.randomUUID()}@example.com`,
      password: "correct-horse-battery",
    });
    const token = signup.json.accessToken as string;
    const c = (await api(a.url, "POST", "/api/comparisons", token, { name: "Every minute" })).json;
    // Two small sites (a comparison needs two): each run ends well within its minute.
    for (const [path, label] of SITES.slice(0, 2))
      expect((await api(a.url, "POST", `/api/comparisons/${c.id}/targets`, token, { url: fixtures.url(path), label })).status).toBe(201);
    expect(cluster.of("scheduler").filter((s) => s.server.proc.exitCode === null)).toHaveLength(2);
    expect((await api(a.url, "PUT", `/api/comparisons/${c.id}/schedule`, token, { cron: "* * * * *", timezone: "UTC" })).status).toBe(200);

    const scheduled = async () =>
      ((await api(a.url, "GET", `/api/comparisons/${c.id}/runs`, token)).json as { trigger: string; startedAt: string }[]).filter(
        (r) => r.trigger === "schedule",
      );
    // The save wakes the scheduler holding the lease: the first run starts at the schedule's next minute.
    const first = (await waitFor("the first scheduled run", async () => (await scheduled()).at(-1) ?? null, 150_000, 1_000)).startedAt;
    const minute = (iso: string) => Math.floor(Date.parse(iso) / 60_000);
    const m0 = minute(first);
    // Until the third minute after the first has passed, with time for its run to be recorded.
    await Bun.sleep(Math.max(0, (m0 + 3) * 60_000 + 20_000 - Date.now()));
    const perMinute = new Map<number, number>();
    for (const r of await scheduled()) perMinute.set(minute(r.startedAt), (perMinute.get(minute(r.startedAt)) ?? 0) + 1);
    expect([m0, m0 + 1, m0 + 2, m0 + 3].map((m) => perMinute.get(m) ?? 0)).toEqual([1, 1, 1, 1]);
    expect(Math.max(...perMinute.values())).toBe(1);
    await api(a.url, "DELETE", `/api/comparisons/${c.id}/schedule`, token);
  }, 420_000);
});
