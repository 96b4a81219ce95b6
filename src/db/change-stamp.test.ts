import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StampedCache, changeStamp } from "./change-stamp";
import { openDatabase } from "./connection";
import { sqliteSql } from "./sql";

const dir = mkdtempSync(join(tmpdir(), "di-stamp-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function setup(name: string) {
  const db = openDatabase(join(dir, `${name}.db`));
  db.run("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)");
  db.run("INSERT INTO t VALUES ('a', 'one')");
  const read = db.query<{ v: string }, [string]>("SELECT v FROM t WHERE k = ?");
  let loads = 0;
  const cache = new StampedCache<string | null>(changeStamp(db), 100);
  const get = (k: string) =>
    cache.get(k, () => {
      loads++;
      return read.get(k)?.v ?? null;
    });
  return { db, get, loads: () => loads };
}

describe("StampedCache", () => {
  test("answers from memory until a write through the same connection, which is seen at once", () => {
    const s = setup("own");
    expect(s.get("a")).toBe("one");
    expect(s.get("a")).toBe("one");
    expect(s.loads()).toBe(1);
    s.db.run("UPDATE t SET v = 'two' WHERE k = 'a'");
    expect(s.get("a")).toBe("two");
    // A write to any other row or table empties it too.
    s.db.run("INSERT INTO t VALUES ('b', 'x')");
    expect(s.get("a")).toBe("two");
    expect(s.loads()).toBe(3);
    s.db.close();
  });

  test("an absent row is cached as absent and appears after it is inserted", () => {
    const s = setup("absent");
    expect(s.get("z")).toBeNull();
    expect(s.get("z")).toBeNull();
    expect(s.loads()).toBe(1);
    s.db.run("INSERT INTO t VALUES ('z', 'zed')");
    expect(s.get("z")).toBe("zed");
    s.db.close();
  });

  test("a commit by another connection is seen within a millisecond", async () => {
    const s = setup("other");
    const other = openDatabase(join(dir, "other.db"));
    expect(s.get("a")).toBe("one");
    other.run("UPDATE t SET v = 'theirs' WHERE k = 'a'");
    await Bun.sleep(5);
    expect(s.get("a")).toBe("theirs");
    other.close();
    s.db.close();
  });

  test("keeps at most `max` keys", () => {
    const db = openDatabase(":memory:");
    let loads = 0;
    const cache = new StampedCache<number>(changeStamp(db), 2);
    for (const k of ["a", "b", "c", "a"]) cache.get(k, () => ++loads);
    // "a" was dropped when "c" came in, so it loaded again.
    expect(loads).toBe(4);
    db.close();
  });

  test("an async load is shared while it runs, and one that failed is tried again", async () => {
    const db = openDatabase(":memory:");
    const cache = new StampedCache<Promise<number>>(changeStamp(db), 10);
    let loads = 0;
    const first: Promise<number> = cache.load("k", async () => ++loads);
    expect(cache.load("k", async () => ++loads)).toBe(first);
    expect(await first).toBe(1);
    const failing: Promise<number> = cache.load("f", async () => Promise.reject(new Error("gone")));
    expect(await failing.catch((e: Error) => e.message)).toBe("gone");
    const again: Promise<number> = cache.load("f", async () => 7);
    expect(await again).toBe(7);
    db.close();
  });
});

describe("changeStamp on a connection with its async handle", () => {
  function stamped() {
    const db = openDatabase(":memory:");
    db.run("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)");
    db.run("CREATE TABLE s (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID");
    db.run("INSERT INTO t VALUES ('a', 'one')");
    const stamp = changeStamp(db);
    return { db, sql: sqliteSql(db), stamp };
  }

  test("reads through the handle leave the stamp alone, so what they load stays cached", async () => {
    const { db, sql, stamp } = stamped();
    const before = stamp();
    await sql.one("SELECT v FROM t WHERE k = $1", ["a"]);
    await sql.all("SELECT * FROM t");
    expect(stamp()).toBe(before);
    db.close();
  });

  test("each write through the handle moves it: run, RETURNING, exec, a transaction, one that changes no row", async () => {
    const { db, sql, stamp } = stamped();
    const seen = new Set([stamp()]);
    const moved = () => {
      const s = stamp();
      expect(seen.has(s)).toBe(false);
      seen.add(s);
    };
    await sql.run("UPDATE t SET v = $1 WHERE k = $2", ["two", "a"]);
    moved();
    await sql.one("INSERT INTO t VALUES ($1, $2) RETURNING k", ["b", "x"]);
    moved();
    await sql.exec("DELETE FROM t WHERE k = 'b'");
    moved();
    await sql.tx(async (tx) => void (await tx.run("INSERT INTO s VALUES ($1, $2)", ["k", "v"])));
    moved();
    // Conservative: a write statement counts whatever it changed.
    await sql.run("DELETE FROM t WHERE k = $1", ["nobody"]);
    moved();
    db.close();
  });

  // What a test (t.db), a script or the agents loop's own code does on the connection without the
  // handle: each must move the stamp at once, or a cached read answers what is no longer there.
  test("every write on the connection outside the handle moves it at once", () => {
    const { db, stamp } = stamped();
    const held = db.query("UPDATE t SET v = ? WHERE k = 'a'");
    const writes: [string, () => unknown][] = [
      ["db.run", () => db.run("UPDATE t SET v = 'r' WHERE k = 'a'")],
      ["db.exec", () => db.exec("UPDATE t SET v = 'e' WHERE k = 'a'")],
      ["db.query().run()", () => db.query("UPDATE t SET v = ? WHERE k = 'a'").run("q")],
      ["a statement held since before", () => held.run("h")],
      ["db.prepare().run()", () => db.prepare("UPDATE t SET v = 'p' WHERE k = 'a'").run()],
      ["a RETURNING read by get()", () => db.query("UPDATE t SET v = 'g' WHERE k = 'a' RETURNING v").get()],
      ["a RETURNING stepped by iterate()", () => [...db.query("UPDATE t SET v = 'i' RETURNING v").iterate()]],
      ["db.transaction()", () => db.transaction(() => void db.query("INSERT INTO t VALUES ('c', 'tx')").run())()],
      ["a WITHOUT ROWID table (no update hook sees it)", () => db.run("INSERT INTO s VALUES ('w', 'x')")],
      ["a DELETE of every row (SQLite's truncation)", () => db.run("DELETE FROM s")],
      ["a statement cast with as()", () => db.query("UPDATE t SET v = 'as' WHERE k = 'a'").as(Object).run()],
    ];
    for (const [how, write] of writes) {
      const before = stamp();
      write();
      expect({ how, moved: stamp() !== before }).toEqual({ how, moved: true });
    }
    expect(db.query<{ v: string }, []>("SELECT v FROM t WHERE k = 'a'").get()?.v).toBe("as");
    db.close();
  });

  test("a statement from the connection still answers as bun:sqlite's own", () => {
    const { db } = stamped();
    const stmt = db.query<{ k: string; v: string }, [string]>("SELECT k, v FROM t WHERE k = ?");
    expect(stmt.columnNames).toEqual(["k", "v"]);
    expect(stmt.paramsCount).toBe(1);
    expect(stmt.get("a")).toEqual({ k: "a", v: "one" });
    expect([...stmt.iterate("a")]).toEqual([{ k: "a", v: "one" }]);
    expect(db.query("SELECT 1 AS n").values()).toEqual([[1]]);
    class Row {
      k!: string;
    }
    expect(db.query("SELECT k FROM t").as(Row).get()).toBeInstanceOf(Row);
    db.close();
  });

  test("a connection opened elsewhere is watched once its stamp or handle is made", () => {
    const db = new Database(":memory:");
    db.run("CREATE TABLE t (k TEXT)");
    const stamp = changeStamp(db);
    const before = stamp();
    db.run("INSERT INTO t VALUES ('x')");
    expect(stamp()).not.toBe(before);
    db.close();
  });
});
