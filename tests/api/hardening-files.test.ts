// Everything under DATA_DIR is owner-only (files 0600, folders 0700) on the real server: after boot,
// a sign-up, a capture and a backup; and a DATA_DIR whose files are readable by others is
// tightened at boot. The folder holds password, refresh-token and API-key hashes.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "#server/db/migrate";
import { SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";
import { call, comparisonWith, settled, signup, startGateSite, type GateSite } from "#tests/faults/support";

const servers: RunningServer[] = [];
const sites: GateSite[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null) await s.stop();
  for (const g of sites) await g.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every path under root (root included) with its permission bits. */
function modes(root: string): { path: string; kind: "file" | "dir"; mode: number }[] {
  const out: { path: string; kind: "file" | "dir"; mode: number }[] = [];
  const visit = (path: string) => {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return;
    out.push({ path: path.slice(root.length) || "/", kind: st.isDirectory() ? "dir" : "file", mode: st.mode & 0o777 });
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return out;
}

function expectOwnerOnly(root: string) {
  const loose = modes(root).filter((e) => e.mode & 0o077);
  expect(loose).toEqual([]);
  return modes(root);
}

const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), "di-modes-"));
  dirs.push(d);
  return d;
};

test("database, WAL, secret, screenshots and backups are created owner-only", async () => {
  const dir = dataDir();
  chmodSync(dir, 0o755); // as mkdtemp-then-chmod or a volume mount would leave it
  const server = await startServer({ dataDir: dir, env: { ALLOW_PRIVATE_TARGETS: "1", CAPTURE_CONCURRENCY: "1" } });
  servers.push(server);
  const afterBoot = expectOwnerOnly(dir);
  expect(afterBoot.find((e) => e.path === "/")).toMatchObject({ kind: "dir", mode: 0o700 });
  expect(afterBoot.find((e) => e.path === "/design-intel.db")?.mode).toBe(0o600);
  expect(afterBoot.find((e) => e.path === "/.jwt-secret")?.mode).toBe(0o600);

  const admin = await signup(server.url);
  const files = expectOwnerOnly(dir).map((e) => e.path);
  expect(files).toContain("/design-intel.db-wal");
  expect(files).toContain("/design-intel.db-shm");

  const site = startGateSite({ open: true, title: "Private Parts" });
  const other = startGateSite({ open: true, title: "Second Site", background: "#dbeafe" });
  sites.push(site, other);
  const id = await comparisonWith(server.url, admin.token, "Modes", [
    [site.url, "One"],
    [other.url, "Two"],
  ]);
  expect((await call(server.url, "POST", `/api/comparisons/${id}/start`, { token: admin.token })).status).toBe(202);
  const done = await settled(server.url, admin.token, id);
  expect(done.status).toBe("completed");
  const backup = await call(server.url, "POST", "/api/admin/backups", { token: admin.token });
  expect(backup.status).toBeLessThan(300);

  const all = expectOwnerOnly(dir);
  const shots = all.filter((e) => e.path.startsWith("/screenshots/") && e.kind === "file");
  expect(shots.length).toBeGreaterThanOrEqual(2);
  const dirsUnder = all.filter((e) => e.kind === "dir");
  expect(dirsUnder.every((e) => e.mode === 0o700)).toBe(true);
  const backups = all.filter((e) => e.path.startsWith("/backups/") && e.kind === "file");
  expect(backups.map((b) => b.mode)).toEqual([0o600]);
}, 240_000);

/**
 * A database readable by others: 0644, with its last sign-up still in the -wal file (never
 * checkpointed, as after a crash), so booting must both recover it and tighten both files.
 */
async function oldDatabase(dir: string, email: string, password: string) {
  const work = mkdtempSync(join(tmpdir(), "di-old-db-"));
  dirs.push(work);
  const path = join(work, "old.db");
  const db = new Database(path, { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  migrate(db);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.exec("PRAGMA wal_autocheckpoint = 0");
  db.query("INSERT INTO users (id, email, username, password_hash, role) VALUES (?, ?, NULL, ?, 'admin')").run(
    "old-admin",
    email,
    await Bun.password.hash(password),
  );
  // Copied while the connection is open: the row lives only in the WAL, as it would after a crash.
  expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
  copyFileSync(path, join(dir, "design-intel.db"));
  copyFileSync(`${path}-wal`, join(dir, "design-intel.db-wal"));
  db.close();
  const mainOnly = join(work, "main-only.db");
  copyFileSync(join(dir, "design-intel.db"), mainOnly);
  const check = new Database(mainOnly, { readonly: true });
  expect(check.query("SELECT COUNT(*) AS n FROM users").get()).toEqual({ n: 0 });
  check.close();
  for (const f of ["design-intel.db", "design-intel.db-wal"]) chmodSync(join(dir, f), 0o644);
}

test(
  "files and folders readable by others are made owner-only at boot",
  async () => {
    const dir = dataDir();
    await oldDatabase(dir, "old-admin@example.com", "an-old-password-1");
    mkdirSync(join(dir, "screenshots", "u1", "c1"), { recursive: true, mode: 0o755 });
    mkdirSync(join(dir, "backups"), { mode: 0o755 });
    for (const [path, mode] of [
      ["screenshots/u1/c1/s1.png", 0o644],
      ["backups/design-intel-20260101T000000000Z.db", 0o644],
      [".jwt-secret", 0o644],
    ] as const) {
      writeFileSync(join(dir, path), path === ".jwt-secret" ? "x".repeat(64) : "old");
      chmodSync(join(dir, path), mode);
    }
    for (const d of ["", "screenshots", "screenshots/u1", "screenshots/u1/c1", "backups"]) chmodSync(join(dir, d), 0o755);
    const before = modes(dir);
    expect(before.filter((e) => e.mode & 0o077).length).toBe(10);
    expect(before.find((e) => e.path === "/design-intel.db")?.mode).toBe(0o644);
    expect(before.find((e) => e.path === "/design-intel.db-wal")?.mode).toBe(0o644);

    const server = await startServer({ dataDir: dir, env: { CAPTURE_CONCURRENCY: "1" } });
    servers.push(server);
    const all = expectOwnerOnly(dir);
    expect(all.find((e) => e.path === "/design-intel.db")?.mode).toBe(0o600);
    expect(all.find((e) => e.path === "/design-intel.db-wal")?.mode).toBe(0o600);
    expect(all.find((e) => e.path === "/design-intel.db-shm")?.mode).toBe(0o600);
    expect(all.find((e) => e.path === "/screenshots/u1/c1/s1.png")?.mode).toBe(0o600);
    expect(all.find((e) => e.path === "/screenshots/u1")?.mode).toBe(0o700);
    expect(server.output()).toContain("owner-only");
    // The account that was only in the WAL was recovered, not lost to the re-mode: it signs in.
    const login = await call(server.url, "POST", "/api/auth/login", {
      body: { email: "old-admin@example.com", password: "an-old-password-1" },
    });
    expect(login.status).toBe(200);
    // The server's boot may take its whole bound (SERVER_START_MS) on a busy machine, after a
    // database built with a password hash: more than the default 30 s.
  },
  SERVER_START_MS + 60_000,
);
