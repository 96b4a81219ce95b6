// The real server on remote browsers (BROWSER_WS_ENDPOINTS): a malformed list stops the boot with
// one fatal line; a browser server down at boot is a warning, said once, while the server starts
// and is ready on the other; started later, it is found and readiness names both as reachable.
// No local Chromium is involved (CHROMIUM_PATH names nothing).
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { BrowserServer } from "playwright-core";
import { endpointFor, freePort, startBrowserServer } from "#tests/support/browser-server";
import { startServer, type RunningServer } from "#tests/support/server";
import { call, waitFor } from "./support";

const main = join(import.meta.dir, "../../src/main.ts");
const servers: RunningServer[] = [];
const browserServers: BrowserServer[] = [];

afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null) await s.stop("SIGKILL");
  for (const b of browserServers) await b.close().catch(() => {});
});

test("a malformed BROWSER_WS_ENDPOINTS stops the boot with a line naming the entry, never quoting it", () => {
  const endpoints = "ws://127.0.0.1:3000/a,http://browser-2:3000/?token=s3cret";
  const r = Bun.spawnSync(["bun", main], {
    env: { ...process.env, PORT: "0", BROWSER_WS_ENDPOINTS: endpoints },
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = r.stdout.toString() + r.stderr.toString();
  expect(r.exitCode).toBe(1);
  const fatal = out.split("\n").find((l) => l.includes('"level":"fatal"'));
  expect(JSON.parse(fatal!)).toMatchObject({
    msg: "Invalid configuration",
    problems: [
      `BROWSER_WS_ENDPOINTS: entry 2 of 2 must be a ws:// or wss:// URL, not http:// (got a value of ${endpoints.length} characters, not shown)`,
    ],
  });
  expect(out).not.toContain("s3cret");
}, 60_000);

test("a browser server down at boot: one warning, ready on the other, found once started", async () => {
  const latePort = await freePort();
  const late = endpointFor(latePort);
  const up = await startBrowserServer();
  browserServers.push(up);
  const server = await startServer({
    env: {
      BROWSER_WS_ENDPOINTS: `${late},${up.wsEndpoint()}`,
      CHROMIUM_PATH: "/nonexistent/chromium",
      CAPTURE_LAZY: "",
      CAPTURE_CONCURRENCY: "2",
    },
  });
  servers.push(server);
  const lateLabel = `ws://127.0.0.1:${latePort}`;
  const upLabel = new URL(up.wsEndpoint()).origin.replace(/^http/, "ws");

  const ready = await waitFor(
    "ready on the live browser server",
    async () => {
      const r = await call(server.url, "GET", "/api/health/ready");
      return r.status === 200 && r.json.checks.capture.detail === "2 of 2 browsers running" ? r : null;
    },
    90_000,
  );
  expect(ready.json.checks.browser).toEqual({
    ok: true,
    detail: `1 of 2 browser servers reachable: ${lateLabel} not reachable (ECONNREFUSED); ${upLabel} reachable`,
  });
  const warnings = () =>
    server
      .output()
      .split("\n")
      .filter((l) => l.includes(`browser server ${lateLabel} is not reachable`));
  expect(warnings()).toHaveLength(1);
  expect(JSON.parse(warnings()[0]!).level).toBe("warn");
  // The endpoints' paths (what grants access to a browser) appear nowhere in the output.
  expect(server.output()).not.toContain("/browser");

  browserServers.push(await startBrowserServer({ port: latePort }));
  const both = await waitFor(
    "the late browser server to be found",
    async () => {
      const r = await call(server.url, "GET", "/api/health/ready");
      return r.json.checks.browser?.detail.startsWith("2 of 2") ? r : null;
    },
    90_000,
  );
  expect(both.status).toBe(200);
  // The line reaches the server's output on its own time, maybe after the answer that saw both.
  await waitFor("the recovery in the log", async () => server.output().includes(`browser server ${lateLabel} is reachable again`), 10_000);
  expect(warnings()).toHaveLength(1);
  expect(await server.stop()).toBe(0);
}, 240_000);
