// Storage failures checked without a real failing disk: SQLite's own read-only mode on the app's
// connection (a real SQLITE_READONLY from the real statements), and injected errors through the
// central handler for the rest. A real disk that turns read-only under the running server is in
// read-only-disk.test.ts, a real full one in disk-full.test.ts.
import { Database, SQLiteError } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { httpBase } from "#server/http/base";
import { RequestMetrics } from "#server/http/request-metrics";
import { isStorageError, isStorageMessage, STORAGE_UNAVAILABLE_MESSAGE } from "#server/http/storage-errors";
import { makeTestApp } from "#tests/support/app";

const fsError = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}`), { code, syscall: "write" });

function realSqliteError(sql: string): SQLiteError {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (x UNIQUE)");
  db.exec("INSERT INTO t VALUES (1)");
  db.exec("PRAGMA query_only = ON");
  try {
    db.exec(sql);
  } catch (e) {
    return e as SQLiteError;
  } finally {
    db.close();
  }
  throw new Error("expected a failure");
}

describe("recognising storage failures", () => {
  test("SQLite's full / read-only / I/O codes (extended ones too) and the fs errno names", () => {
    expect(isStorageError(realSqliteError("INSERT INTO t VALUES (2)"))).toBe(true); // SQLITE_READONLY, for real
    for (const code of [
      "SQLITE_FULL",
      "SQLITE_READONLY",
      "SQLITE_READONLY_DBMOVED",
      "SQLITE_IOERR",
      "SQLITE_IOERR_WRITE",
      "SQLITE_IOERR_FSYNC",
    ])
      expect(isStorageError({ name: "SQLiteError", code })).toBe(true);
    for (const code of ["ENOSPC", "EROFS", "EDQUOT"]) expect(isStorageError(fsError(code, "x"))).toBe(true);
    expect(isStorageError(new Error("wrapped", { cause: fsError("ENOSPC", "no space left on device") }))).toBe(true);
  });

  test("everything else is not a storage failure", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (x UNIQUE)");
    db.exec("INSERT INTO t VALUES (1)");
    let constraint: unknown;
    try {
      db.exec("INSERT INTO t VALUES (1)");
    } catch (e) {
      constraint = e;
    }
    db.close();
    expect((constraint as SQLiteError).code).toStartWith("SQLITE_CONSTRAINT");
    expect(isStorageError(constraint)).toBe(false);
    for (const code of ["SQLITE_BUSY", "SQLITE_FULLY_MADE_UP", "ENOENT", "EACCES"]) expect(isStorageError({ code })).toBe(false);
    for (const v of [null, undefined, "SQLITE_FULL", 28, new Error("disk is full")]) expect(isStorageError(v)).toBe(false);
  });

  test("a capture worker's failure text", () => {
    expect(isStorageMessage("Capture failed: ENOSPC: no space left on device, write")).toBe(true);
    expect(isStorageMessage("Capture failed: EROFS: read-only file system, open '/data/x.png'")).toBe(true);
    expect(isStorageMessage("The site refused the connection")).toBe(false);
    expect(isStorageMessage("Could not open https://enospc-blog.example/ (ERR_NAME_NOT_RESOLVED)")).toBe(false);
    expect(isStorageMessage("Could not open https://example.com/ENOSPC: net::ERR_ABORTED")).toBe(false);
  });
});

describe("the central error handler", () => {
  const logged: string[] = [];
  const app = new Elysia()
    .use(httpBase({ metrics: new RequestMetrics(), log: (msg) => logged.push(msg) }))
    .post("/sqlite-readonly", () => {
      throw realSqliteError("INSERT INTO t VALUES (3)");
    })
    .post("/sqlite-ioerr", () => {
      throw Object.assign(new Error("disk I/O error"), { name: "SQLiteError", code: "SQLITE_IOERR_WRITE", errno: 778 });
    })
    .post("/sqlite-full", () => {
      throw Object.assign(new Error("database or disk is full"), { name: "SQLiteError", code: "SQLITE_FULL", errno: 13 });
    })
    .post("/screenshot-enospc", async () => {
      throw fsError("ENOSPC", "no space left on device, write");
    })
    .post("/screenshot-erofs", async () => {
      throw fsError("EROFS", "read-only file system, open '/data/screenshots/a.png'");
    })
    .post("/bug", () => {
      throw realSqliteError("INSERT INTO nope VALUES (1)");
    });

  test.each(["/sqlite-readonly", "/sqlite-ioerr", "/sqlite-full", "/screenshot-enospc", "/screenshot-erofs"])(
    "%s answers 503 with Retry-After and the storage message",
    async (path) => {
      const res = await app.handle(new Request(`http://localhost${path}`, { method: "POST" }));
      expect(res.status).toBe(503);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await res.json()).toEqual({ error: STORAGE_UNAVAILABLE_MESSAGE });
      expect(logged.at(-1)).toBe(`storage unavailable on POST ${path}`);
    },
  );

  test("a genuine bug is still a 500 (the mapping is not a catch-all)", async () => {
    const res = await app.handle(new Request("http://localhost/bug", { method: "POST" }));
    expect(res.status).toBe(500);
    expect(res.headers.get("retry-after")).toBeNull();
  });
});

describe("a read-only database under the real app", () => {
  test("writes answer 503, reads work, nothing is half-written, and the next write after recovery succeeds", async () => {
    const t = makeTestApp();
    const owner = await t.signup();
    const h = t.auth(owner.token);
    const made = await t.call("POST", "/api/comparisons", { body: { name: "Before" }, headers: h });
    expect(made.status).toBe(201);

    t.db.exec("PRAGMA query_only = ON");
    const email = `ro-${crypto.randomUUID()}@example.com`;
    const attempts = [
      await t.call("POST", "/api/auth/signup", { body: { email, password: "correct-horse-battery" } }),
      await t.call("POST", "/api/auth/login", { body: { email: owner.email, password: owner.password } }),
      await t.call("POST", "/api/beta-signups", { body: { email, source: "homepage" } }),
      await t.call("POST", "/api/comparisons", { body: { name: "During" }, headers: h }),
      await t.call("DELETE", `/api/comparisons/${made.json.id}`, { headers: h }),
    ];
    for (const r of attempts) {
      expect(r.status).toBe(503);
      expect(r.json).toEqual({ error: STORAGE_UNAVAILABLE_MESSAGE });
      expect(r.headers.get("retry-after")).toBe("30");
    }
    const list = await t.call("GET", "/api/comparisons", { headers: h });
    expect(list.status).toBe(200);
    expect(list.json.map((c: { name: string }) => c.name)).toEqual(["Before"]);

    t.db.exec("PRAGMA query_only = OFF");
    // The failed signup left nothing behind: the same e-mail signs up now, and can log in.
    expect((await t.call("POST", "/api/auth/signup", { body: { email, password: "correct-horse-battery" } })).status).toBe(201);
    expect((await t.call("POST", "/api/auth/login", { body: { email, password: "correct-horse-battery" } })).status).toBe(200);
    expect((await t.call("POST", "/api/beta-signups", { body: { email, source: "homepage" } })).status).toBe(201);
    expect((await t.call("POST", "/api/comparisons", { body: { name: "After" }, headers: h })).status).toBe(201);
    expect((await t.call("DELETE", `/api/comparisons/${made.json.id}`, { headers: h })).status).toBe(200);
  });
});
