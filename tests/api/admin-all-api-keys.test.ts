// The admin console's view of every user's API keys (issue 13: "admins keep their view of all
// keys"): owners' e-mails and what the lists show, never a key; any key revocable by an admin,
// audited. Plain users keep seeing only their own keys, through every route the router has.
import { describe, expect, test } from "bun:test";
import { makeTestApp } from "#tests/support/app";

type T = ReturnType<typeof makeTestApp>;

/** An admin (the first account) and two plain users, each of whom made a personal key. */
async function world() {
  const t = makeTestApp();
  const admin = await t.signup("root@example.com");
  const alice = await t.signup("alice@example.com");
  const bob = await t.signup("bob@example.com");
  const make = async (who: { token: string }, name: string, scope: "read" | "run") => {
    const r = await t.call("POST", "/api/api-keys", { headers: t.auth(who.token), body: { name, scope } });
    if (r.status !== 201) throw new Error(`key failed: ${r.text}`);
    return r.json as { id: string; name: string; key: string; scope: string; createdAt: string };
  };
  const aliceKey = await make(alice, "Alice CI", "run");
  const bobKey = await make(bob, "Bob dashboard", "read");
  return { t, admin, alice, bob, aliceKey, bobKey };
}

const list = (t: T, token: string, query = "") => t.call("GET", `/api/admin/all-api-keys${query}`, { headers: t.auth(token) });

describe("every user's API keys in the admin console", () => {
  test("an admin lists other users' keys with their owners' e-mails and workspaces, never the keys", async () => {
    const { t, admin, alice, bob, aliceKey, bobKey } = await world();
    // Bob's key has been used once: the admin sees when.
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(bobKey.key) })).status).toBe(200);

    const r = await list(t, admin.token);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.json).toMatchObject({ page: 1, pageSize: 25, total: 2 });
    // Newest first: Bob's key was made after Alice's.
    expect(r.json.keys).toEqual([
      {
        id: bobKey.id,
        name: "Bob dashboard",
        scope: "read",
        prefix: bobKey.key.slice(0, 10),
        createdAt: bobKey.createdAt,
        lastUsedAt: expect.any(String),
        revokedAt: null,
        ownerId: bob.user.id,
        ownerEmail: "bob@example.com",
        // Each key names the workspace it acts in: here its owner's personal one.
        workspaceId: bob.user.id,
        workspaceName: "Personal",
      },
      {
        id: aliceKey.id,
        name: "Alice CI",
        scope: "run",
        prefix: aliceKey.key.slice(0, 10),
        createdAt: aliceKey.createdAt,
        lastUsedAt: null,
        revokedAt: null,
        ownerId: alice.user.id,
        ownerEmail: "alice@example.com",
        workspaceId: alice.user.id,
        workspaceName: "Personal",
      },
    ]);
    for (const secret of [aliceKey.key, bobKey.key]) expect(r.text).not.toContain(secret);
    expect(r.text).not.toContain("hash");

    // Searchable by owner e-mail or key name (LIKE wildcards are literal), and paged.
    expect((await list(t, admin.token, "?q=ALICE@")).json.keys.map((k: { id: string }) => k.id)).toEqual([aliceKey.id]);
    expect((await list(t, admin.token, "?q=dashboard")).json.keys.map((k: { id: string }) => k.id)).toEqual([bobKey.id]);
    expect((await list(t, admin.token, "?q=%25")).json.total).toBe(0);
    const second = await list(t, admin.token, "?page=2&pageSize=1");
    expect(second.json).toMatchObject({ page: 2, pageSize: 1, total: 2 });
    expect(second.json.keys.map((k: { id: string }) => k.id)).toEqual([aliceKey.id]);
    expect((await list(t, admin.token, "?pageSize=500")).status).toBe(400);
  });

  test("a non-admin gets 403 on the admin routes, and no key is touched", async () => {
    const { t, alice, bobKey } = await world();
    const r = await list(t, alice.token);
    expect(r.status).toBe(403);
    expect(r.json.error).toBeString();
    expect(r.text).not.toContain(bobKey.id);
    const del = await t.call("DELETE", `/api/admin/all-api-keys/${bobKey.id}`, { headers: t.auth(alice.token) });
    expect(del.status).toBe(403);
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(bobKey.key) })).status).toBe(200);
    // Nor with her own key, whatever its scope.
    expect(
      (
        await list(
          t,
          (await t.call("POST", "/api/api-keys", { headers: t.auth(alice.token), body: { name: "r", scope: "read" } })).json.key,
        )
      ).status,
    ).toBe(403);
    expect((await t.call("GET", "/api/admin/all-api-keys")).status).toBe(401);
  });

  test("an admin revokes another user's key: it stops working at once, and the audit log says who did it to whose key", async () => {
    const { t, admin, alice, aliceKey, bobKey } = await world();
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(aliceKey.key) })).status).toBe(200);

    const r = await t.call("DELETE", `/api/admin/all-api-keys/${aliceKey.id}`, {
      headers: { ...t.auth(admin.token), "user-agent": "console-test" },
    });
    expect(r.status).toBe(200);
    const revokedAt: string = r.json.apiKey.revokedAt;
    expect(revokedAt).toBeString();
    expect(r.json.apiKey).toMatchObject({ id: aliceKey.id, ownerEmail: "alice@example.com" });
    expect(r.text).not.toContain(aliceKey.key);

    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(aliceKey.key) })).status).toBe(401);
    expect((await t.call("GET", "/api/comparisons", { headers: { "x-api-key": aliceKey.key } })).status).toBe(401);
    // Only that key: Bob's still works, and Alice still signs in and sees her key as revoked.
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(bobKey.key) })).status).toBe(200);
    const mine = await t.call("GET", "/api/api-keys", { headers: t.auth(alice.token) });
    expect(mine.json.keys).toEqual([expect.objectContaining({ id: aliceKey.id, revokedAt })]);

    const log = await t.call("GET", "/api/admin/audit-logs?action=admin.api_key_revoked", { headers: t.auth(admin.token) });
    expect(log.json.entries).toEqual([
      expect.objectContaining({
        actorId: admin.user.id,
        actorEmail: "root@example.com",
        action: "admin.api_key_revoked",
        target: aliceKey.id,
        userAgent: "console-test",
        details: { name: "Alice CI", owner: "alice@example.com" },
      }),
    ]);

    // Again: the same answer, nothing new recorded; an unknown id is a 404.
    const again = await t.call("DELETE", `/api/admin/all-api-keys/${aliceKey.id}`, { headers: t.auth(admin.token) });
    expect(again.status).toBe(200);
    expect(again.json.apiKey.revokedAt).toBe(revokedAt);
    expect((await t.call("GET", "/api/admin/audit-logs?action=admin.api_key_revoked", { headers: t.auth(admin.token) })).json.total).toBe(
      1,
    );
    expect((await t.call("DELETE", "/api/admin/all-api-keys/nope", { headers: t.auth(admin.token) })).status).toBe(404);
    // The list shows it revoked.
    const listed = (await list(t, admin.token)).json.keys.find((k: { id: string }) => k.id === aliceKey.id);
    expect(listed.revokedAt).toBe(revokedAt);
  });

  test("a plain user sees no one else's keys through any route", async () => {
    const { t, alice, aliceKey, bobKey } = await world();
    // Everything that could identify Bob's key, beside his e-mail.
    const bobs = [bobKey.id, bobKey.key.slice(0, 10), bobKey.name];
    const gets = t.app.routes
      .filter((r) => r.method === "GET" && r.path.startsWith("/api/") && !r.path.includes(":"))
      .map((r) => r.path.replace(/(.)\/$/, "$1"));
    expect(gets).toContain("/api/admin/all-api-keys");
    expect(gets).toContain("/api/api-keys");
    const leaks: string[] = [];
    for (const credential of [alice.token, aliceKey.key]) {
      for (const path of gets) {
        const r = await t.call("GET", path, { headers: t.auth(credential) });
        for (const s of bobs) if (r.text.includes(s)) leaks.push(`${path} (${r.status}) shows ${s}`);
      }
    }
    expect(leaks).toEqual([]);
    // Her own list is where her key shows, so the scan above could have seen one.
    const mine = await t.call("GET", "/api/api-keys", { headers: t.auth(alice.token) });
    expect(mine.json.keys.map((k: { id: string }) => k.id)).toEqual([aliceKey.id]);
    // And she can revoke only her own: Bob's is 404 on her route, 403 on the admin one.
    expect((await t.call("DELETE", `/api/api-keys/${bobKey.id}`, { headers: t.auth(alice.token) })).status).toBe(404);
    expect((await t.call("DELETE", `/api/admin/api-keys/${bobKey.id}`, { headers: t.auth(alice.token) })).status).toBe(403);
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(bobKey.key) })).status).toBe(200);
  });
});
