import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, createServices, type AppDeps } from "#server/app";
import { webFrontEnd } from "#server/ssr";
import { openDatabase } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { sqliteSql } from "#server/db/sql";
import { loadEnv } from "#server/env";
import { silentLogger } from "#server/lib/logger";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** An app on a real database file in its own DATA_DIR, as in production. */
function fileApp(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "di-backup-"));
  dirs.push(dataDir);
  const dbPath = join(dataDir, "design-intel.db");
  const db = openDatabase(dbPath);
  migrate(db);
  const deps: AppDeps = {
    db: sqliteSql(db),
    env: loadEnv({ NODE_ENV: "test", DATA_DIR: dataDir, ...env }),
    secret: new TextEncoder().encode("test-secret-test-secret-test-secret-1234"),
    limits: { perIpPerMinute: 1000, perAccountPerMinute: 1000 },
    log: () => {},
    logger: silentLogger(),
  };
  const app = createApp(deps, createServices(deps), webFrontEnd);
  const call = async (method: string, path: string, token?: string) => {
    const res = await app.handle(
      new Request(`http://localhost${path}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {} }),
    );
    return res;
  };
  const signup = async () => {
    const res = await app.handle(
      new Request("http://localhost/api/auth/signup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: `a${Math.random().toString(36).slice(2)}@example.com`, password: "correct-horse-battery" }),
      }),
    );
    return ((await res.json()) as { accessToken: string }).accessToken;
  };
  return { dataDir, dbPath, db, call, signup };
}

// Each transaction writes a pair of rows: a consistent copy never holds half a pair. The writer
// lets go of the write lock after every pair: the server records each backup (a setting, an audit
// row) and must get its turn. Holding the lock for ten pairs at a time starved it past its 5 s
// busy timeout on a busy machine, where each fsync'd commit is slow: a 500 the product would
// never meet, as no other process writes its database.
const WRITER = `
import { Database } from "bun:sqlite";
const db = new Database(process.argv[2]);
db.exec("PRAGMA busy_timeout = 5000");
const ins = db.query("INSERT INTO pairs (grp, payload) VALUES (?, ?)");
const pair = db.transaction((g) => { ins.run(g, "x".repeat(500)); ins.run(g, "y".repeat(500)); });
for (let g = 1; ; g++) { pair.immediate(g); await Bun.sleep(1); }
`;

describe("database backups", () => {
  test("Backup Now makes verified, consistent copies while another process keeps writing; retention keeps the newest", async () => {
    const a = fileApp({ BACKUP_KEEP: "3" });
    a.db.exec("CREATE TABLE pairs (id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, payload TEXT NOT NULL)");
    const token = await a.signup();
    const writerFile = join(a.dataDir, "writer.ts");
    await Bun.write(writerFile, WRITER);
    const writer = Bun.spawn(["bun", writerFile, a.dbPath], { stdout: "ignore", stderr: "pipe" });
    try {
      const rows = a.db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM pairs");
      while ((rows.get()?.n ?? 0) < 200) {
        if (writer.exitCode !== null) throw new Error(`writer died: ${await new Response(writer.stderr).text()}`);
        await Bun.sleep(10);
      }

      const made: { name: string; size: number }[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await a.call("POST", "/api/admin/backups", token);
        expect(res.status, await res.clone().text()).toBe(201);
        made.push(((await res.json()) as { backup: { name: string; size: number } }).backup);
        await Bun.sleep(30);
      }
      expect(writer.exitCode).toBeNull(); // the writer was running throughout

      const files = readdirSync(join(a.dataDir, "backups")).sort();
      expect(files).toEqual(
        made
          .slice(-3)
          .map((b) => b.name)
          .sort(),
      ); // no temp files left, the oldest pruned

      let previous = 0;
      for (const name of files) {
        const copy = new Database(join(a.dataDir, "backups", name), { readonly: true });
        try {
          expect(copy.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
          const broken = copy.query("SELECT grp FROM pairs GROUP BY grp HAVING COUNT(*) <> 2").all();
          expect(broken).toEqual([]);
          const n = (copy.query("SELECT COUNT(*) AS n FROM pairs").get() as { n: number }).n;
          expect(n).toBeGreaterThan(previous); // each copy saw more committed writes than the last
          previous = n;
          expect((copy.query("SELECT COUNT(*) AS n FROM users").get() as { n: number }).n).toBe(1);
        } finally {
          copy.close();
        }
      }

      const stats = (await (await a.call("GET", "/api/admin/database-stats", token)).json()) as Record<string, unknown>;
      expect(stats).toMatchObject({ backupStatus: "healthy", backupCount: 3, lastBackup: expect.any(String), lastBackupError: null });
      expect(stats.connections).toBeGreaterThanOrEqual(1);
      expect(stats.totalRecords).toBeGreaterThan(200);
    } finally {
      writer.kill();
      await writer.exited;
    }
  }, 30_000);

  test("View Backups lists them with size and time; a backup downloads byte for byte; names cannot escape the folder", async () => {
    const a = fileApp();
    const token = await a.signup();
    const before = (await (await a.call("GET", "/api/admin/database-stats", token)).json()) as { backupStatus: string };
    expect(before.backupStatus).toBe("none");
    await a.call("POST", "/api/admin/backups", token);
    const list = (await (await a.call("GET", "/api/admin/backups", token)).json()) as {
      backups: { name: string; size: number; createdAt: string }[];
    };
    expect(list.backups).toHaveLength(1);
    const b = list.backups[0]!;
    expect(b.size).toBeGreaterThan(0);
    expect(Math.abs(Date.parse(b.createdAt) - Date.now())).toBeLessThan(60_000);

    const dl = await a.call("GET", `/api/admin/backups/${b.name}`, token);
    expect(dl.status).toBe(200);
    expect(dl.headers.get("content-disposition")).toBe(`attachment; filename="${b.name}"`);
    const bytes = new Uint8Array(await dl.arrayBuffer());
    expect(bytes.byteLength).toBe(b.size);
    expect(new TextDecoder().decode(bytes.slice(0, 15))).toBe("SQLite format 3");

    for (const bad of ["..%2Fdesign-intel.db", "design-intel.db", "%2Fetc%2Fpasswd"]) {
      expect((await a.call("GET", `/api/admin/backups/${bad}`, token)).status).toBe(400);
    }
    expect((await a.call("GET", "/api/admin/backups/design-intel-20200101T000000000Z.db", token)).status).toBe(404);
  });

  test("database size counts the WAL", async () => {
    const a = fileApp();
    const token = await a.signup();
    a.db.exec("CREATE TABLE filler (x TEXT)");
    const ins = a.db.query("INSERT INTO filler VALUES (?)");
    for (let i = 0; i < 200; i++) ins.run("z".repeat(1000));
    const walBytes = Bun.file(`${a.dbPath}-wal`).size;
    expect(walBytes).toBeGreaterThan(0);
    const stats = (await (await a.call("GET", "/api/admin/database-stats", token)).json()) as { dbSize: number };
    expect(stats.dbSize).toBe(Bun.file(a.dbPath).size + walBytes);
  });
});
