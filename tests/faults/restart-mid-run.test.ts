// The server goes down while an analysis is capturing (SIGKILL, then separately SIGTERM). After a
// restart on the same DATA_DIR nothing is left 'running' or 'capturing', the reason is in the API
// and on the page, and starting the analysis again completes. A gated page keeps the run busy: the
// kill comes once Chromium is known to be waiting on it, and the gate opens for the re-run.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INTERRUPTED_REASON } from "#server/modules/comparisons/active-runs";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";
import {
  aliveCapture,
  call,
  captureChromium,
  comparisonWith,
  killAll,
  login,
  settled,
  signup,
  startGateSite,
  waitFor,
  type GateSite,
} from "./support";

let sites: FixtureServer;
const dirs: string[] = [];
const servers: RunningServer[] = [];
const strays: number[] = [];
const gates: GateSite[] = [];

beforeAll(() => {
  sites = startFixtureServer();
});

afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null) await s.stop("SIGKILL");
  killAll(aliveCapture(strays));
  for (const g of gates) await g.close();
  await sites?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const env = { ALLOW_PRIVATE_TARGETS: "1" };
// Two boots, the wait for the gated page, the browsers' exit and the re-run (each bounded by its
// own wait below), with room to spare.
const TEST_MS = 2 * SERVER_START_MS + 200_000;

async function interruptAndRestart(signal: "SIGKILL" | "SIGTERM") {
  const dataDir = mkdtempSync(join(tmpdir(), `di-fault-restart-`));
  dirs.push(dataDir);
  const first = await startServer({ dataDir, env });
  servers.push(first);
  const user = await signup(first.url);
  const gate = startGateSite();
  gates.push(gate);
  const id = await comparisonWith(first.url, user.token, `Cut short by ${signal}`, [
    [sites.url("/alpha/"), "Orbit"],
    [gate.url, "Sloth"],
  ]);
  const started = await call(first.url, "POST", `/api/comparisons/${id}/start`, { token: user.token });
  expect(started.status).toBe(202);
  // Chromium is now waiting for the gated page's answer: the run is mid-capture.
  await waitFor("the gated page to be requested", async () => gate.hits() > 0, 30_000, 50);
  expect((await call(first.url, "GET", `/api/comparisons/${id}`, { token: user.token })).json.status).toBe("running");
  const browsers = captureChromium(first.proc.pid);
  expect(browsers.length).toBeGreaterThan(0);
  strays.push(...browsers);

  const killedAt = Date.now();
  first.proc.kill(signal);
  const code = await first.proc.exited;
  const stopMs = Date.now() - killedAt;
  if (signal === "SIGTERM") expect(code).toBe(0);
  // Playwright drives Chromium over a pipe: once the server is gone the browsers must go too.
  await waitFor("the server's Chromium to exit", async () => aliveCapture(browsers).length === 0, 15_000, 100);

  // Who ended the run: a graceful stop does it on the way out; after SIGKILL, boot recovery has to.
  const db = new Database(join(dataDir, "design-intel.db"), { readonly: true });
  const row = db.query<{ status: string; error: string | null }, [string]>("SELECT status, error FROM comparisons WHERE id = ?").get(id);
  db.close();
  expect(row).toEqual(signal === "SIGTERM" ? { status: "failed", error: INTERRUPTED_REASON } : { status: "running", error: null });

  gate.open();
  const second = await startServer({ dataDir, env });
  servers.push(second);
  expect(second.output()).not.toContain("migrations applied");
  const session = await login(second.url, user.email);
  const c = (await call(second.url, "GET", `/api/comparisons/${id}`, { token: session.token })).json;
  const targets = (await call(second.url, "GET", `/api/comparisons/${id}/targets`, { token: session.token })).json as {
    label: string;
    status: string;
    error: string | null;
  }[];
  return { second, session, id, c, targets, signal, stopMs };
}

/**
 * A container runtime allows 10 s between SIGTERM and SIGKILL. Shutdown's own waits are bounded:
 * at most 5 s for runs to finish, then at most 2 s for the interrupted ones to record why. Beyond
 * those it only does work (close sockets, browsers, the database), and on a busy machine work
 * takes as long as the CPU it gets, so the stop is compared with a stop of the same server, same
 * machine, same moment, that has nothing to wait for. Quiet, that costs well under a second.
 */
const SHUTDOWN_WAITS_MS = 5_000 + 2_000;
const SHUTDOWN_MARGIN_MS = 1_500;

async function expectInterruptedThenRerun(r: Awaited<ReturnType<typeof interruptAndRestart>>) {
  const { second, session, id, c, targets, signal, stopMs } = r;
  expect(c.status).toBe("failed");
  expect(c.error).toBe(INTERRUPTED_REASON);
  expect(c.progress.stage).toBe("Failed");
  // Nothing is left mid-flight; the slow site (never captured) carries the reason.
  expect(targets.map((t) => t.status)).not.toContain("capturing");
  expect(targets.map((t) => t.status)).not.toContain("pending");
  expect(targets.find((t) => t.label === "Sloth")).toMatchObject({ status: "failed", error: INTERRUPTED_REASON });

  // The page says so too (server-rendered for the signed-in owner).
  const page = await fetch(`${second.url}/comparison?id=${id}`, { headers: { cookie: session.cookie } });
  expect(page.status).toBe(200);
  const html = (await page.text()).replace(/<!-- -->/g, "");
  expect(html).toContain(`The last run failed: ${Bun.escapeHTML(INTERRUPTED_REASON)}`);

  // The activity feed tells the owner as well.
  const feed = await call(second.url, "GET", "/api/activity", { token: session.token });
  expect(JSON.stringify(feed.json)).toContain(INTERRUPTED_REASON);

  const again = await call(second.url, "POST", `/api/comparisons/${id}/start`, { token: session.token });
  expect(again.status).toBe(202);
  const done = await settled(second.url, session.token, id);
  expect(done).toMatchObject({ status: "completed", error: null });
  const after = (await call(second.url, "GET", `/api/comparisons/${id}/targets`, { token: session.token })).json as { status: string }[];
  expect(after.map((t) => t.status)).toEqual(["completed", "completed"]);
  const diffs = (await call(second.url, "GET", `/api/comparisons/${id}/diffs`, { token: session.token })).json as unknown[];
  expect(diffs.length).toBe(2);
  // The baseline: this server has browsers open too, but no run to wait for.
  const stoppingAt = Date.now();
  expect(await second.stop()).toBe(0);
  const idleStopMs = Date.now() - stoppingAt;
  if (signal === "SIGTERM") {
    console.log(`[restart-mid-run] SIGTERM mid-run stopped in ${stopMs} ms; with nothing to wait for, in ${idleStopMs} ms`);
    expect(stopMs - idleStopMs).toBeLessThan(SHUTDOWN_WAITS_MS + SHUTDOWN_MARGIN_MS);
  }
}

describe("restart in the middle of an analysis", () => {
  test(
    "SIGKILL: the run is failed with the restart reason at boot, and runs again",
    async () => {
      await expectInterruptedThenRerun(await interruptAndRestart("SIGKILL"));
    },
    TEST_MS,
  );

  test(
    "SIGTERM: shutdown ends the run with the restart reason, and it runs again",
    async () => {
      // The gate stays shut through the shutdown's drain, so the shutdown has to cut the run short.
      await expectInterruptedThenRerun(await interruptAndRestart("SIGTERM"));
    },
    TEST_MS,
  );
});
