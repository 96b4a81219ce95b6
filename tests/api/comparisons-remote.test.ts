// A comparison run on remote browsers: two browser servers (launchServer with the machine's
// Chromium, on loopback), one of them killed (SIGKILL of its Chromium) while it has a page in hand.
// The run completes on the other, and every page is there once.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserServer } from "playwright-core";
import { createAnalyser, createFindingsStep, type Analyser } from "#server/modules/analysis";
import { CapturePool } from "#server/modules/capture/browser/pool";
import { endpointLabel } from "#server/modules/capture/browser/remote-endpoints";
import { makeTestApp } from "#tests/support/app";
import { startBrowserServer } from "#tests/support/browser-server";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { TEST_TIMING_SAMPLES } from "#tests/support/server";
import { waitFor } from "#tests/support/wait";

let dataDir: string;
let fixtures: FixtureServer;
let servers: BrowserServer[];
let pool: CapturePool;
let analyser: Analyser;
const log: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "di-remote-run-"));
  fixtures = startFixtureServer();
  servers = await Promise.all([startBrowserServer(), startBrowserServer()]);
  pool = new CapturePool({
    concurrency: 2,
    chromiumPath: null,
    allowPrivate: true,
    timingSamples: Number(TEST_TIMING_SAMPLES),
    log: (m) => log.push(m),
    remote: { endpoints: servers.map((s) => s.wsEndpoint()), egress: { listen: "127.0.0.1", advertise: "127.0.0.1" }, retryMinMs: 500 },
  });
  analyser = createAnalyser();
});

afterAll(async () => {
  analyser?.close();
  await pool?.close();
  for (const s of servers ?? []) await s.close().catch(() => {});
  await fixtures?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("a browser server killed mid-run: the run completes on the other, each page once", async () => {
  const t = makeTestApp({
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" },
    runTools: {
      capture: (owner, job, onStage) => pool.submit(owner, job, onStage),
      analyser,
      findingsFor: createFindingsStep(),
    },
  });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Three sites" }, headers: h })).json;
  for (const [path, label] of [
    ["/alpha/", "Orbit"],
    ["/gamma/", "Fieldnotes"],
    ["/alpha-edited/", "Orbit edited"],
  ]) {
    expect(
      (await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url: fixtures.url(path!), label }, headers: h })).status,
    ).toBe(201);
  }
  expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);

  // As soon as the first server's browser has a page in hand, it dies.
  const victim = endpointLabel(servers[0]!.wsEndpoint());
  await waitFor(
    "a page in hand on the first server",
    () => pool.stats().workers.some((w) => w.endpoint === victim && w.busy && w.browser),
    120_000,
    10,
  );
  servers[0]!.process().kill("SIGKILL");
  await t.services.comparisons.whenIdle();

  const done = (await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json;
  expect(done).toMatchObject({ status: "completed", error: null, progress: { done: 6, total: 6 } });
  const targets = (await t.call("GET", `/api/comparisons/${c.id}/targets`, { headers: h })).json;
  expect(targets.map((x: any) => x.status)).toEqual(["completed", "completed", "completed"]);
  const snaps = (await t.call("GET", `/api/comparisons/${c.id}/snapshots`, { headers: h })).json;
  expect(snaps.map((s: any) => [s.targetId, s.viewport])).toEqual(
    targets.flatMap((x: any) => [
      [x.id, "desktop"],
      [x.id, "mobile"],
    ]),
  );
  for (const s of snaps) expect(existsSync(await t.services.comparisons.screenshotPath(u.user.id, s.id))).toBe(true);
  // The killed server was taken out (said once), and what ran after it ran on the other.
  expect(log.filter((l) => l.includes(`${victim} is not reachable`))).toHaveLength(1);
  expect(pool.stats().workers.every((w) => w.endpoint === endpointLabel(servers[1]!.wsEndpoint()))).toBe(true);
}, 300_000);
