// Chromium dies under a running analysis (OOM killer, a crash). Only this server's browsers are
// killed: they are found below the server's pid in /proc, never by name across the host.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";
import {
  aliveCapture,
  call,
  captureBrowsers,
  captureChromium,
  comparisonWith,
  killAll,
  settled,
  signup,
  startGateSite,
  waitFor,
  type GateSite,
} from "./support";

let orbit: GateSite;
let ember: GateSite;
let gate: GateSite;
let server: RunningServer;
const seen: number[] = [];

beforeAll(async () => {
  orbit = startGateSite({ open: true, title: "Orbit", background: "#e0e7ff" });
  ember = startGateSite({ open: true, title: "Ember", background: "#ffedd5" });
  gate = startGateSite();
  server = await startServer({ env: { ALLOW_PRIVATE_TARGETS: "1", CAPTURE_CONCURRENCY: "2" } });
}, SERVER_START_MS + 10_000);

afterAll(async () => {
  await server?.stop();
  killAll(aliveCapture(seen));
  for (const site of [orbit, ember, gate]) await site?.close();
});

test("killing the browsers mid-capture fails that page with a reason; the run settles; the next run succeeds", async () => {
  const user = await signup(server.url);
  const id = await comparisonWith(server.url, user.token, "Browser down", [
    [orbit.url, "Orbit"],
    [ember.url, "Ember"],
    [gate.url, "Gatehouse"],
  ]);
  expect((await call(server.url, "POST", `/api/comparisons/${id}/start`, { token: user.token })).status).toBe(202);

  // Both capture slots are held by the gated page (desktop and mobile): every browser we kill is
  // rendering that page and nothing else, so the outcome does not depend on timing.
  await waitFor("both viewports of the gated page to be requested", async () => gate.hits() >= 2, 60_000, 50);
  const browsers = captureBrowsers(server.proc.pid);
  expect(browsers.length).toBe(2);
  const all = captureChromium(server.proc.pid);
  seen.push(...all);
  killAll(all);
  await waitFor("the killed browsers to exit", async () => aliveCapture(all).length === 0, 10_000, 50);

  const done = await settled(server.url, user.token, id);
  // Two of three captured is enough for a comparison.
  expect(done).toMatchObject({ status: "completed", error: null });
  const targets = (await call(server.url, "GET", `/api/comparisons/${id}/targets`, { token: user.token })).json as {
    label: string;
    status: string;
    error: string | null;
  }[];
  expect(targets.map((t) => [t.label, t.status])).toEqual([
    ["Orbit", "completed"],
    ["Ember", "completed"],
    ["Gatehouse", "failed"],
  ]);
  expect(targets[2]!.error).toBe("The browser crashed while capturing this page");
  const diffs = (await call(server.url, "GET", `/api/comparisons/${id}/diffs`, { token: user.token })).json as unknown[];
  expect(diffs.length).toBe(2); // Orbit vs Ember at both viewports
  // The server is still fine, with fresh browsers of its own.
  const health = await call(server.url, "GET", "/api/health");
  expect(health.status).toBe(200);
  expect((health.json as { capture: { available: boolean } }).capture.available).toBe(true);

  gate.open();
  expect((await call(server.url, "POST", `/api/comparisons/${id}/start`, { token: user.token })).status).toBe(202);
  expect(await settled(server.url, user.token, id)).toMatchObject({ status: "completed", error: null });
  const again = (await call(server.url, "GET", `/api/comparisons/${id}/targets`, { token: user.token })).json as { status: string }[];
  expect(again.map((t) => t.status)).toEqual(["completed", "completed", "completed"]);
  const fresh = captureBrowsers(server.proc.pid);
  expect(fresh.length).toBeGreaterThan(0);
  expect(fresh.filter((pid) => browsers.includes(pid))).toEqual([]);
  seen.push(...captureChromium(server.proc.pid));
  expect(server.output()).not.toContain("unhandled error");
}, 300_000); // past the sum of the waits above (60 s, 10 s, two runs of 90 s at most)
