// Readiness on real broken disks, against the real server (its own capture browsers included): a
// disk gone read-only and a full one each turn /api/health/ready into a 503 that names the checks,
// while /api/health/live stays 200 (restarting would not help). `design-intel healthcheck`, the
// Docker HEALTHCHECK, follows. Needs root (mounts); skipped elsewhere.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { startServer, type RunningServer } from "#tests/support/server";
import { call, ext4Disk, fillDisk, tmpfsDisk, waitFor } from "./support";

// Both above MIN_FREE_BYTES (64 MB) when empty, so the server starts ready and the fault is what fails it.
const readOnly = ext4Disk("di-fault-ready-ro-", "160M");
const full = tmpfsDisk("di-fault-ready-full-", "96m");
const servers: RunningServer[] = [];

afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null) await s.stop("SIGKILL");
  readOnly.dispose();
  full.dispose();
});

async function readyServer(dataDir: string) {
  const server = await startServer({ dataDir, env: { CAPTURE_CONCURRENCY: "1", CAPTURE_LAZY: "" } });
  servers.push(server);
  // The capture browser launches at boot (the product default, not the tests' lazy pool); ready waits for it.
  let last = "";
  try {
    await waitFor(
      "the server to be ready",
      async () => {
        const r = await call(server.url, "GET", "/api/health/ready");
        last = r.text;
        return r.status === 200;
      },
      90_000,
      200,
    );
  } catch (e) {
    throw new Error(`${(e as Error).message}; last answer: ${last}`);
  }
  return server;
}

const main = join(import.meta.dir, "../../src/main.ts");
function healthcheck(server: RunningServer) {
  const port = new URL(server.url).port;
  const r = Bun.spawnSync(["bun", main, "healthcheck"], { env: { ...process.env, PORT: port, HOST: "127.0.0.1" }, stderr: "pipe" });
  return { code: r.exitCode, stderr: r.stderr.toString() };
}

test.skipIf(!readOnly.mountPoint)(
  "a disk gone read-only: ready 503 naming the database and storage, live still 200",
  async () => {
    const server = await readyServer(readOnly.mountPoint!);
    const before = await call(server.url, "GET", "/api/health/ready");
    expect(before.json.checks.database).toEqual({ ok: true, detail: "sqlite, writable" });

    await readOnly.breakIt();
    // Each probe is throttled to once a second on its own clock: on a loaded machine the database's
    // can see the disk before the data directory's does, so wait for both.
    const notReady = await waitFor("ready to fail", async () => {
      const r = await call(server.url, "GET", "/api/health/ready");
      return r.status === 503 && r.json.checks.storage?.ok === false ? r : null;
    });
    expect(notReady.json.error).toStartWith("database: not writable (");
    expect(notReady.json.checks.database.ok).toBe(false);
    // The disk has room, yet no new file can be made in it; the schema is intact.
    expect(notReady.json.checks.storage).toMatchObject({ ok: false });
    expect(notReady.json.checks.storage.detail).toStartWith("new files cannot be created in the data directory (EROFS");
    expect(notReady.json.checks.migrations.ok).toBe(true);
    expect(notReady.json.checks.capture.ok).toBe(true);

    expect(await call(server.url, "GET", "/api/health/live")).toMatchObject({ status: 200, json: { ok: true } });
    expect((await call(server.url, "GET", "/api/health")).status).toBe(200);
    expect(server.output()).not.toContain("unhandled error");
  },
  150_000,
);

test.skipIf(!full.mountPoint)(
  "a full disk: ready 503 naming storage, healthcheck fails, and both recover when space returns",
  async () => {
    const server = await readyServer(full.mountPoint!);
    expect(healthcheck(server)).toEqual({ code: 0, stderr: "" });

    const filler = join(full.mountPoint!, "filler.bin");
    fillDisk(filler);
    const notReady = await waitFor("ready to fail", async () => {
      const r = await call(server.url, "GET", "/api/health/ready");
      return r.status === 503 ? r : null;
    });
    expect(notReady.json.error).toContain("storage: 0.0 MB free in the data directory, at least 64 MB needed");
    expect(notReady.json.checks.storage.ok).toBe(false);
    expect(await call(server.url, "GET", "/api/health/live")).toMatchObject({ status: 200, json: { ok: true } });
    const failing = healthcheck(server);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain("healthcheck: 503 ");
    expect(failing.stderr).toContain("storage: 0.0 MB free");

    rmSync(filler);
    const back = await waitFor("ready again", async () => {
      const r = await call(server.url, "GET", "/api/health/ready");
      return r.status === 200 ? r : null;
    });
    expect(back.json.checks.storage.ok).toBe(true);
    expect(back.json.checks.database).toEqual({ ok: true, detail: "sqlite, writable" });
    expect(healthcheck(server).code).toBe(0);
    expect(server.output()).not.toContain("unhandled error");
    expect(await server.stop()).toBe(0);
  },
  150_000,
);
