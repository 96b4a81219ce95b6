import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { startServer as startAny } from "#tests/support/server";
import { BUILD_MS, compiledBinary, runCli as runAny } from "./support";

// The operator commands as shipped: the compiled executable, and a server started from it.
let bin: ReturnType<typeof compiledBinary>;
beforeAll(() => {
  bin = compiledBinary();
}, BUILD_MS);
const runCli = (args: string[], opts: Parameters<typeof runAny>[1] = {}) => runAny(args, { ...opts, cmd: bin.cmd });
// These servers capture nothing: one warm capture browser, not the default two (a CPU-second each to start).
const startServer = (opts: { dataDir?: string } = {}) =>
  startAny({ ...opts, cmd: bin.cmd, cwd: bin.dir, env: { NODE_ENV: "", CAPTURE_CONCURRENCY: "1" } });

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "di-cli-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  bin?.cleanup();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const oneLine = (s: string) => s.trim().split("\n");

describe("usage errors exit 2 with one line naming the flag", () => {
  test("unknown flags, missing and bad values, stray arguments, unknown commands", async () => {
    const dataDir = join(tempDir(), "data");
    const cases: [string[], RegExp][] = [
      [["users", "create", "--email", "a@example.com", "--pasword", "x"], /users create: unknown flag --pasword/],
      [["users", "create", "--email"], /users create: --email needs a value/],
      [
        ["users", "create", "--email", "not-an-email", "--password", "long-enough-1"],
        /users create: --email: Please enter a valid email address/,
      ],
      [
        ["users", "create", "--email", "a@example.com", "--password", "short"],
        /users create: --password: Password must be at least 8 characters/,
      ],
      [
        ["users", "create", "--email", "a@example.com", "--admin=yes", "--password", "long-enough-1"],
        /users create: --admin takes no value/,
      ],
      [["users", "promote"], /users promote: --email is required/],
      [["users", "delete", "--email", "a@example.com"], /users: unknown action "delete"/],
      [["backup"], /backup: --out is required/],
      [["approve", "--baseline", "x"], /approve: unknown flag --baseline/],
      [["check", "--results-dir"], /check: --results-dir needs a value/],
      [["backup", "--out", "x.db", "extra"], /backup: unexpected argument "extra"/],
      [["serve", "--port", "1"], /serve: unknown flag --port/],
      [["worker", "--concurrency", "4"], /worker: unknown flag --concurrency/],
      // The embedded database is one process's file: worker and scheduler need PostgreSQL, and say so.
      [["worker"], /^design-intel worker: needs a PostgreSQL DATABASE_URL .*design-intel serve runs every role in one process$/m],
      [["scheduler"], /^design-intel scheduler: needs a PostgreSQL DATABASE_URL/],
      [["--verbose"], /unknown flag --verbose/],
      [["launch"], /unknown command "launch"/],
    ];
    // Each case is a process of its own (the app loaded from source); they start together.
    const runs = await Promise.all(cases.map(([args]) => runCli(args, { dataDir })));
    for (const [i, [args, message]] of cases.entries()) {
      const r = runs[i]!;
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(oneLine(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
    // Nothing was created by a refused command.
    expect(() => statSync(dataDir)).toThrow();
  }, 180_000); // seventeen processes that load the app from source: past 20 s each on a busy machine

  test("--version and --help on each command", async () => {
    const v = await runCli(["--version"]);
    expect(v).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
    for (const args of [
      ["--help"],
      ["serve", "--help"],
      ["worker", "--help"],
      ["scheduler", "--help"],
      ["users", "--help"],
      ["users", "create", "--help"],
      ["backup", "--help"],
      ["check", "--help"],
      ["approve", "--help"],
    ]) {
      const r = await runCli(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("Usage: design-intel");
      if (args.length === 1) for (const role of ["serve", "worker", "scheduler"]) expect(r.stdout).toMatch(new RegExp(`^  ${role} `, "m"));
      if (args[0] === "worker" || args[0] === "scheduler") expect(r.stdout).toContain("DATABASE_URL=postgres://");
    }
  }, 180_000); // ten processes that load the app from source
});

describe("users and backup on a data directory", () => {
  test("users create --admin on a fresh directory makes an account that signs in; owner-only files", async () => {
    const root = tempDir();
    const dataDir = join(root, "data");
    const created = await runCli(["users", "create", "--email", "Ops@Example.com", "--admin"], { dataDir, stdin: "from-stdin-pass\n" });
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^created admin ops@example.com/);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, "design-intel.db")).mode & 0o777).toBe(0o600);

    const again = await runCli(["users", "create", "--email", "ops@example.com", "--password", "another-pass-1"], { dataDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("An account with this email already exists");

    const server = await startServer({ dataDir });
    try {
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "ops@example.com", password: "from-stdin-pass" }),
      });
      expect(login.status).toBe(200);
      const body = (await login.json()) as { accessToken: string; user: { role: string } };
      expect(body.user.role).toBe("admin");
      const admin = await fetch(`${server.url}/api/admin/users`, { headers: { authorization: `Bearer ${body.accessToken}` } });
      expect(admin.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 240_000); // a server boot (60 s at most), then processes that load the app from source

  test("beside a running server: create, promote and disable apply at once; backup passes integrity_check", async () => {
    const root = tempDir();
    const dataDir = join(root, "data");
    const server = await startServer({ dataDir });
    try {
      const post = (path: string, body: unknown, token?: string) =>
        fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        });
      // The first account (through the UI's API) is the admin; the CLI adds a plain user beside it.
      expect((await post("/api/auth/signup", { email: "first@example.com", password: "first-pass-123" })).status).toBe(201);
      const created = await runCli(["users", "create", "--email", "worker@example.com", "--password", "worker-pass-1"], { dataDir });
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/^created user worker@example.com/);

      const login = await post("/api/auth/login", { email: "worker@example.com", password: "worker-pass-1" });
      expect(login.status).toBe(200);
      const token = ((await login.json()) as { accessToken: string }).accessToken;
      const adminUsers = () => fetch(`${server.url}/api/admin/users`, { headers: { authorization: `Bearer ${token}` } });
      expect((await adminUsers()).status).toBe(403);

      expect((await runCli(["users", "promote", "--email", "WORKER@example.com"], { dataDir })).code).toBe(0);
      expect((await adminUsers()).status).toBe(200);

      const backupPath = join(root, "copy.db");
      const backup = await runCli(["backup", "--out", backupPath], { dataDir });
      expect(backup.code).toBe(0);
      expect(statSync(backupPath).mode & 0o777).toBe(0o600);
      const copy = new Database(backupPath, { readonly: true });
      try {
        expect(copy.query("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
        expect(copy.query<{ email: string; role: string }, []>("SELECT email, role FROM users ORDER BY email").all()).toEqual([
          { email: "first@example.com", role: "admin" },
          { email: "worker@example.com", role: "admin" },
        ]);
      } finally {
        copy.close();
      }
      const exists = await runCli(["backup", "--out", backupPath], { dataDir });
      expect(exists.code).toBe(1);
      expect(exists.stderr).toContain("already exists");

      const disabled = await runCli(["users", "disable", "--email", "worker@example.com"], { dataDir });
      expect(disabled.code).toBe(0);
      // The session the user already had ends, and signing in again is refused.
      expect((await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
      expect((await post("/api/auth/login", { email: "worker@example.com", password: "worker-pass-1" })).status).toBe(401);

      const audit = new Database(join(dataDir, "design-intel.db"), { readonly: true });
      try {
        const actions = audit
          .query<{ action: string; user_agent: string | null }, []>(
            "SELECT action, user_agent FROM audit_log WHERE action IN ('admin.user_promoted', 'admin.user_disabled') ORDER BY id",
          )
          .all();
        expect(actions).toEqual([
          { action: "admin.user_promoted", user_agent: "design-intel CLI" },
          { action: "admin.user_disabled", user_agent: "design-intel CLI" },
        ]);
      } finally {
        audit.close();
      }
    } finally {
      await server.stop();
    }
  }, 240_000); // a server boot (60 s at most), then processes that load the app from source
});
