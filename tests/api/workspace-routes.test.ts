// The comparison routes in a team workspace: comparisons, their websites, pages, secrets,
// discovery, run history and share links act in the request's current workspace, with the member's
// role. A viewer reads everything and changes nothing (403 naming their role); an editor does it all;
// someone outside the workspace finds nothing there (404). Runs started, comparisons deleted,
// secrets and share links go into the workspace's audit log under the member who acted.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "#tests/support/app";
import { addMember, inWorkspace, makeTeam } from "#tests/support/workspaces";
import { fakeRunTools } from "./comparisons-support";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const URL_A = "http://127.0.0.1:9/alpha";
const URL_B = "http://127.0.0.1:9/beta";

/** A team with an owner, an editor, a viewer, and an outsider; the owner's comparison there has run once. */
async function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), "di-ws-routes-"));
  dirs.push(dataDir);
  const fake = fakeRunTools();
  const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" }, runTools: fake.tools });
  const [owner, editor, viewer, outsider] = [await t.signup(), await t.signup(), await t.signup(), await t.signup()];
  const team = makeTeam(t.db, owner.user.id, "Acme");
  addMember(t.db, team, editor.user.id, "editor");
  addMember(t.db, team, viewer.user.id, "viewer");
  const as = (u: { token: string }) => inWorkspace(u.token, team);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Team rivals" }, headers: as(owner) })).json;
  const targets = [];
  for (const [url, label] of [
    [URL_A, "Alpha"],
    [URL_B, "Beta"],
  ])
    targets.push((await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: as(owner) })).json);
  expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: as(owner) })).status).toBe(202);
  await t.services.comparisons.whenIdle();
  const run = (await t.call("GET", `/api/comparisons/${c.id}/runs`, { headers: as(owner) })).json[0];
  const snapshot = (await t.call("GET", `/api/comparisons/${c.id}/snapshots`, { headers: as(owner) })).json[0];
  const page = (await t.call("GET", `/api/targets/${targets[0].id}/pages`, { headers: as(owner) })).json[0];
  expect(
    (await t.call("PUT", `/api/targets/${targets[0].id}/secrets/password`, { body: { value: "hunter2" }, headers: as(owner) })).status,
  ).toBe(204);
  const share = (await t.call("POST", `/api/comparisons/${c.id}/shares`, { body: {}, headers: as(owner) })).json;
  return { t, team, owner, editor, viewer, outsider, as, c, targets, run, snapshot, page, share };
}
type Setup = Awaited<ReturnType<typeof setup>>;

/** Every read of the team's comparison, as [method, path]. */
const reads = (x: Setup): [string, string][] => [
  ["GET", `/api/comparisons/${x.c.id}`],
  ["GET", `/api/comparisons/${x.c.id}/targets`],
  ["GET", `/api/comparisons/${x.c.id}/snapshots`],
  ["GET", `/api/comparisons/${x.c.id}/diffs`],
  ["GET", `/api/comparisons/${x.c.id}/findings`],
  ["GET", `/api/comparisons/${x.c.id}/export?format=json`],
  ["GET", `/api/snapshots/${x.snapshot.id}/screenshot`],
  ["GET", `/api/targets/${x.targets[0].id}/pages`],
  ["GET", `/api/targets/${x.targets[0].id}/secrets`],
  ["GET", `/api/comparisons/${x.c.id}/runs`],
  ["GET", `/api/comparisons/${x.c.id}/runs/${x.run.id}`],
  ["GET", `/api/comparisons/${x.c.id}/shares`],
];

/** Every change to the team's comparison, with a body that would succeed for an editor. */
const writes = (x: Setup): [string, string, unknown?][] => [
  ["POST", "/api/comparisons", { name: "Another" }],
  ["PATCH", `/api/comparisons/${x.c.id}`, { consent: "accept" }],
  ["POST", `/api/comparisons/${x.c.id}/targets`, { url: "http://127.0.0.1:9/gamma", label: "Gamma" }],
  ["POST", `/api/comparisons/${x.c.id}/start`],
  ["POST", `/api/targets/${x.targets[0].id}/pages`, { path: "/pricing", role: "pricing" }],
  ["PATCH", `/api/pages/${x.page.id}`, { path: "/" }],
  ["PUT", `/api/targets/${x.targets[0].id}/secrets/token`, { value: "s3cret" }],
  ["DELETE", `/api/targets/${x.targets[0].id}/secrets/password`],
  ["POST", `/api/targets/${x.targets[0].id}/discover`],
  ["POST", `/api/comparisons/${x.c.id}/shares`, {}],
  ["DELETE", `/api/shares/${x.share.id}`],
  ["DELETE", `/api/targets/${x.targets[1].id}`],
  ["DELETE", `/api/comparisons/${x.c.id}`],
];

describe("comparison routes in a team workspace", () => {
  test("a viewer reads every result of the team's comparison", async () => {
    const x = await setup();
    for (const [method, path] of reads(x)) {
      const r = await x.t.call(method, path, { headers: x.as(x.viewer) });
      expect([path, r.status]).toEqual([path, 200]);
    }
    const list = await x.t.call("GET", "/api/comparisons", { headers: x.as(x.viewer) });
    expect(list.json.map((c: { id: string }) => c.id)).toEqual([x.c.id]);
    // Their own (personal) workspace does not hold it.
    expect((await x.t.call("GET", "/api/comparisons", { headers: x.t.auth(x.viewer.token) })).json).toEqual([]);
    expect((await x.t.call("GET", `/api/comparisons/${x.c.id}`, { headers: x.t.auth(x.viewer.token) })).status).toBe(404);
  });

  test("<img> and download links (session cookie) read in the workspace the member last chose", async () => {
    const x = await setup();
    const links = [`/api/snapshots/${x.snapshot.id}/screenshot`, `/api/comparisons/${x.c.id}/export?format=json`];
    for (const path of links) expect((await x.t.call("GET", path, { headers: { cookie: x.viewer.cookie } })).status).toBe(404);
    x.t.db.run("UPDATE users SET last_workspace_id = ? WHERE id = ?", [x.team, x.viewer.user.id]);
    for (const path of links) expect((await x.t.call("GET", path, { headers: { cookie: x.viewer.cookie } })).status).toBe(200);
    // Chosen by someone who is not a member: their personal workspace, where the team's ids are 404.
    x.t.db.run("UPDATE users SET last_workspace_id = ? WHERE id = ?", [x.team, x.outsider.user.id]);
    for (const path of links) expect((await x.t.call("GET", path, { headers: { cookie: x.outsider.cookie } })).status).toBe(404);
  });

  test("a viewer changes nothing: 403 naming their role and the one it takes", async () => {
    const x = await setup();
    for (const [method, path, body] of writes(x)) {
      const r = await x.t.call(method, path, { body, headers: x.as(x.viewer) });
      expect([method, path, r.status]).toEqual([method, path, 403]);
      expect(r.json.error).toStartWith("Your role in this workspace is viewer; this needs editor");
    }
    expect((await x.t.call("GET", `/api/comparisons/${x.c.id}/runs`, { headers: x.as(x.owner) })).json).toHaveLength(1);
    expect((await x.t.call("GET", `/api/comparisons/${x.c.id}/shares`, { headers: x.as(x.owner) })).json[0].revoked).toBe(false);
  });

  test("an editor makes every change, and the audit log of the workspace names them", async () => {
    const x = await setup();
    const expected: Record<string, number> = { POST: 201, PATCH: 200, PUT: 204, DELETE: 200 };
    for (const [method, path, body] of writes(x)) {
      // Discovery reaches out to the site (nothing listens here): 502, after the role let it through.
      if (path.endsWith("/discover")) {
        expect((await x.t.call(method, path, { headers: x.as(x.editor) })).status).toBe(502);
        continue;
      }
      const r = await x.t.call(method, path, { body, headers: x.as(x.editor) });
      const want = path.endsWith("/start") ? 202 : path.includes("/secrets/") || path.startsWith("/api/shares/") ? 204 : expected[method];
      expect([method, path, r.status, r.status >= 400 ? r.json : null]).toEqual([method, path, want, null]);
      if (path.endsWith("/start")) await x.t.services.comparisons.whenIdle();
    }
    const audit = x.t.db
      .query<{ action: string; actor_id: string | null; target: string | null }, [string]>(
        "SELECT action, actor_id, target FROM audit_log WHERE workspace_id = ? ORDER BY id",
      )
      .all(x.team);
    expect(
      audit.map((e) => [e.action, e.actor_id === x.owner.user.id ? "owner" : e.actor_id === x.editor.user.id ? "editor" : e.actor_id]),
    ).toEqual([
      ["run.started", "owner"],
      ["secret.set", "owner"],
      ["share.created", "owner"],
      ["run.started", "editor"],
      ["secret.set", "editor"],
      ["secret.deleted", "editor"],
      ["share.created", "editor"],
      ["share.revoked", "editor"],
      ["comparison.deleted", "editor"],
    ]);
    expect(audit.at(-1)!.target).toBe(x.c.id);
    // Nothing of it landed in anyone's personal log.
    for (const u of [x.owner, x.editor]) expect(x.t.db.query("SELECT 1 FROM audit_log WHERE workspace_id = ?").all(u.user.id)).toEqual([]);
  });

  test("run.started names the run and its trigger; a scheduled run's entry names no one", async () => {
    const x = await setup();
    await x.t.services.comparisons.start(x.team, x.c.id, "schedule");
    await x.t.services.comparisons.whenIdle();
    const runs = (await x.t.call("GET", `/api/comparisons/${x.c.id}/runs`, { headers: x.as(x.viewer) })).json as { id: string }[];
    const started = x.t.db
      .query<{ actor_id: string | null; actor_email: string | null; target: string; details: string }, [string]>(
        "SELECT actor_id, actor_email, target, details FROM audit_log WHERE workspace_id = ? AND action = 'run.started' ORDER BY id",
      )
      .all(x.team)
      .map((e) => ({ ...e, details: JSON.parse(e.details) }));
    expect(started).toEqual([
      {
        actor_id: x.owner.user.id,
        actor_email: x.owner.email,
        target: x.c.id,
        details: { runId: runs[1]!.id, trigger: "manual", name: "Team rivals" },
      },
      { actor_id: null, actor_email: null, target: x.c.id, details: { runId: runs[0]!.id, trigger: "schedule", name: "Team rivals" } },
    ]);
  });

  test("a share link made by a member names that member; the list shows it to a viewer", async () => {
    const x = await setup();
    const made = await x.t.call("POST", `/api/comparisons/${x.c.id}/shares`, { body: {}, headers: x.as(x.editor) });
    expect(made.status).toBe(201);
    const list = (await x.t.call("GET", `/api/comparisons/${x.c.id}/shares`, { headers: x.as(x.viewer) })).json;
    expect(list.map((s: { createdBy: { id: string } }) => s.createdBy.id)).toEqual([x.editor.user.id, x.owner.user.id]);
    // The link opens signed out, as every link does.
    expect((await x.t.call("GET", `/api/share/${made.json.url.split("/share/")[1]}`)).status).toBe(200);
  });

  test("outside the workspace: naming it is 404; without naming it, the team's ids are 404 in one's own", async () => {
    const x = await setup();
    const named = await x.t.call("GET", "/api/comparisons", { headers: x.as(x.outsider) });
    expect(named.status).toBe(404);
    expect(named.json.error).toBe("Workspace not found");
    for (const [method, path] of reads(x)) {
      const r = await x.t.call(method, path, { headers: x.t.auth(x.outsider.token) });
      expect([path, r.status]).toEqual([path, 404]);
    }
    for (const [method, path, body] of writes(x).filter(([, p]) => p !== "/api/comparisons")) {
      const r = await x.t.call(method, path, { body, headers: x.t.auth(x.outsider.token) });
      expect([method, path, r.status]).toEqual([method, path, 404]);
    }
    // Nothing changed.
    const runs = (await x.t.call("GET", `/api/comparisons/${x.c.id}/runs`, { headers: x.as(x.owner) })).json;
    expect(runs).toHaveLength(1);
    expect((await x.t.call("GET", `/api/targets/${x.targets[0].id}/secrets`, { headers: x.as(x.owner) })).json).toHaveLength(1);
  });

  test("a member's own workspace stays theirs: the team's owner cannot reach it by naming it", async () => {
    const x = await setup();
    const mine = (await x.t.call("POST", "/api/comparisons", { body: { name: "Mine" }, headers: x.t.auth(x.viewer.token) })).json;
    expect((await x.t.call("GET", `/api/comparisons/${mine.id}`, { headers: inWorkspace(x.owner.token, x.viewer.user.id) })).status).toBe(
      404,
    );
    expect((await x.t.call("GET", `/api/comparisons/${mine.id}`, { headers: x.as(x.owner) })).status).toBe(404);
    // In their personal workspace the viewer of the team is its owner, and may do anything.
    expect((await x.t.call("DELETE", `/api/comparisons/${mine.id}`, { headers: x.t.auth(x.viewer.token) })).status).toBe(200);
  });
});
