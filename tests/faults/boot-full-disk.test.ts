// The server starts onto a disk that filled up while it was stopped (DATA_DIR on a small tmpfs;
// needs root to mount, skipped elsewhere). It must not crash-loop: every request gets the storage
// 503 with Retry-After, and once space returns the real server starts by itself with its data intact.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { STORAGE_UNAVAILABLE_MESSAGE } from "#server/http/storage-errors";
import { SERVER_START_MS, freePort, startServer } from "#tests/support/server";
import { call, fillDisk, login, signup, waitFor } from "./support";

const mountPoint = mkdtempSync(join(tmpdir(), "di-fault-boot-full-"));
const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", mountPoint]).exitCode === 0;
const dataDir = join(mountPoint, "data");
const filler = join(mountPoint, "filler.bin");
let proc: Subprocess | undefined;

afterAll(async () => {
  if (proc && proc.exitCode === null) {
    proc.kill("SIGTERM");
    await proc.exited;
  }
  if (mounted) Bun.spawnSync(["umount", "-l", mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

test.skipIf(!mounted)(
  "booting on a full disk answers 503 until space returns, then starts with its data",
  async () => {
    // A normal first life: one account.
    const first = await startServer({ dataDir, env: { CAPTURE_CONCURRENCY: "1" } });
    const user = await signup(first.url);
    expect(await first.stop()).toBe(0);

    fillDisk(filler);
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    let output = "";
    proc = Bun.spawn(["bun", join(import.meta.dir, "../../src/main.ts")], {
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, NODE_ENV: "production", CAPTURE_CONCURRENCY: "1" },
      stdout: "pipe",
      stderr: "pipe",
    });
    for (const s of [proc.stdout, proc.stderr] as ReadableStream<Uint8Array>[]) {
      void (async () => {
        for await (const chunk of s) output += new TextDecoder().decode(chunk);
      })();
    }

    // Refused connections are expected twice: before the holding answer listens, and for the moment
    // between it letting go of the port and the real server taking it.
    const health = async () => {
      try {
        return await call(base, "GET", "/api/health");
      } catch {
        return null;
      }
    };
    const holding = await waitFor("the holding answer", health, SERVER_START_MS, 100);
    for (const r of [holding, await call(base, "POST", "/api/auth/login", { body: { email: user.email, password: "x" } })]) {
      expect(r.status).toBe(503);
      expect(r.json).toEqual({ error: STORAGE_UNAVAILABLE_MESSAGE });
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(proc.exitCode).toBeNull(); // still up, not crashed
    // Alive (no restart would help) but not ready.
    expect(await call(base, "GET", "/api/health/live")).toMatchObject({ status: 200, json: { ok: true } });
    expect((await call(base, "GET", "/api/health/ready")).status).toBe(503);
    expect(output).toContain("storage unavailable at boot");

    rmSync(filler);
    await waitFor("the real server", async () => (await health())?.status === 200, SERVER_START_MS, 100);
    expect((await login(base, user.email)).token).toBeString();
    expect(output).toContain("storage available again");
  },
  3 * SERVER_START_MS + 30_000,
); // three boots: the first life, the one onto a full disk, the real one
