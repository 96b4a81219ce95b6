// Activity and agent output in a team workspace: entries and components built from the team's
// captures are its members' (in that workspace, not in their personal one), not an outsider's;
// sending an A/B test's events takes an editor; live agent messages reach the members' sockets.
import { describe, expect, test } from "bun:test";
import { LiveHub, type LiveSocket } from "#server/live/hub";
import { DEFAULT_TOKENS } from "#server/modules/agents/logic/design-tokens";
import { audienceFor } from "#server/modules/agents/loop/context";
import { makeTestApp } from "#tests/support/app";
import { addMember, inWorkspace, makeTeam } from "#tests/support/workspaces";

async function world() {
  const t = makeTestApp();
  await t.signup("root@example.com"); // the installation's admin oversees all; the others are plain users
  const owner = await t.signup();
  const editor = await t.signup();
  const viewer = await t.signup();
  const outsider = await t.signup();
  const ws = makeTeam(t.db, owner.user.id, "Growth team");
  addMember(t.db, ws, editor.user.id, "editor");
  addMember(t.db, ws, viewer.user.id, "viewer");
  return { t, owner, editor, viewer, outsider, ws };
}

const FEATURES = { ctaContrast: 4.5, ctaSolid: 1, ctaPaddingPx: 12, radiusPx: 8, spaceUnitPx: 8, centered: 1, emphasis: 0 };

const messages = (r: { json: { message: string }[] }) => r.json.map((e) => e.message);

describe("activity and agent output in a team workspace", () => {
  test("the team's activity is its members', in the team workspace only", async () => {
    const { t, viewer, outsider, ws } = await world();
    await t.services.activity.record({ type: "comparison", status: "success", message: "team run finished", userId: ws });
    await t.services.activity.record({ type: "comparison", status: "success", message: "viewer's own run", userId: viewer.user.id });
    await t.services.activity.record({ type: "system", status: "info", message: "shared note" });

    const inTeam = await t.call("GET", "/api/activity?limit=50", { headers: inWorkspace(viewer.token, ws) });
    expect(messages(inTeam)).toEqual(["shared note", "team run finished"]);
    expect(messages(await t.call("GET", "/api/activity?limit=50", { headers: t.auth(viewer.token) }))).toEqual([
      "shared note",
      "viewer's own run",
    ]);
    expect(messages(await t.call("GET", "/api/activity?limit=50", { headers: t.auth(outsider.token) }))).toEqual(["shared note"]);
    const named = await t.call("GET", "/api/activity?limit=50", { headers: inWorkspace(outsider.token, ws) });
    expect(named.status).toBe(404);
    expect(named.json.error).toBe("Workspace not found");
  });

  test("a component and an A/B test built from the team's captures: members read them; events need an editor", async () => {
    const { t, owner, editor, viewer, outsider, ws } = await world();
    const at = new Date().toISOString();
    t.db
      .query(
        `INSERT INTO components (id, kind, variant, style, name, file_name, source_label, source_key, owner_id, tokens, features, code, preview_html, compiled, created_at)
         VALUES ('k-team', 'hero', 'A', 'minimal', 'Team hero', 'TeamHero.tsx', 'orbit.test', 'orbit.test', ?, ?, ?, 'x', '<div></div>', 1, ?)`,
      )
      .run(ws, JSON.stringify(DEFAULT_TOKENS), JSON.stringify(FEATURES), at);
    t.db
      .query(
        `INSERT INTO experiments (id, name, kind, source_key, source_label, owner_id, ingest_key, planned_per_variant, alpha, sim_seed, started_at)
         VALUES ('x-team', 'Team hero test', 'hero', 'orbit.test', 'orbit.test', ?, 'ingest-secret', 100, 0.05, 1, ?)`,
      )
      .run(ws, at);
    for (const label of ["A", "B"])
      t.db
        .query("INSERT INTO experiment_variants (id, experiment_id, label, name) VALUES (?, 'x-team', ?, ?)")
        .run(`v-${label}`, label, `Variant ${label}`);

    const comp = await t.call("GET", "/api/components/k-team", { headers: inWorkspace(viewer.token, ws) });
    expect(comp.status, comp.text).toBe(200);
    expect((await t.call("GET", "/api/components?limit=10", { headers: inWorkspace(viewer.token, ws) })).text).toContain("k-team");
    expect((await t.call("GET", "/api/components/k-team", { headers: t.auth(viewer.token) })).status).toBe(404);
    expect((await t.call("GET", "/api/components/k-team", { headers: t.auth(outsider.token) })).status).toBe(404);
    expect((await t.call("GET", "/api/components?limit=10", { headers: t.auth(outsider.token) })).text).not.toContain("k-team");

    const event = { variant: "A", event: "impression", count: 3 };
    const asViewer = await t.call("POST", "/api/tests/x-team/events", { headers: inWorkspace(viewer.token, ws), body: event });
    expect(asViewer.status).toBe(403);
    expect(asViewer.json.error).toBe("Only an editor of the test's workspace or an admin can send its events");
    expect((await t.call("POST", "/api/tests/x-team/events", { headers: t.auth(outsider.token), body: event })).status).toBe(404);
    expect((await t.call("POST", "/api/tests/x-team/events", { headers: inWorkspace(outsider.token, ws), body: event })).status).toBe(404);
    for (const u of [editor, owner])
      expect((await t.call("POST", "/api/tests/x-team/events", { headers: inWorkspace(u.token, ws), body: event })).status).toBe(200);
    // The viewer reads the test, but its ingest key is for those who may send events.
    const read = await t.call("GET", "/api/tests/x-team", { headers: inWorkspace(viewer.token, ws) });
    expect(read.status).toBe(200);
    expect(read.text).toContain("Team hero test");
  });

  test("agent output built from a workspace's captures reaches its members' sockets and admins, no one else", () => {
    const members: Record<string, string[]> = { team: ["u-owner", "u-viewer"] };
    const hub = new LiveHub({ membersOf: (id) => members[id] ?? [id] });
    const got: Record<string, string[]> = {};
    const socket = (userId: string, role: "user" | "admin" = "user"): LiveSocket => ({
      userId,
      role,
      send: (data: string) => (got[userId] ??= []).push((JSON.parse(data) as { type: string }).type),
      close: () => {},
    });
    for (const s of [socket("u-owner"), socket("u-viewer"), socket("u-outsider"), socket("u-root", "admin")]) hub.add(s);
    hub.publish({ type: "COMPONENT_GENERATED", payload: { id: "k" }, agentId: "design-ninja" }, audienceFor("team"));
    expect(Object.keys(got).sort()).toEqual(["u-owner", "u-root", "u-viewer"]);
    hub.publish({ type: "COMPONENT_GENERATED", payload: { id: "k2" }, agentId: "design-ninja" }, audienceFor(null));
    expect(got["u-outsider"]).toEqual(["COMPONENT_GENERATED"]);
  });
});
