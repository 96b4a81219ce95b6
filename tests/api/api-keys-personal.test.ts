import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sha256 } from "#server/lib/ids";
import { makeTestApp } from "#tests/support/app";
import { fakeRunTools } from "./comparisons-support";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), "di-keys-"));
  dirs.push(dataDir);
  const fake = fakeRunTools();
  return { ...makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" }, runTools: fake.tools }), fake };
}

describe("personal API keys (/api/api-keys)", () => {
  test("any user creates, lists and revokes their own keys; the key is shown once and stored hashed", async () => {
    const t = setup();
    await t.signup(); // the first account is the admin; this one is an ordinary user
    const user = await t.signup();
    expect(user.user.role).toBe("user");
    const h = t.auth(user.token);

    const created = await t.call("POST", "/api/api-keys", { headers: h, body: { name: "  GitHub Actions ", scope: "read" } });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(created.json).sort()).toEqual(["createdAt", "id", "key", "name", "scope"]);
    expect(created.json).toMatchObject({ name: "GitHub Actions", scope: "read" });
    const key: string = created.json.key;
    expect(key).toMatch(/^di_[A-Za-z0-9_-]{43}$/);
    expect(t.db.query("SELECT key_hash, scope FROM api_keys").all()).toEqual([{ key_hash: sha256(key), scope: "read" }]);

    const listed = await t.call("GET", "/api/api-keys", { headers: h });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(key);
    expect(listed.json.keys).toEqual([
      {
        id: created.json.id,
        name: "GitHub Actions",
        scope: "read",
        prefix: key.slice(0, 10),
        createdAt: created.json.createdAt,
        lastUsedAt: null,
        revokedAt: null,
      },
    ]);

    // Used as a bearer token and as X-API-Key; last use is recorded.
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(key) })).json.user.id).toBe(user.user.id);
    expect((await t.call("GET", "/api/auth/me", { headers: { "x-api-key": key } })).json.user.id).toBe(user.user.id);
    expect((await t.call("GET", "/api/api-keys", { headers: h })).json.keys[0].lastUsedAt).toBeString();

    const revoked = await t.call("DELETE", `/api/api-keys/${created.json.id}`, { headers: h });
    expect(revoked.status).toBe(200);
    expect(revoked.json.apiKey.revokedAt).toBeString();
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(key) })).status).toBe(401);
    expect((await t.call("GET", "/api/comparisons", { headers: { "x-api-key": key } })).status).toBe(401);

    const actions = t.db.query<{ action: string }, []>("SELECT action FROM audit_log WHERE action LIKE 'api_key.%' ORDER BY id").all();
    expect(actions.map((a) => a.action)).toEqual(["api_key.created", "api_key.revoked"]);
  });

  test("bad input is a 400 naming the problem; no session is a 401", async () => {
    const t = setup();
    const u = await t.signup();
    const h = t.auth(u.token);
    const bad = async (body: unknown) => (await t.call("POST", "/api/api-keys", { headers: h, body })).json.error;
    expect(await bad({ name: "x" })).toBe('Scope must be "read" or "run"');
    expect(await bad({ name: "x", scope: "admin" })).toBe('Scope must be "read" or "run"');
    expect(await bad({ name: " ", scope: "run" })).toBe("Key name is required");
    expect((await t.call("POST", "/api/api-keys", { headers: h, raw: "{nope" })).status).toBe(400);
    expect((await t.call("GET", "/api/api-keys")).status).toBe(401);
    expect((await t.call("POST", "/api/api-keys", { body: { name: "x", scope: "run" } })).status).toBe(401);
  });

  test("a read key reads but changes nothing; a run key creates comparisons and targets and starts runs, nothing else", async () => {
    const t = setup();
    const u = await t.signup();
    const h = t.auth(u.token);
    const readKey = (await t.call("POST", "/api/api-keys", { headers: h, body: { name: "dash", scope: "read" } })).json.key;
    const runKey = (await t.call("POST", "/api/api-keys", { headers: h, body: { name: "ci", scope: "run" } })).json.key;

    // Read key: 403 on every write, before validation (an empty body still says 403, not 400).
    for (const [method, path, body] of [
      ["POST", "/api/comparisons", { name: "From a read key" }],
      ["POST", "/api/comparisons", undefined],
      ["POST", "/api/api-keys", { name: "more", scope: "run" }],
      ["DELETE", "/api/api-keys/whatever", undefined],
    ] as const) {
      const r = await t.call(method, path, { headers: t.auth(readKey), body });
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 403 });
      expect(r.json.error).toBe("This API key can only read; use a key with the run scope");
    }
    expect((await t.call("POST", "/api/comparisons", { headers: { "x-api-key": readKey }, body: { name: "x" } })).status).toBe(403);

    // Run key: the CI path works end to end.
    const comparison = await t.call("POST", "/api/comparisons", { headers: { "x-api-key": runKey }, body: { name: "CI" } });
    expect(comparison.status).toBe(201);
    const id = comparison.json.id;
    for (const [url, label] of [
      ["http://127.0.0.1:9/ours", "Ours"],
      ["http://127.0.0.1:9/theirs", "Theirs"],
    ]) {
      const target = await t.call("POST", `/api/comparisons/${id}/targets`, { headers: t.auth(runKey), body: { url, label } });
      expect(target.status).toBe(201);
    }
    const start = await t.call("POST", `/api/comparisons/${id}/start`, { headers: t.auth(runKey) });
    expect(start.status).toBe(202);
    // The read key sees the run the run key started (same owner), and it lands in the owner's list.
    await t.services.comparisons.whenIdle();
    const got = await t.call("GET", `/api/comparisons/${id}`, { headers: t.auth(readKey) });
    expect(got.status).toBe(200);
    expect(got.json.status).toBe("completed");
    expect(t.fake.calls.length).toBe(4);
    expect((await t.call("GET", "/api/comparisons", { headers: h })).text).toContain(id);

    // ...but deleting, managing keys or account changes need a signed-in session.
    for (const [method, path, body] of [
      ["DELETE", `/api/comparisons/${id}`, undefined],
      ["POST", "/api/api-keys", { name: "more", scope: "run" }],
      ["POST", "/api/auth/logout", undefined],
    ] as const) {
      const r = await t.call(method, path, { headers: t.auth(runKey), body });
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 403 });
    }
    expect((await t.call("GET", `/api/comparisons/${id}`, { headers: h })).status).toBe(200);
  });

  test("a read key cannot start a run, even of its owner's ready comparison: 403 before anything is captured", async () => {
    const t = setup();
    const u = await t.signup();
    const h = t.auth(u.token);
    const readKey = (await t.call("POST", "/api/api-keys", { headers: h, body: { name: "dash", scope: "read" } })).json.key;
    const id = (await t.call("POST", "/api/comparisons", { headers: h, body: { name: "Ready" } })).json.id;
    for (const [url, label] of [
      ["http://127.0.0.1:9/ours", "Ours"],
      ["http://127.0.0.1:9/theirs", "Theirs"],
    ])
      expect((await t.call("POST", `/api/comparisons/${id}/targets`, { headers: h, body: { url, label } })).status).toBe(201);

    for (const headers of [t.auth(readKey), { "x-api-key": readKey }]) {
      const r = await t.call("POST", `/api/comparisons/${id}/start`, { headers });
      expect(r.status).toBe(403);
      expect(r.json.error).toBe("This API key can only read; use a key with the run scope");
    }
    await t.services.comparisons.whenIdle();
    expect(t.fake.calls).toHaveLength(0);
    const runs = await t.call("GET", `/api/comparisons/${id}/runs`, { headers: t.auth(readKey) });
    expect(runs.status).toBe(200);
    expect(runs.json).toEqual([]);
    // The comparison was ready: its owner's session starts it.
    expect((await t.call("POST", `/api/comparisons/${id}/start`, { headers: h })).status).toBe(202);
  });

  test("keys never reach another user's data or keys", async () => {
    const t = setup();
    const alice = await t.signup();
    const bob = await t.signup();
    const aliceKey = (await t.call("POST", "/api/api-keys", { headers: t.auth(alice.token), body: { name: "a", scope: "run" } })).json;
    const bobKey = (await t.call("POST", "/api/api-keys", { headers: t.auth(bob.token), body: { name: "b", scope: "run" } })).json;
    const bobs = (await t.call("POST", "/api/comparisons", { headers: t.auth(bob.token), body: { name: "Bob's" } })).json;

    expect((await t.call("GET", `/api/comparisons/${bobs.id}`, { headers: t.auth(aliceKey.key) })).status).toBe(404);
    expect(
      (
        await t.call("POST", `/api/comparisons/${bobs.id}/targets`, {
          headers: t.auth(aliceKey.key),
          body: { url: "http://127.0.0.1:9/x", label: "X" },
        })
      ).status,
    ).toBe(404);
    expect((await t.call("POST", `/api/comparisons/${bobs.id}/start`, { headers: t.auth(aliceKey.key) })).status).toBe(404);
    expect((await t.call("GET", "/api/comparisons", { headers: t.auth(aliceKey.key) })).text).not.toContain(bobs.id);

    // Alice's list holds only her key; she cannot revoke Bob's.
    const list = await t.call("GET", "/api/api-keys", { headers: t.auth(alice.token) });
    expect(list.json.keys.map((k: { id: string }) => k.id)).toEqual([aliceKey.id]);
    expect((await t.call("DELETE", `/api/api-keys/${bobKey.id}`, { headers: t.auth(alice.token) })).status).toBe(404);
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(bobKey.key) })).status).toBe(200);
  });

  test("admin routes keep working beside the personal ones; admin-made keys are run keys by default", async () => {
    const t = setup();
    const admin = await t.signup();
    const h = t.auth(admin.token);
    const made = await t.call("POST", "/api/admin/api-keys", { headers: h, body: { name: "legacy" } });
    expect(made.status).toBe(201);
    expect(made.json.apiKey.scope).toBe("run");
    const personal = await t.call("POST", "/api/api-keys", { headers: h, body: { name: "mine", scope: "read" } });
    const adminList = await t.call("GET", "/api/admin/api-keys", { headers: h });
    expect(adminList.json.keys.map((k: { name: string }) => k.name).sort()).toEqual(["legacy", "mine"]);
    expect((await t.call("GET", "/api/admin/users", { headers: t.auth(personal.json.key) })).status).toBe(200);
    expect((await t.call("POST", "/api/admin/maintenance", { headers: t.auth(made.json.key), body: { enabled: true } })).status).toBe(403);
    // The cron backup of docs/operations.md: an admin's run key may make one, a read key may not.
    expect((await t.call("POST", "/api/admin/backups", { headers: t.auth(made.json.key) })).status).toBe(201);
    expect((await t.call("POST", "/api/admin/backups", { headers: t.auth(personal.json.key) })).status).toBe(403);
    expect((await t.call("GET", "/api/admin/backups", { headers: t.auth(personal.json.key) })).status).toBe(200);
    expect((await t.call("DELETE", `/api/admin/api-keys/${personal.json.id}`, { headers: h })).status).toBe(200);
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(personal.json.key) })).status).toBe(401);
  });
});
