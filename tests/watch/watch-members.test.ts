// The watch in a team workspace: schedules and alert rules are the workspace's (editors change
// them, viewers read them, outsiders get 404), a members alert reaches exactly the members who
// receive alerts (a real SMTP conversation on loopback), each member opts in or out for
// themselves, and a digest covers every workspace whose alerts its reader receives.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import type { Change } from "#server/modules/changes/model";
import { newId } from "#server/lib/ids";
import { makeTestApp } from "#tests/support/app";
import { mailText, startMailbox } from "#tests/support/mailbox";

const mailbox = await startMailbox();
const { mails } = mailbox;
afterAll(() => mailbox.close());
beforeEach(() => {
  mails.length = 0;
});

type App = ReturnType<typeof makeTestApp>;
type Role = "owner" | "admin" | "editor" | "viewer";

/** A team workspace with its members, written directly (the workspaces module's routes make them in the product). */
function team(t: App, name: string, members: [userId: string, role: Role][]): string {
  const id = newId();
  t.db.query("INSERT INTO workspaces (id, name) VALUES (?, ?)").run(id, name);
  for (const [userId, role] of members)
    t.db.query("INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, ?)").run(id, userId, role);
  return id;
}

const change = (over: Partial<Change> = {}): Change => ({
  kind: "cta",
  severity: "high",
  viewport: "desktop",
  summary: 'Primary CTA text "Start free" → "Book a demo"',
  before: "Start free",
  after: "Book a demo",
  evidence: {},
  ...over,
});

async function world() {
  let now = Date.parse("2026-03-02T06:00:00.000Z"); // Monday
  const t = makeTestApp({ env: { ALLOW_PRIVATE_TARGETS: "1", SMTP_URL: mailbox.url }, now: () => now });
  const owner = await t.signup("owner@example.com");
  const editor = await t.signup("editor@example.com");
  const viewer = await t.signup("viewer@example.com");
  const quiet = await t.signup("quiet@example.com");
  const outsider = await t.signup("outsider@example.com");
  const ws = team(t, "Growth team", [
    [owner.user.id, "owner"],
    [editor.user.id, "editor"],
    [viewer.user.id, "viewer"],
    [quiet.user.id, "viewer"],
  ]);
  const inTeam = (u: { token: string }) => ({ ...t.auth(u.token), "x-workspace-id": ws });
  /** A member's own choice on their member entry: no alerts or digest from this workspace. */
  const optOut = (u: { token: string; user: { id: string } }) =>
    t.call("PATCH", `/api/workspaces/${ws}/members/${u.user.id}`, { headers: t.auth(u.token), body: { alerts: false } });
  const c = (await t.call("POST", "/api/comparisons", { headers: inTeam(editor), body: { name: "Team rivals" } })).json;
  expect(c.id).toBeString();
  return { t, owner, editor, viewer, quiet, outsider, ws, inTeam, optOut, c, at: (iso: string) => (now = Date.parse(iso)) };
}

describe("the watch in a team workspace", () => {
  test("editors schedule and make alert rules; viewers read them and are refused changes with the reason; outsiders get 404", async () => {
    const { t, editor, viewer, outsider, inTeam, ws, c } = await world();
    const schedule = { cron: "0 9 * * *", timezone: "UTC" };
    const refused = await t.call("PUT", `/api/comparisons/${c.id}/schedule`, { headers: inTeam(viewer), body: schedule });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe(
      "Your role in this workspace is viewer; this needs editor (create, edit, run, schedule and delete comparisons)",
    );
    expect((await t.call("PUT", `/api/comparisons/${c.id}/schedule`, { headers: inTeam(editor), body: schedule })).status).toBe(200);
    expect((await t.call("DELETE", `/api/comparisons/${c.id}/schedule`, { headers: inTeam(viewer) })).status).toBe(403);

    const rule = await t.call("POST", `/api/comparisons/${c.id}/alerts`, { headers: inTeam(editor), body: { channel: "members" } });
    expect(rule.status).toBe(201);
    expect(rule.json).toMatchObject({ comparisonId: c.id, channel: "members", url: null, email: null, minSeverity: "low" });
    expect(
      (await t.call("POST", `/api/comparisons/${c.id}/alerts`, { headers: inTeam(viewer), body: { channel: "members" } })).status,
    ).toBe(403);
    expect((await t.call("GET", `/api/comparisons/${c.id}/alerts`, { headers: inTeam(viewer) })).json).toEqual([rule.json]);
    expect((await t.call("GET", `/api/comparisons/${c.id}/alerts/deliveries`, { headers: inTeam(viewer) })).status).toBe(200);
    expect((await t.call("DELETE", `/api/alerts/${rule.json.id}`, { headers: inTeam(viewer) })).status).toBe(403);

    // Not a member: the workspace is not found; in their own workspace the team's ids are not found either.
    for (const [method, path] of [
      ["GET", `/api/comparisons/${c.id}/alerts`],
      ["GET", `/api/comparisons/${c.id}/alerts/deliveries`],
      ["DELETE", `/api/alerts/${rule.json.id}`],
      ["DELETE", `/api/comparisons/${c.id}/schedule`],
    ] as const) {
      const named = await t.call(method, path, { headers: { ...t.auth(outsider.token), "x-workspace-id": ws } });
      expect(named.status, `${method} ${path}`).toBe(404);
      expect(named.json.error).toBe("Workspace not found");
      expect((await t.call(method, path, { headers: t.auth(outsider.token) })).status, `${method} ${path}`).toBe(404);
    }
    expect((await t.call("PUT", `/api/comparisons/${c.id}/schedule`, { headers: t.auth(outsider.token), body: schedule })).json.error).toBe(
      "Comparison not found",
    );
    expect(
      (
        await t.call("PATCH", `/api/workspaces/${ws}/members/${outsider.user.id}`, {
          headers: t.auth(outsider.token),
          body: { alerts: false },
        })
      ).status,
    ).toBe(404);

    // The editor deletes the rule; it is gone for everyone.
    expect((await t.call("DELETE", `/api/alerts/${rule.json.id}`, { headers: inTeam(editor) })).status).toBe(200);
    expect((await t.call("GET", `/api/comparisons/${c.id}/alerts`, { headers: inTeam(viewer) })).json).toEqual([]);
  });

  test("a members alert reaches the members who receive alerts: an opted-in viewer gets it, one who opted out does not", async () => {
    const { t, owner, editor, viewer, quiet, inTeam, c, ws, optOut } = await world();
    // Everyone receives alerts until they opt out; the quiet viewer does, for this workspace only.
    const alertsOf = async (workspace: string, who: typeof quiet) =>
      (
        (await t.call("GET", `/api/workspaces/${workspace}/members`, { headers: t.auth(who.token) })).json as {
          userId: string;
          alerts: boolean;
        }[]
      ).find((m) => m.userId === who.user.id)?.alerts;
    expect(await alertsOf(ws, quiet)).toBe(true);
    const off = await optOut(quiet);
    expect(off.status).toBe(200);
    expect(await alertsOf(ws, quiet)).toBe(false);
    // Only for this workspace: their personal one still sends to them.
    expect(await alertsOf(quiet.user.id, quiet)).toBe(true);
    expect(
      (await t.call("PATCH", `/api/workspaces/${ws}/members/${quiet.user.id}`, { headers: t.auth(quiet.token), body: { alerts: "no" } }))
        .status,
    ).toBe(400);

    const rule = (await t.call("POST", `/api/comparisons/${c.id}/alerts`, { headers: inTeam(editor), body: { channel: "members" } })).json;
    const results = await t.services.watch.dispatchRunChanges({
      ownerId: ws,
      comparisonId: c.id,
      runId: "run-2",
      fromRunId: "run-1",
      targets: [{ targetId: "t1", label: "Orbit", url: "http://127.0.0.1:9/orbit", changes: [change()] }],
    });
    expect(results).toEqual([{ alertId: rule.id, status: "sent", attempts: 1, lastError: null }]);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to.sort()).toEqual([owner.email, editor.email, viewer.email].sort());
    expect(mails[0]!.to).not.toContain(quiet.email);
    const text = mailText(mails[0]!.data);
    expect(text).toContain("Design Intel: 1 change in “Team rivals”");
    expect(text).toContain("before: Start free");

    // Viewers see the delivery in the log.
    const log = await t.call("GET", `/api/comparisons/${c.id}/alerts/deliveries`, { headers: inTeam(viewer) });
    expect(log.json).toEqual([expect.objectContaining({ alertId: rule.id, runId: "run-2", status: "sent", attempts: 1 })]);

    // Members are read at each delivery: once nobody receives alerts, the delivery says so and nothing is sent.
    for (const u of [owner, editor, viewer]) expect((await optOut(u)).status).toBe(200);
    mails.length = 0;
    const none = await t.services.watch.dispatchRunChanges({
      ownerId: ws,
      comparisonId: c.id,
      runId: "run-3",
      targets: [{ targetId: "t1", label: "Orbit", url: "http://127.0.0.1:9/orbit", changes: [change()] }],
    });
    expect(none).toEqual([{ alertId: rule.id, status: "skipped", attempts: 0, lastError: "No member of the workspace receives alerts" }]);
    expect(mails).toHaveLength(0);
    const latest = (await t.call("GET", `/api/comparisons/${c.id}/alerts/deliveries`, { headers: inTeam(viewer) })).json[0];
    expect(latest).toMatchObject({ runId: "run-3", status: "failed", lastError: "No member of the workspace receives alerts" });
  });

  test("a members rule needs SMTP_URL like any e-mail rule", async () => {
    const t = makeTestApp({ env: { ALLOW_PRIVATE_TARGETS: "1" } });
    const u = await t.signup();
    const c = (await t.call("POST", "/api/comparisons", { headers: t.auth(u.token), body: { name: "x" } })).json;
    const r = await t.call("POST", `/api/comparisons/${c.id}/alerts`, { headers: t.auth(u.token), body: { channel: "members" } });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("E-mail alerts are not available: this server has no SMTP_URL configured");
  });

  test("a digest covers every workspace whose alerts its reader receives, and names each comparison's workspace", async () => {
    const { t, editor, viewer, quiet, inTeam, c, at, optOut } = await world();
    const daily = { frequency: "daily", timezone: "UTC" };
    expect(
      (await t.call("PUT", `/api/comparisons/${c.id}/schedule`, { headers: inTeam(editor), body: { cron: "0 9 * * *", timezone: "UTC" } }))
        .status,
    ).toBe(200);
    // The viewer also watches a comparison of their own.
    const own = (await t.call("POST", "/api/comparisons", { headers: t.auth(viewer.token), body: { name: "My own pick" } })).json;
    await t.call("PUT", `/api/comparisons/${own.id}/schedule`, {
      headers: t.auth(viewer.token),
      body: { cron: "0 9 * * *", timezone: "UTC" },
    });
    for (const u of [viewer, quiet])
      expect((await t.call("PUT", "/api/watch/digest", { headers: t.auth(u.token), body: daily })).status).toBe(200);
    await optOut(quiet);

    at("2026-03-02T08:00:01.000Z");
    const outcomes = await t.services.watch.digest.tick();
    // The quiet viewer opted out of the team and watches nothing of their own: no e-mail.
    expect(outcomes.sort((a, b) => a.userId.localeCompare(b.userId))).toEqual(
      [
        { userId: viewer.user.id, status: "sent" as const },
        { userId: quiet.user.id, status: "nothing-watched" as const },
      ].sort((a, b) => a.userId.localeCompare(b.userId)),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual([viewer.email]);
    const text = mailText(mails[0]!.data);
    expect(text).toContain("2 watched comparisons");
    expect(text).toContain("Team rivals (Growth team)");
    expect(text).toContain("My own pick (Personal)");
  });
});
