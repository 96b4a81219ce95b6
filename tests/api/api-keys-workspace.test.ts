// API keys in workspaces: a key is bound to the workspace it was made in and acts there with its
// maker's role of the moment; a removed member's key answers 401 at once; a workspace's admins
// and owners list and revoke its members' keys, audited in that workspace; nothing crosses over.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "#server/lib/ids";
import { makeTestApp } from "#tests/support/app";
import { fakeRunTools } from "./comparisons-support";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Role = "owner" | "admin" | "editor" | "viewer";

async function world() {
  const dataDir = mkdtempSync(join(tmpdir(), "di-ws-keys-"));
  dirs.push(dataDir);
  const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" }, runTools: fakeRunTools().tools });
  const root = await t.signup("root@example.com"); // the installation's admin, in no team
  const owner = await t.signup("owner@example.com");
  const admin = await t.signup("admin@example.com");
  const editor = await t.signup("editor@example.com");
  const viewer = await t.signup("viewer@example.com");
  const other = await t.signup("other@example.com");
  // Team workspaces are written directly here (the workspaces module's routes make them in the product).
  const team = (name: string, members: [string, Role][]) => {
    const id = newId();
    t.db.query("INSERT INTO workspaces (id, name) VALUES (?, ?)").run(id, name);
    for (const [userId, role] of members)
      t.db.query("INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, ?)").run(id, userId, role);
    return id;
  };
  const ws = team("Growth team", [
    [owner.user.id, "owner"],
    [admin.user.id, "admin"],
    [editor.user.id, "editor"],
    [viewer.user.id, "viewer"],
  ]);
  const otherWs = team("Other team", [[other.user.id, "owner"]]);
  const inWs = (u: { token: string }, id = ws) => ({ ...t.auth(u.token), "x-workspace-id": id });
  const makeKey = async (u: { token: string }, scope: "read" | "run", id = ws) => {
    const r = await t.call("POST", "/api/api-keys", { headers: inWs(u, id), body: { name: `${scope} key`, scope } });
    expect(r.status).toBe(201);
    return r.json as { id: string; key: string };
  };
  return { t, root, owner, admin, editor, viewer, other, ws, otherWs, inWs, makeKey };
}

describe("API keys in workspaces", () => {
  test("a key acts in the workspace it was made in, with its maker's role; another workspace is not found", async () => {
    const { t, editor, viewer, ws, otherWs, inWs, makeKey } = await world();
    const teamComparison = (await t.call("POST", "/api/comparisons", { headers: inWs(editor), body: { name: "Team rivals" } })).json;
    const personal = (await t.call("POST", "/api/comparisons", { headers: t.auth(editor.token), body: { name: "Mine only" } })).json;

    const key = await makeKey(editor, "run");
    expect(t.db.query("SELECT workspace_id FROM api_keys WHERE id = ?").get(key.id)).toEqual({ workspace_id: ws });
    const listed = await t.call("GET", "/api/comparisons", { headers: { "x-api-key": key.key } });
    expect(listed.json.map((c: { id: string }) => c.id)).toEqual([teamComparison.id]);
    // The key's workspace is fixed: naming another (even the maker's personal one) is not found.
    for (const id of [editor.user.id, otherWs])
      expect((await t.call("GET", "/api/comparisons", { headers: { "x-api-key": key.key, "x-workspace-id": id } })).status).toBe(404);
    expect((await t.call("GET", `/api/comparisons/${personal.id}`, { headers: { "x-api-key": key.key } })).status).toBe(404);
    // A run key creates in its workspace.
    const made = await t.call("POST", "/api/comparisons", { headers: { "x-api-key": key.key }, body: { name: "From CI" } });
    expect(made.status).toBe(201);
    expect(t.db.query("SELECT owner_id FROM comparisons WHERE id = ?").get(made.json.id)).toEqual({ owner_id: ws });

    // The key lists under the workspace it was made in, not under the personal one.
    expect((await t.call("GET", "/api/api-keys", { headers: inWs(editor) })).json.keys.map((k: { id: string }) => k.id)).toEqual([key.id]);
    expect((await t.call("GET", "/api/api-keys", { headers: t.auth(editor.token) })).json.keys).toEqual([]);
    // Revoking it from another workspace: not found there.
    expect((await t.call("DELETE", `/api/api-keys/${key.id}`, { headers: t.auth(editor.token) })).status).toBe(404);

    // A viewer's run key cannot do more than the viewer: creating is refused with the role's reason.
    const viewerKey = await makeKey(viewer, "run");
    const refused = await t.call("POST", "/api/comparisons", { headers: { "x-api-key": viewerKey.key }, body: { name: "nope" } });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toStartWith("Your role in this workspace is viewer; this needs editor");
    expect((await t.call("GET", "/api/comparisons", { headers: { "x-api-key": viewerKey.key } })).status).toBe(200);
  });

  test("a removed member's key answers 401 at once, for reads and writes alike", async () => {
    const { t, editor, ws, makeKey } = await world();
    const run = await makeKey(editor, "run");
    const read = await makeKey(editor, "read");
    const personal = await makeKey(editor, "read", editor.user.id);
    for (const k of [run, read]) expect((await t.call("GET", "/api/comparisons", { headers: { "x-api-key": k.key } })).status).toBe(200);

    t.db.query("DELETE FROM workspace_members WHERE workspace_id = ? AND user_id = ?").run(ws, editor.user.id);
    for (const k of [run, read]) {
      expect((await t.call("GET", "/api/comparisons", { headers: { "x-api-key": k.key } })).status).toBe(401);
      expect((await t.call("GET", "/api/auth/me", { headers: t.auth(k.key) })).status).toBe(401);
      // Refused as unknown before its scope is weighed: a read key's write is 401 too, not 403.
      const write = await t.call("POST", "/api/comparisons", { headers: { "x-api-key": k.key }, body: { name: "x" } });
      expect(write.status).toBe(401);
    }
    // Their key for their personal workspace keeps working.
    expect((await t.call("GET", "/api/comparisons", { headers: { "x-api-key": personal.key } })).status).toBe(200);
    // Revoking on removal keeps the keys dead should they be invited back.
    expect(await t.services.apiKeys.revokeMemberKeys(ws, editor.user.id)).toBe(2);
    t.db.query("INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, 'editor')").run(ws, editor.user.id);
    expect((await t.call("GET", "/api/comparisons", { headers: { "x-api-key": run.key } })).status).toBe(401);
  });

  test("removing a member (or their leaving) revokes their keys of that workspace only; rejoining does not revive them", async () => {
    const { t, admin, editor, viewer, ws, inWs, makeKey } = await world();
    const teamKey = await makeKey(editor, "run");
    const personalKey = await makeKey(editor, "read", editor.user.id);
    const removed = await t.call("DELETE", `/api/workspaces/${ws}/members/${editor.user.id}`, { headers: inWs(admin) });
    expect(removed.status).toBe(204);
    const row = (id: string) => t.db.query<{ revoked_at: string | null }, [string]>("SELECT revoked_at FROM api_keys WHERE id = ?").get(id);
    expect(row(teamKey.id)?.revoked_at).toBeString();
    expect(row(personalKey.id)?.revoked_at).toBeNull();
    expect((await t.call("GET", "/api/comparisons", { headers: { "x-api-key": teamKey.key } })).status).toBe(401);
    expect((await t.call("GET", "/api/comparisons", { headers: { "x-api-key": personalKey.key } })).status).toBe(200);
    t.db.query("INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, 'editor')").run(ws, editor.user.id);
    expect((await t.call("GET", "/api/comparisons", { headers: { "x-api-key": teamKey.key } })).status).toBe(401);

    // Leaving works the same way.
    const viewerKey = await makeKey(viewer, "read");
    expect((await t.call("DELETE", `/api/workspaces/${ws}/members/${viewer.user.id}`, { headers: inWs(viewer) })).status).toBe(204);
    expect(row(viewerKey.id)?.revoked_at).toBeString();
  });

  test("admins and owners list and revoke the workspace's keys; editors and viewers get 403; outsiders 404", async () => {
    const { t, root, owner, admin, editor, viewer, other, ws, otherWs, inWs, makeKey } = await world();
    const editorKey = await makeKey(editor, "run");
    const viewerKey = await makeKey(viewer, "read");
    const otherKey = await makeKey(other, "read", otherWs);
    await makeKey(editor, "read", editor.user.id); // the editor's personal key: not the team's

    const path = `/api/workspaces/${ws}/api-keys`;
    for (const u of [owner, admin]) {
      const r = await t.call("GET", path, { headers: t.auth(u.token) });
      expect(r.status).toBe(200);
      expect(r.headers.get("cache-control")).toBe("no-store");
      expect(r.json.keys.map((k: { id: string }) => k.id)).toEqual([viewerKey.id, editorKey.id]);
      expect(r.json.keys[1]).toMatchObject({
        ownerId: editor.user.id,
        ownerEmail: "editor@example.com",
        workspaceId: ws,
        workspaceName: "Growth team",
        scope: "run",
        revokedAt: null,
      });
      expect(r.text).not.toContain(editorKey.key);
    }
    for (const u of [editor, viewer]) {
      const r = await t.call("GET", path, { headers: t.auth(u.token) });
      expect(r.status).toBe(403);
      expect(r.json.error).toBe(
        `Your role in this workspace is ${u === editor ? "editor" : "viewer"}; this needs admin (manage members, invitations and API keys)`,
      );
    }
    for (const u of [other, root]) {
      const r = await t.call("GET", path, { headers: t.auth(u.token) });
      expect(r.status).toBe(404);
      expect(r.json.error).toBe("Workspace not found");
    }
    expect((await t.call("GET", path)).status).toBe(401);
    expect((await t.call("GET", `/api/workspaces/nope/api-keys`, { headers: t.auth(owner.token) })).status).toBe(404);
    // A key acts only in its own workspace, whatever the path names.
    const adminKey = await makeKey(admin, "read", admin.user.id);
    expect((await t.call("GET", path, { headers: { "x-api-key": adminKey.key } })).status).toBe(404);

    // Revoking: an editor may not; a key of another workspace is not found here; the admin ends the editor's key.
    expect((await t.call("DELETE", `${path}/${editorKey.id}`, { headers: t.auth(editor.token) })).status).toBe(403);
    expect((await t.call("DELETE", `${path}/${otherKey.id}`, { headers: t.auth(admin.token) })).status).toBe(404);
    expect((await t.call("DELETE", `/api/workspaces/${otherWs}/api-keys/${editorKey.id}`, { headers: t.auth(admin.token) })).status).toBe(
      404,
    );
    const revoked = await t.call("DELETE", `${path}/${editorKey.id}`, { headers: inWs(admin) });
    expect(revoked.status).toBe(200);
    expect(revoked.json.apiKey).toMatchObject({ id: editorKey.id, ownerId: editor.user.id, workspaceId: ws });
    expect(revoked.json.apiKey.revokedAt).toBeString();
    expect((await t.call("GET", "/api/comparisons", { headers: { "x-api-key": editorKey.key } })).status).toBe(401);
    expect((await t.call("GET", "/api/comparisons", { headers: { "x-api-key": otherKey.key } })).status).toBe(200);

    // Made and revoked are in the workspace's audit, with who did it.
    const audit = t.db
      .query<{ action: string; actor_email: string; target: string }, [string]>(
        "SELECT action, actor_email, target FROM audit_log WHERE workspace_id = ? AND action LIKE 'api_key.%' ORDER BY id",
      )
      .all(ws);
    expect(audit).toEqual([
      { action: "api_key.created", actor_email: "editor@example.com", target: editorKey.id },
      { action: "api_key.created", actor_email: "viewer@example.com", target: viewerKey.id },
      { action: "api_key.revoked", actor_email: "admin@example.com", target: editorKey.id },
    ]);
  });

  test("the admin console's own keys are bound to the admin's current workspace", async () => {
    const { t, root } = await world();
    const r = await t.call("POST", "/api/admin/api-keys", { headers: t.auth(root.token), body: { name: "backup cron" } });
    expect(r.status).toBe(201);
    expect(t.db.query("SELECT workspace_id FROM api_keys WHERE id = ?").get(r.json.apiKey.id)).toEqual({ workspace_id: root.user.id });
    const all = await t.call("GET", "/api/admin/all-api-keys", { headers: t.auth(root.token) });
    expect(all.json.keys.find((k: { id: string }) => k.id === r.json.apiKey.id)).toMatchObject({
      workspaceId: root.user.id,
      workspaceName: "Personal",
    });
    // Naming a workspace the admin is not a member of: not found, like everywhere else.
    const { otherWs } = { otherWs: (t.db.query("SELECT id FROM workspaces WHERE name = 'Other team'").get() as { id: string }).id };
    expect((await t.call("GET", "/api/admin/api-keys", { headers: { ...t.auth(root.token), "x-workspace-id": otherWs } })).status).toBe(
      404,
    );
  });
});
