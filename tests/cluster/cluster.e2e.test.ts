// The deployment end to end (issue 30): PostgreSQL, an S3 endpoint, two browser servers, two of
// each role, all on loopback (tests/support/cluster.ts, as scripts/cluster.sh starts them). A user
// signs up through one `serve`, creates a comparison of three fixture sites and starts it through
// the other; the workers capture it on the browser servers; a socket on the first `serve` sees its
// stages; its screenshots are in the bucket and none under any instance's DATA_DIR.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WS_SUBPROTOCOL } from "#server/live/ws";
import { startCluster, type Cluster } from "#tests/support/cluster";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { openSocket, type TestSocket } from "#tests/support/live-server";
import { pgMissing, PG_START_TIMEOUT } from "#tests/support/postgres";
import { waitFor } from "#tests/support/wait";

let dir: string;
let cluster: Cluster;
let fixtures: FixtureServer;

async function api(base: string, method: string, path: string, token?: string, body?: unknown) {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body ? { "content-type": "application/json" } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      origin: base,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : null };
}

describe.skipIf(Boolean(pgMissing))("a deployment on loopback", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "di-cluster-"));
    fixtures = startFixtureServer();
    cluster = await startCluster({ dir, env: { ALLOW_PRIVATE_TARGETS: "1" } });
  }, PG_START_TIMEOUT + 180_000);

  afterAll(async () => {
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
});
