// The disk fills up under a running server: DATA_DIR sits on a small tmpfs (needs root, which this
// sandbox and the Docker build have; elsewhere the test is skipped and the injected-failure tests in
// storage-errors.test.ts still cover the mapping). Writes answer 503 with Retry-After, never 500;
// nothing is half-written; and the server carries on by itself once space returns.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { STORAGE_UNAVAILABLE_MESSAGE } from "#server/http/storage-errors";
import { SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";
import { call, comparisonWith, fillDisk, settled, signup, startGateSite, waitFor, type Answer, type GateSite } from "./support";

const mountPoint = mkdtempSync(join(tmpdir(), "di-fault-full-"));
const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", mountPoint]).exitCode === 0;
const filler = join(mountPoint, "filler.bin");

const gates: GateSite[] = [];
let server: RunningServer | undefined;

afterAll(async () => {
  if (server && server.proc.exitCode === null) await server.stop();
  for (const g of gates) await g.close();
  if (mounted) Bun.spawnSync(["umount", "-l", mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

function expectStorage503(r: Answer) {
  expect(r.status).toBe(503);
  expect(r.json).toEqual({ error: STORAGE_UNAVAILABLE_MESSAGE });
  expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
}

/** Screenshot files and atomic-write leftovers under DATA_DIR/screenshots. */
function screenshotFiles(dataDir: string): string[] {
  try {
    return readdirSync(join(dataDir, "screenshots"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/** Filmstrip folders (screenshots/<user>/<comparison>/filmstrips/<snapshot>) without their manifest: unfinished recordings. */
function unfinishedFilmstrips(dataDir: string): string[] {
  try {
    return readdirSync(join(dataDir, "screenshots"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isDirectory() && basename(e.parentPath) === "filmstrips")
      .map((e) => join(e.parentPath, e.name))
      .filter((dir) => !existsSync(join(dir, "manifest.json")));
  } catch {
    return [];
  }
}

test.skipIf(!mounted)(
  "disk full: 503 with Retry-After, nothing half-written, and recovery once space returns",
  async () => {
    const adminEmail = `root-${crypto.randomUUID()}@example.com`;
    server = await startServer({
      dataDir: mountPoint,
      env: { ALLOW_PRIVATE_TARGETS: "1", TRUST_PROXY: "1", ADMIN_EMAILS: adminEmail },
    });
    const base = server.url;
    const admin = await signup(base, adminEmail);
    const user = await signup(base);
    let ip = 0;
    const waitlist = (email: string) =>
      call(base, "POST", "/api/beta-signups", { body: { email, source: "homepage" }, headers: { "x-forwarded-for": `10.66.0.${++ip}` } });

    // A comparison ready to start, and one already capturing (held on two gated pages).
    const light = [startGateSite({ open: true, title: "Orbit" }), startGateSite({ open: true, title: "Ember", background: "#ffedd5" })];
    gates.push(...light);
    const ready = await comparisonWith(base, user.token, "Ready to go", [
      [light[0]!.url, "Orbit"],
      [light[1]!.url, "Ember"],
    ]);
    const [g1, g2] = [startGateSite(), startGateSite()];
    gates.push(g1, g2);
    const busy = await comparisonWith(base, user.token, "Caught by the full disk", [
      [g1.url, "North gate"],
      [g2.url, "South gate"],
    ]);
    expect((await call(base, "POST", `/api/comparisons/${busy}/start`, { token: user.token })).status).toBe(202);
    await waitFor("both capture slots to hold a gated page", async () => g1.hits() + g2.hits() >= 2, 30_000, 50);

    fillDisk(filler);

    // Writes: a clean 503, never a 500.
    expectStorage503(await waitlist("full-1@example.com"));
    const lateSignup = `late-${crypto.randomUUID()}@example.com`;
    expectStorage503(await call(base, "POST", "/api/auth/signup", { body: { email: lateSignup, password: "correct-horse-battery" } }));
    expectStorage503(await call(base, "POST", "/api/comparisons", { body: { name: "No room" }, token: user.token }));
    expectStorage503(await call(base, "POST", `/api/comparisons/${ready}/start`, { token: user.token }));
    expectStorage503(await call(base, "POST", "/api/admin/backups", { token: admin.token }));
    // The start was rolled back as a whole: neither the comparison nor its websites moved.
    expect((await call(base, "GET", `/api/comparisons/${ready}`, { token: user.token })).json.status).toBe("pending");
    const readyTargets = (await call(base, "GET", `/api/comparisons/${ready}/targets`, { token: user.token })).json as { status: string }[];
    expect(readyTargets.map((t) => t.status)).toEqual(["pending", "pending"]);
    // Reads carry on.
    const list = await call(base, "GET", "/api/comparisons", { token: user.token });
    expect(list.status).toBe(200);
    expect((list.json as { name: string }[]).map((c) => c.name)).not.toContain("No room");
    const page = await fetch(`${base}/comparison?id=${ready}`, { headers: { cookie: user.cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Ready to go");

    // The held captures now finish into a full disk: their screenshots cannot be written.
    g1.open();
    g2.open();
    await waitFor("every gated page to be captured", async () => g1.hits() + g2.hits() >= 4, 30_000, 50);
    await waitFor(
      "the run to fail its pages",
      async () => server!.output().includes(`comparison run ${busy} crashed`) || null,
      30_000,
      100,
    );

    // Space comes back; nobody restarts anything.
    rmSync(filler);

    const stuck = await settled(base, user.token, busy, 30_000);
    expect(stuck.status).toBe("failed");
    expect(stuck.error).toBe(STORAGE_UNAVAILABLE_MESSAGE);
    const busyTargets = (await call(base, "GET", `/api/comparisons/${busy}/targets`, { token: user.token })).json as {
      status: string;
      error: string;
    }[];
    expect(busyTargets.map((t) => t.status)).toEqual(["failed", "failed"]);
    for (const t of busyTargets) expect(t.error).toBe(STORAGE_UNAVAILABLE_MESSAGE);
    // Screenshots are written to a temporary name and renamed: nothing partial is left behind.
    // Screenshots are PNGs; a filmstrip is its frames and manifest, whole or not there at all.
    expect(screenshotFiles(mountPoint).filter((n) => !n.endsWith(".png") && !/^(\d{3}\.jpg|manifest\.json)$/.test(n))).toEqual([]);
    expect(unfinishedFilmstrips(mountPoint)).toEqual([]);
    expect((await call(base, "GET", `/api/comparisons/${busy}/snapshots`, { token: user.token })).json).toEqual([]);

    // Every write works again, and what failed before was not half-done (the e-mail is still free).
    expect((await waitlist("full-1@example.com")).status).toBe(201);
    expect((await call(base, "POST", "/api/auth/signup", { body: { email: lateSignup, password: "correct-horse-battery" } })).status).toBe(
      201,
    );
    expect((await call(base, "POST", "/api/comparisons", { body: { name: "Room again" }, token: user.token })).status).toBe(201);
    expect((await call(base, "POST", "/api/admin/backups", { token: admin.token })).status).toBe(201);
    expect(readdirSync(join(mountPoint, "backups")).filter((n) => !n.startsWith("design-intel-"))).toEqual([]);
    expect((await call(base, "POST", `/api/comparisons/${ready}/start`, { token: user.token })).status).toBe(202);
    expect((await call(base, "POST", `/api/comparisons/${busy}/start`, { token: user.token })).status).toBe(202);
    expect(await settled(base, user.token, ready)).toMatchObject({ status: "completed", error: null });
    expect(await settled(base, user.token, busy)).toMatchObject({ status: "completed", error: null });

    const out = server.output();
    expect(out).not.toContain("unhandled error");
    expect(server.proc.exitCode).toBeNull();
    const db = new Database(join(mountPoint, "design-intel.db"), { readonly: true });
    expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
    db.close();
    expect(await server.stop()).toBe(0);
  },
  SERVER_START_MS + 360_000,
); // the boot, then past the sum of the waits above (30 s each, two runs of 90 s)
