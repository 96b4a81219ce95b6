// Statements carry PostgreSQL's $1…; on SQLite they become ?1…, which SQLite binds by number
// (its $1 is a name, numbered by first appearance). Quoted text and comments keep their dollars.
import { expect, test } from "bun:test";
import { toSqliteParams } from "#server/db/sql/placeholders";

test("$N becomes ?N outside quotes and comments", () => {
  expect(toSqliteParams("SELECT $2 AS b, $1 AS a WHERE x = $10")).toBe("SELECT ?2 AS b, ?1 AS a WHERE x = ?10");
  expect(toSqliteParams(`SELECT '$1', 'it''s $2', "$3" FROM t -- $4\nWHERE y = $5 /* $6 */`)).toBe(
    `SELECT '$1', 'it''s $2', "$3" FROM t -- $4\nWHERE y = ?5 /* $6 */`,
  );
  expect(toSqliteParams("json_extract(x, '$.a.b')")).toBe("json_extract(x, '$.a.b')");
});
