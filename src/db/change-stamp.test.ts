import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StampedCache, changeStamp } from "./change-stamp";
import { openDatabase } from "./connection";

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
});
