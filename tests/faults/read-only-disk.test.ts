// The disk turns read-only under a running server, for real: DATA_DIR is an ext4 image on a loop
// device mounted errors=remount-ro, and ext4's own error trigger makes the kernel remount it
// read-only with the database open (what a failing disk does; `mount -o remount,ro` itself is
// refused while files are open for writing). Needs root, a loop device and a kernel with ext4's
// trigger_fs_error; skipped elsewhere.
// Writes answer 503 with Retry-After, never 500; reads carry on; and after the disk is checked and
// mounted again, the server starts with every acknowledged write and nothing half-done.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { STORAGE_UNAVAILABLE_MESSAGE } from "#server/http/storage-errors";
import { SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";
import { call, comparisonWith, login, signup, type Answer } from "./support";

const work = mkdtempSync(join(tmpdir(), "di-fault-ro-"));
const image = join(work, "disk.img");
const mountPoint = join(work, "mnt");
const sh = (...cmd: string[]) => Bun.spawnSync(cmd, { stderr: "pipe", stdout: "pipe" });
const ok = (...cmd: string[]) => sh(...cmd).exitCode === 0;

let loop: string | null = null;
function attach(): boolean {
  const r = sh("losetup", "-f", "--show", image);
  if (r.exitCode !== 0) return false;
  loop = r.stdout.toString().trim();
  return ok("mount", "-o", "errors=remount-ro", loop, mountPoint);
}
function detach() {
  sh("umount", mountPoint);
  if (loop) sh("losetup", "-d", loop);
  loop = null;
}

const trigger = () => `/sys/fs/ext4/${basename(loop!)}/trigger_fs_error`;
const ready =
  ok("mkdir", "-p", mountPoint) &&
  ok("truncate", "-s", "64M", image) &&
  ok("mkfs.ext4", "-q", "-F", image) &&
  attach() &&
  existsSync(trigger());
let server: RunningServer | undefined;

afterAll(async () => {
  if (server && server.proc.exitCode === null) await server.stop("SIGKILL");
  detach();
  rmSync(work, { recursive: true, force: true });
});

function expectStorage503(r: Answer) {
  expect(r.status).toBe(503);
  expect(r.json).toEqual({ error: STORAGE_UNAVAILABLE_MESSAGE });
  expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
}

test.skipIf(!ready)(
  "the disk goes read-only live: writes 503, reads work, and every acknowledged write survives",
  async () => {
    server = await startServer({ dataDir: mountPoint, env: { ALLOW_PRIVATE_TARGETS: "1", TRUST_PROXY: "1", CAPTURE_CONCURRENCY: "1" } });
    const base = server.url;
    const user = await signup(base);
    const kept = await comparisonWith(base, user.token, "Written before", [["https://example.com/", "Example"]]);
    let ip = 0;
    const waitlist = (email: string) =>
      call(base, "POST", "/api/beta-signups", { body: { email, source: "homepage" }, headers: { "x-forwarded-for": `10.77.0.${++ip}` } });
    expect((await waitlist("before@example.com")).status).toBe(201);

    // The kernel remounts the filesystem read-only under the open database.
    await Bun.write(trigger(), "design-intel read-only test\n");
    const mounts = await Bun.file("/proc/mounts").text();
    expect(mounts.split("\n").find((l) => l.includes(mountPoint))).toContain("emergency_ro");

    expectStorage503(await waitlist("during@example.com"));
    expectStorage503(
      await call(base, "POST", "/api/auth/signup", {
        body: { email: `ro-${crypto.randomUUID()}@example.com`, password: "correct-horse-battery" },
      }),
    );
    expectStorage503(await call(base, "POST", "/api/comparisons", { body: { name: "Never written" }, token: user.token }));
    // Reads carry on.
    const list = await call(base, "GET", "/api/comparisons", { token: user.token });
    expect(list.status).toBe(200);
    expect((list.json as { name: string }[]).map((c) => c.name)).toEqual(["Written before"]);
    expect((await call(base, "GET", "/api/health")).status).toBe(200);
    expect(server.output()).not.toContain("unhandled error");

    // The operator's recovery: stop, check the filesystem, mount it again, start.
    server.proc.kill("SIGTERM");
    await server.proc.exited;
    detach();
    expect(sh("e2fsck", "-f", "-y", image).exitCode).toBeLessThan(4); // 0-3: clean or fixed
    expect(attach()).toBe(true);

    server = await startServer({ dataDir: mountPoint, env: { ALLOW_PRIVATE_TARGETS: "1", TRUST_PROXY: "1", CAPTURE_CONCURRENCY: "1" } });
    const again = await login(server.url, user.email);
    const names = ((await call(server.url, "GET", "/api/comparisons", { token: again.token })).json as { id: string; name: string }[]).map(
      (c) => c.name,
    );
    expect(names).toEqual(["Written before"]);
    expect((await call(server.url, "GET", `/api/comparisons/${kept}`, { token: again.token })).status).toBe(200);
    expect(await server.stop()).toBe(0);
    const db = new Database(join(mountPoint, "design-intel.db"), { readonly: true });
    expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
    expect(
      db
        .query<{ email: string }, []>("SELECT email FROM beta_signups ORDER BY email")
        .all()
        .map((r) => r.email),
    ).toEqual(["before@example.com"]);
    db.close();
  },
  2 * SERVER_START_MS + 120_000,
); // two boots and the waits between them
