// The capture pool with remote browsers: real browser servers (playwright-core's launchServer with
// the machine's Chromium, on loopback), real workers connecting to them, fixture sites on
// 127.0.0.1. A server is killed mid-run (SIGKILL of its Chromium), started late, or never there.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserServer } from "playwright-core";
import { CapturePool, type CaptureResult, type RemotePoolOptions } from "#server/modules/capture/browser/pool";
import { endpointLabel } from "#server/modules/capture/browser/remote-endpoints";
import { endpointFor, freePort, startBrowserServer } from "#tests/support/browser-server";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { waitFor } from "#tests/support/wait";

// A few captures per test, two at a time, plus browser launches on a machine shared with others.
setDefaultTimeout(300_000);

const EGRESS = { listen: "127.0.0.1", advertise: "127.0.0.1" };
const WAIT_MS = 90_000;
let server: FixtureServer;
let dir: string;
const started: BrowserServer[] = [];

beforeAll(() => {
  server = startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), "remote-pool-"));
});

afterAll(async () => {
  for (const s of started) await s.close().catch(() => {});
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function browserServer(opts: { port?: number } = {}): Promise<BrowserServer> {
  const s = await startBrowserServer(opts);
  started.push(s);
  return s;
}

const portOf = (s: BrowserServer) => Number(new URL(s.wsEndpoint()).port);

/** A server again on the port of one whose Chromium was killed: the old listener lets go of the port a moment later. */
async function restartOn(port: number): Promise<BrowserServer> {
  let lastError: unknown;
  const s = await waitFor(
    `port ${port} to be free again`,
    async () => {
      try {
        return await browserServer({ port });
      } catch (e) {
        lastError = e;
        return null;
      }
    },
    WAIT_MS,
    250,
  ).catch((e) => {
    throw new Error(`${(e as Error).message}; last error: ${String(lastError)}`);
  });
  return s;
}

function remotePool(endpoints: string[], log: string[], remote: Partial<RemotePoolOptions> = {}, concurrency = 2) {
  return new CapturePool({
    concurrency,
    // No local Chromium is needed, nor used.
    chromiumPath: null,
    allowPrivate: true,
    timingSamples: 1,
    log: (m) => log.push(m),
    remote: { endpoints, egress: EGRESS, retryMinMs: 200, retryMaxMs: 1000, ...remote },
  });
}

const shot = (name: string) => join(dir, `${name}-${crypto.randomUUID()}.png`);

function ok(outcome: CaptureResult) {
  if (!outcome.ok) throw new Error(`capture failed: ${outcome.reason}`);
  return outcome;
}

const downLines = (log: string[], endpoint: string) => log.filter((l) => l.includes(`${endpointLabel(endpoint)} is not reachable`));

describe("two browser servers", () => {
  let a: BrowserServer;
  let b: BrowserServer;
  let pool: CapturePool;
  const log: string[] = [];

  beforeAll(async () => {
    [a, b] = await Promise.all([browserServer(), browserServer()]);
    pool = remotePool([a.wsEndpoint(), b.wsEndpoint()], log);
  });

  afterAll(async () => {
    await pool?.close();
  });

  test("a warm pool connects one browser to each server, and readiness names them", async () => {
    pool.warm();
    await waitFor("both workers to connect", () => pool.readiness().browsers === 2, WAIT_MS);
    const workers = pool.stats().workers;
    expect(workers.map((w) => w.endpoint).sort()).toEqual([endpointLabel(a.wsEndpoint()), endpointLabel(b.wsEndpoint())].sort());
    // A remote browser has no pid here: nothing of it is this machine's to kill.
    expect(workers.every((w) => w.pid === null && w.browser !== null)).toBe(true);
    expect(pool.readiness()).toMatchObject({ available: true, browsers: 2, remote: { reachable: 2, total: 2 } });
    // The label is scheme, host and port: the path that grants access to the browser stays out.
    expect(JSON.stringify(pool.readiness())).not.toContain("/browser");
  });

  test("a server killed mid-run: its pages finish on the other, each once; it is said once, and comes back when restarted", async () => {
    const before = server.queries("/_special/slow").length;
    const pages = [0, 1, 2, 3].map((n) => server.url(`/_special/slow?ms=2500&n=${n}`));
    const paths = pages.map((_, n) => shot(`slow${n}`));
    const outcomes = pages.map((url, n) => pool.submit("owner-a", { url, viewport: "desktop", screenshotPath: paths[n]! }));
    // Both servers have a page in hand (its request is waiting at the fixture server).
    await waitFor("a page in hand on each server", () => server.queries("/_special/slow").length - before >= 2, WAIT_MS, 20);
    expect(pool.stats().workers.filter((w) => w.busy)).toHaveLength(2);
    const killedPort = portOf(a);
    a.process().kill("SIGKILL");

    const results = (await Promise.all(outcomes)).map(ok);
    // Every page finished, with its own page: none lost, none answered twice.
    expect(results.map((r) => r.extraction.finalUrl)).toEqual(pages);
    expect(results.map((r) => r.extraction.title)).toEqual(pages.map(() => "Slow page"));
    expect(paths.every((p) => existsSync(p))).toBe(true);
    // Killed under one page, which loaded again on the other server; every other page loaded once.
    const loads = server.queries("/_special/slow").slice(before);
    const counts = [0, 1, 2, 3].map((n) => loads.filter((q) => q.includes(`n=${n}&`) || q.endsWith(`n=${n}`)).length);
    expect(counts.filter((c) => c === 2)).toHaveLength(1);
    expect(counts.filter((c) => c === 1)).toHaveLength(3);
    // The dead server is out: both workers are on the other one now (the replacement may still be
    // connecting when the last page comes back, on a busy machine).
    const onB = [endpointLabel(b.wsEndpoint()), endpointLabel(b.wsEndpoint())];
    await waitFor(
      "both workers on the live server",
      () => JSON.stringify(pool.stats().workers.map((w) => w.endpoint)) === JSON.stringify(onB),
      WAIT_MS,
    );
    expect(pool.readiness().remote).toMatchObject({ reachable: 1, total: 2 });
    expect(downLines(log, a.wsEndpoint())).toHaveLength(1);

    // Started again where it was: found by the background look, and said so.
    a = await restartOn(killedPort);
    await waitFor("the restarted server to be reachable", () => pool.readiness().remote?.reachable === 2, WAIT_MS);
    expect(log.filter((l) => l.includes(`${endpointLabel(a.wsEndpoint())} is reachable again`))).toHaveLength(1);
    expect(downLines(log, a.wsEndpoint())).toHaveLength(1);
  });

  test("a page whose every browser goes away fails, after a bounded number of tries, with a clear reason", async () => {
    // Servers of its own: this test does not depend on how the one before it ended.
    const own = await Promise.all([browserServer(), browserServer()]);
    const one = remotePool(
      own.map((s) => s.wsEndpoint()),
      [],
      { maxLosses: 2 },
      1,
    );
    try {
      const byLabel = new Map(own.map((s) => [endpointLabel(s.wsEndpoint()), s]));
      const before = server.queries("/_special/slow").length;
      const outcome = one.submit("owner-a", {
        url: server.url("/_special/slow?ms=20000&n=doomed"),
        viewport: "desktop",
        screenshotPath: shot("doomed"),
      });
      for (let loss = 1; loss <= 2; loss++) {
        await waitFor(`load ${loss} of the page`, () => server.queries("/_special/slow").length - before >= loss, WAIT_MS, 20);
        const holder = await waitFor(
          "the worker holding the page",
          () => one.stats().workers.find((w) => w.busy && w.browser !== null && w.endpoint),
          WAIT_MS,
          20,
        );
        byLabel.get(holder.endpoint!)!.process().kill("SIGKILL");
      }
      expect(await outcome).toEqual({
        ok: false,
        reason: "The remote browser went away while capturing this page, 2 times; the page may be crashing the browser",
      });
    } finally {
      await one.close();
    }
  });
});

describe("a browser server that is down", () => {
  test("at boot: a warning, said once; pages go to the other; once started it takes pages too", async () => {
    const log: string[] = [];
    const port = await freePort();
    const late = endpointFor(port);
    const up = await browserServer();
    const pool = remotePool([late, up.wsEndpoint()], log);
    try {
      await waitFor(
        "the boot look at both servers",
        () => pool.readiness().remote?.endpoints.every((e) => e.reachable || e.detail),
        WAIT_MS,
        20,
      );
      expect(pool.readiness().remote).toEqual({
        reachable: 1,
        total: 2,
        endpoints: [
          { endpoint: `ws://127.0.0.1:${port}`, reachable: false, detail: "ECONNREFUSED" },
          { endpoint: endpointLabel(up.wsEndpoint()), reachable: true, detail: null },
        ],
      });
      expect(
        ok(await pool.submit("a", { url: server.url("/gamma/"), viewport: "desktop", screenshotPath: shot("g1") })).extraction.title,
      ).toBe("Fieldnotes: How we cut our cloud bill by 38%");
      // Looked at again several times meanwhile, said once.
      await Bun.sleep(1500);
      expect(downLines(log, late)).toEqual([
        `[capture] browser server ws://127.0.0.1:${port} is not reachable (ECONNREFUSED); its pages go to the other browser servers, and it is tried again in the background`,
      ]);

      await browserServer({ port });
      await waitFor("the late server to be reachable", () => pool.readiness().remote?.reachable === 2, WAIT_MS);
      expect(log).toContain(`[capture] browser server ws://127.0.0.1:${port} is reachable again`);
      // Two pages at once: the idle worker takes one, and the new one goes to the server with none.
      const both = await Promise.all(
        ["/alpha/", "/gamma/"].map((p) => pool.submit("a", { url: server.url(p), viewport: "desktop", screenshotPath: shot("late") })),
      );
      both.map(ok);
      expect(pool.stats().workers.map((w) => w.endpoint)).toContain(`ws://127.0.0.1:${port}`);
    } finally {
      await pool.close();
    }
  });

  test("all of them: pages wait a while for one, then fail saying no browser server can be reached", async () => {
    const log: string[] = [];
    const endpoints = [endpointFor(await freePort()), endpointFor(await freePort())];
    const pool = remotePool(endpoints, log, { strandedMs: 1500 });
    try {
      const startedAt = Date.now();
      const outcome = await pool.submit("a", { url: server.url("/gamma/"), viewport: "desktop", screenshotPath: shot("none") });
      expect(outcome).toEqual({ ok: false, reason: "No browser server can be reached right now (0 of 2 reachable)" });
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1400);
      expect(pool.readiness()).toMatchObject({ available: true, browsers: 0, remote: { reachable: 0, total: 2 } });
      expect(log).toHaveLength(2);
      expect(pool.stats().workers).toEqual([]);
    } finally {
      await pool.close();
    }
  });
});
