// DATABASE_URL that names a PostgreSQL nobody answers at fails when the database is opened, with one
// line that names the variable, the server and why; never the password. No server is needed.
import { expect, test } from "bun:test";
import { databaseTarget, openSql } from "#server/db/sql";
import { freePort } from "#tests/support/browser-server";

test("a postgres:// URL with nothing listening fails at connect with one clear line", async () => {
  const port = await freePort();
  const started = performance.now();
  const error = await openSql(databaseTarget(`postgres://di:s3cret-pw@127.0.0.1:${port}/design`, "."), { connectTimeout: 5 }).then(
    () => null,
    (e: Error) => e,
  );
  expect(error).toBeInstanceOf(Error);
  const message = error!.message;
  expect(message).toStartWith(`DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:${port}/design: `);
  expect(message).toMatch(/refused|ECONNREFUSED/i);
  expect(message).not.toContain("\n");
  expect(message).not.toContain("s3cret-pw");
  // Refused is known at once, not after the connect timeout.
  expect(performance.now() - started).toBeLessThan(4_000);
});

test("a URL of another kind is refused before any connection, naming what this build speaks", () => {
  expect(() => databaseTarget("mysql://root@127.0.0.1/db", ".")).toThrow(
    'DATABASE_URL: "mysql:" is not a database this build speaks (use sqlite: or postgres://)',
  );
  expect(() => databaseTarget("postgres://", ".")).toThrow("DATABASE_URL: ");
});

test("sqlite: and an absent DATABASE_URL are the embedded file; sqlite:PATH names one", () => {
  expect(databaseTarget(undefined, "/srv/data")).toEqual({ kind: "sqlite", path: "/srv/data/design-intel.db" });
  expect(databaseTarget("sqlite:", "/srv/data")).toEqual({ kind: "sqlite", path: "/srv/data/design-intel.db" });
  expect(databaseTarget("sqlite:///tmp/x.db", "/srv/data")).toEqual({ kind: "sqlite", path: "/tmp/x.db" });
  expect(databaseTarget("postgres://u:p@db.internal:6543/app", "/srv/data")).toEqual({
    kind: "postgres",
    url: "postgres://u:p@db.internal:6543/app",
    where: "db.internal:6543/app",
  });
});
