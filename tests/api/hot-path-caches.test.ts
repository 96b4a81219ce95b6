// The per-request reads behind every authenticated API call (the token's user) and the comparisons
// list are cached between writes; these prove a change still applies on the very next request.
import { describe, expect, test } from "bun:test";
import { makeTestApp } from "#tests/support/app";

describe("cached user behind a bearer token", () => {
  test("a user disabled straight in the database is refused on the next request", async () => {
    const t = makeTestApp();
    await t.signup();
    const user = await t.signup();
    for (let i = 0; i < 3; i++) expect((await t.call("GET", "/api/comparisons", { headers: t.auth(user.token) })).status).toBe(200);
    t.db.run("UPDATE users SET disabled = 1 WHERE id = ?", [user.user.id]);
    expect((await t.call("GET", "/api/comparisons", { headers: t.auth(user.token) })).status).toBe(401);
    t.db.run("UPDATE users SET disabled = 0 WHERE id = ?", [user.user.id]);
    expect((await t.call("GET", "/api/comparisons", { headers: t.auth(user.token) })).status).toBe(200);
  });

  test("a role change applies on the next request, both ways", async () => {
    const t = makeTestApp();
    await t.signup();
    const user = await t.signup();
    const adminCall = () => t.call("GET", "/api/admin/users", { headers: t.auth(user.token) });
    expect((await adminCall()).status).toBe(403);
    t.db.run("UPDATE users SET role = 'admin' WHERE id = ?", [user.user.id]);
    expect((await adminCall()).status).toBe(200);
    t.db.run("UPDATE users SET role = 'user' WHERE id = ?", [user.user.id]);
    expect((await adminCall()).status).toBe(403);
  });

  test("an expired token stays refused though it verified before", async () => {
    let now = Date.now();
    const t = makeTestApp({ now: () => now });
    const { token } = await t.signup();
    expect((await t.call("GET", "/api/comparisons", { headers: t.auth(token) })).status).toBe(200);
    now += 15 * 60 * 1000; // exactly at exp: expired, as jose counts it
    expect((await t.call("GET", "/api/comparisons", { headers: t.auth(token) })).status).toBe(401);
  });

  test("a token altered after a valid one was seen is still refused", async () => {
    const t = makeTestApp();
    const { token } = await t.signup();
    expect((await t.call("GET", "/api/comparisons", { headers: t.auth(token) })).status).toBe(200);
    const [h, p, sig] = token.split(".") as [string, string, string];
    const flipped = sig.slice(0, -2) + (sig.at(-2) === "A" ? "B" : "A") + sig.at(-1);
    expect((await t.call("GET", "/api/comparisons", { headers: t.auth(`${h}.${p}.${flipped}`) })).status).toBe(401);
  });
});

describe("cached comparisons list", () => {
  test("reflects every change on the next request", async () => {
    const t = makeTestApp();
    const { token } = await t.signup();
    const list = async () =>
      (await t.call("GET", "/api/comparisons", { headers: t.auth(token) })).json as { id: string; name: string; targetCount: number }[];
    expect(await list()).toEqual([]);
    const a = (await t.call("POST", "/api/comparisons", { headers: t.auth(token), body: { name: "First" } })).json;
    expect((await list()).map((c) => c.name)).toEqual(["First"]);
    await t.call("POST", "/api/comparisons", { headers: t.auth(token), body: { name: "Second" } });
    expect((await list()).map((c) => c.name)).toEqual(["Second", "First"]);
    t.db.run(
      "INSERT INTO targets (id, comparison_id, owner_id, label, url, created_at) SELECT 't1', id, owner_id, 'x', 'https://x.example/', created_at FROM comparisons WHERE id = ?",
      [a.id],
    );
    expect((await list()).find((c) => c.id === a.id)?.targetCount).toBe(1);
    await t.call("DELETE", `/api/comparisons/${a.id}`, { headers: t.auth(token) });
    expect((await list()).map((c) => c.name)).toEqual(["Second"]);
  });

  test("is per owner: another user's cached list never leaks", async () => {
    const t = makeTestApp();
    const a = await t.signup();
    const b = await t.signup();
    await t.call("POST", "/api/comparisons", { headers: t.auth(a.token), body: { name: "Mine" } });
    expect((await t.call("GET", "/api/comparisons", { headers: t.auth(a.token) })).json).toHaveLength(1);
    expect((await t.call("GET", "/api/comparisons", { headers: t.auth(b.token) })).json).toEqual([]);
  });

  test("answers JSON with the security headers", async () => {
    const t = makeTestApp();
    const { token } = await t.signup();
    const r = await t.call("GET", "/api/comparisons", { headers: t.auth(token) });
    expect(r.headers.get("content-type")).toStartWith("application/json");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});
