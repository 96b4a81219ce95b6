import { describe, expect, test } from "bun:test";
import { sha256 } from "#server/lib/ids";
import { makeTestApp } from "#tests/support/app";

describe("personal API keys", () => {
  test("shown once, stored hashed, listed, accepted as Bearer, revocable by their owner only", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    const h = t.auth(admin.token);

    const created = await t.call("POST", "/api/admin/api-keys", { headers: h, body: { name: "  CI nightly  " } });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const key: string = created.json.key;
    expect(key).toMatch(/^di_[A-Za-z0-9_-]{43}$/);
    expect(created.json.apiKey).toMatchObject({ name: "CI nightly", prefix: key.slice(0, 10), lastUsedAt: null, revokedAt: null });

    const stored = t.db.query<{ key_hash: string }, []>("SELECT key_hash FROM api_keys").all();
    expect(stored).toEqual([{ key_hash: sha256(key) }]);
    expect(JSON.stringify(t.db.query("SELECT * FROM api_keys").all())).not.toContain(key);

    const listed = await t.call("GET", "/api/admin/api-keys", { headers: h });
    expect(listed.json.keys).toHaveLength(1);
    expect(listed.text).not.toContain(key);

    // The key works wherever a bearer token does, with its owner's live role.
    const me = await t.call("GET", "/api/auth/me", { headers: t.auth(key) });
    expect(me.json.user.id).toBe(admin.user.id);
    expect((await t.call("GET", "/api/admin/system-metrics", { headers: t.auth(key) })).status).toBe(200);
    const used = await t.call("GET", "/api/admin/api-keys", { headers: h });
    expect(used.json.keys[0].lastUsedAt).toBeString();

    // Another admin cannot see or revoke it.
    const other = await t.signup();
    await t.call("PATCH", `/api/admin/users/${other.user.id}`, { headers: h, body: { role: "admin" } });
    expect((await t.call("GET", "/api/admin/api-keys", { headers: t.auth(other.token) })).json.keys).toEqual([]);
    const id = created.json.apiKey.id;
    expect((await t.call("DELETE", `/api/admin/api-keys/${id}`, { headers: t.auth(other.token) })).status).toBe(404);
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(key) })).status).toBe(200);

    const revoked = await t.call("DELETE", `/api/admin/api-keys/${id}`, { headers: h });
    expect(revoked.status).toBe(200);
    expect(revoked.json.apiKey.revokedAt).toBeString();
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(key) })).status).toBe(401);

    const log = await t.call("GET", "/api/admin/audit-logs", { headers: h });
    const actions = log.json.entries.map((e: { action: string }) => e.action);
    expect(actions).toContain("admin.api_key_created");
    expect(actions).toContain("admin.api_key_revoked");
  });

  test("a key follows its owner: demoted means 403 on admin routes, wrong or forged keys are 401", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    const second = await t.signup();
    await t.call("PATCH", `/api/admin/users/${second.user.id}`, { headers: t.auth(admin.token), body: { role: "admin" } });
    const key = (await t.call("POST", "/api/admin/api-keys", { headers: t.auth(second.token), body: { name: "script" } })).json.key;
    await t.call("PATCH", `/api/admin/users/${second.user.id}`, { headers: t.auth(admin.token), body: { role: "user" } });
    expect((await t.call("GET", "/api/admin/users", { headers: t.auth(key) })).status).toBe(403);
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(key) })).status).toBe(200);
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(`${key}x`) })).status).toBe(401);
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth("di_nope") })).status).toBe(401);
  });

  test("names are required and bounded", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    const h = t.auth(admin.token);
    expect((await t.call("POST", "/api/admin/api-keys", { headers: h, body: { name: "   " } })).json.error).toBe("Key name is required");
    expect((await t.call("POST", "/api/admin/api-keys", { headers: h, body: { name: "x".repeat(61) } })).json.error).toBe(
      "Key name must be under 60 characters",
    );
    expect((await t.call("POST", "/api/admin/api-keys", { headers: h, body: {} })).status).toBe(400);
    expect((await t.call("DELETE", "/api/admin/api-keys/missing", { headers: h })).status).toBe(404);
  });
});
