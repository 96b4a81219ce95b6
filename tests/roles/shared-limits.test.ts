// On PostgreSQL the sign-in lockout and the sign-up budgets are counted in the database: guesses
// spread over two instances lock the account as if they had all reached one. Refresh tokens rotate
// in the database too: the other instance knows a token was just rotated, and takes the new one.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SqlDb } from "#server/db/sql";
import { makeTestApp } from "#tests/support/app";
import { migratedPg, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";

const suite = pgMissing ? describe.skip : describe;
const PASSWORD = "correct-horse-battery";

suite("sign-in budgets and refresh tokens shared by two instances on PostgreSQL", () => {
  let db: SqlDb;
  beforeAll(async () => {
    db = await migratedPg({ max: 4 });
  }, PG_START_TIMEOUT);
  afterAll(async () => {
    await db?.close();
    await stopPostgres();
  });
  const instances = (sharedLimits: boolean) =>
    [0, 1].map(() => makeTestApp({ sql: db, sharedLimits, limits: { perIpPerMinute: 1000, perAccountPerMinute: 4 } }));
  const login = (t: ReturnType<typeof makeTestApp>, email: string, password: string) =>
    t.call("POST", "/api/auth/login", { body: { email, password } });

  test("failed sign-ins to one account on either instance add up to its lockout", async () => {
    const [a, b] = instances(true);
    await a!.signup("owner@example.com", PASSWORD);
    for (const [i, t] of [a, b, a, b].entries()) expect((await login(t!, "owner@example.com", `guess-${i}`)).status).toBe(401);
    // The fifth guess, on either instance, is over the account's budget of four.
    expect((await login(b!, "owner@example.com", "guess-4")).status).toBe(429);
    expect((await login(a!, "owner@example.com", "guess-5")).status).toBe(429);
  });

  test("in memory (one process's budgets) the same guesses are not added up: what the shared budgets fix", async () => {
    const [a, b] = instances(false);
    await a!.signup("other@example.com", PASSWORD);
    // Three guesses each: neither instance's own count reaches four.
    for (const [i, t] of [a, b, a, b, a, b].entries()) expect((await login(t!, "other@example.com", `guess-${i}`)).status).toBe(401);
  });

  test("a refresh token rotated through one instance is spent on the other, which takes its successor", async () => {
    const [a, b] = instances(true);
    const { cookie } = await a!.signup("rotate@example.com", PASSWORD);
    const first = await a!.call("POST", "/api/auth/refresh", { headers: { cookie } });
    expect(first.status).toBe(200);
    // Just rotated: "try again" (a browser still waiting for its new cookie), not a second sign-in.
    expect((await b!.call("POST", "/api/auth/refresh", { headers: { cookie } })).status).toBe(409);
    const next = (first.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect((await b!.call("POST", "/api/auth/refresh", { headers: { cookie: next } })).status).toBe(200);
  });
});
