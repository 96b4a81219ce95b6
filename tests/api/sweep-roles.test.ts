// Role sweep over every route the router knows, as the teams contract says (docs/teams.md): each
// route is called by six people — the team workspace's owner, admin, editor and viewer, someone who
// is not a member, and the owner of another workspace — and each must get the status the contract
// gives them. Members and the non-member name the team in X-Workspace-Id; the other workspace's
// owner names their own and aims at the team's ids, which must be 404 (nothing crosses workspaces).
// Every answer to the two outsiders is also scanned for the team's ids and marker. A route without
// a rule below fails on purpose: a new route must say who may call it.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sqliteSql } from "#server/db/sql";
import { rmSync } from "node:fs";
import { AgentLoop } from "#server/modules/agents/loop/loop";
import { roleAtLeast, type WorkspaceRole } from "#server/modules/workspaces/model";
import { NOT_API, routeKey, sweepApp } from "./sweep-support";

// Each route's test makes six calls, some on fresh rows: a loaded machine needs more than 5 s.
setDefaultTimeout(60_000);

const MARKER = "team-private-k4v8";
const WHO = ["owner", "admin", "editor", "viewer", "nonMember", "otherOwner"] as const;
type Who = (typeof WHO)[number];
const MEMBERS = ["owner", "admin", "editor", "viewer"] as const;

async function roleWorld() {
  const { t, dataDir } = sweepApp("di-roles-");
  // The installation's admin comes first, so none of the six is one.
  const root = await t.signup();
  const accounts = {} as Record<Who | "extra", Awaited<ReturnType<typeof t.signup>>>;
  for (const who of [...WHO, "extra"] as const) accounts[who] = await t.signup(`${who}-${Math.random().toString(36).slice(2)}@example.com`);
  const bearer = (who: Who | "extra") => t.auth(accounts[who].token);

  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown, want?: number) => {
    const r = await t.call(method, path, { headers, body });
    if (want !== undefined && r.status !== want) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
    return r;
  };

  /** A team workspace of the owner's, with an admin, an editor, a viewer and one more viewer ("extra"). */
  async function newTeam(name = `Team ${MARKER}`) {
    const id = (await call("POST", "/api/workspaces", bearer("owner"), { name }, 201)).json.id as string;
    for (const [who, role] of [
      ["admin", "admin"],
      ["editor", "editor"],
      ["viewer", "viewer"],
      ["extra", "viewer"],
    ] as const) {
      const inv = await call("POST", `/api/workspaces/${id}/invitations`, bearer("owner"), { role }, 201);
      const token = new URL(inv.json.url as string).pathname.split("/").pop()!;
      await call("POST", "/api/invitations/accept", bearer(who), { token }, 200);
    }
    return id;
  }
  const team = await newTeam();
  const other = (await call("POST", "/api/workspaces", bearer("otherOwner"), { name: "Elsewhere" }, 201)).json.id as string;
  /** Who acts where: members and the non-member in the team, the other owner in their own workspace. */
  const headersOf = (who: Who): Record<string, string> => ({ ...bearer(who), "x-workspace-id": who === "otherOwner" ? other : team });
  const inTeam = { ...bearer("owner"), "x-workspace-id": team };

  const mk = async (name: string) => {
    const c = await call("POST", "/api/comparisons", inTeam, { name, description: `${MARKER} notes` }, 201);
    const targets: string[] = [];
    for (const [i, label] of ["Ours", "Theirs"].entries()) {
      const r = await call(
        "POST",
        `/api/comparisons/${c.json.id}/targets`,
        inTeam,
        { url: `http://127.0.0.1:9/${MARKER}/${name.length}-${i}`, label: `${label} ${MARKER}` },
        201,
      );
      targets.push(r.json.id);
    }
    return { id: c.json.id as string, targets };
  };
  const main = await mk(`Run ${MARKER}`);
  for (let i = 0; i < 2; i++) {
    await call("POST", `/api/comparisons/${main.id}/start`, inTeam, undefined, 202);
    await t.services.comparisons.whenIdle();
  }
  // Ids and extra rows are read and made in the database: the sweep is about the routes, and must
  // not depend on the very routes it checks.
  const idsOf = (table: string, where: string, value: string) =>
    t.db.query<{ id: string }, [string]>(`SELECT id FROM ${table} WHERE ${where} = ? ORDER BY rowid`).all(value);
  const snapshots = idsOf("snapshots", "comparison_id", main.id);
  const diffs = idsOf("diffs", "comparison_id", main.id);
  const findings = idsOf("findings", "comparison_id", main.id);
  const runs = idsOf("runs", "comparison_id", main.id);
  if (snapshots.length < 2 || diffs.length < 1) throw new Error("the fake run left no snapshots or diffs");

  // The other workspace has a comparison of its own, so its lists are not empty.
  await call("POST", "/api/comparisons", { ...bearer("otherOwner"), "x-workspace-id": other }, { name: "Theirs" }, 201);

  // The agents turn the team's captures into the team's components and A/B tests.
  const agents = new AgentLoop({ db: sqliteSql(t.db), emit: () => {}, log: () => {} });
  await agents.trendHunter.run();
  await agents.designNinja.run();
  await agents.designNinja.run();
  await agents.testCommander.run();
  const ownedBy = (table: string, owner: string) =>
    t.db
      .query<{ id: string }, [string]>(`SELECT id FROM ${table} WHERE owner_id = ?`)
      .all(owner)
      .map((r) => r.id);
  const components = ownedBy("components", team);
  const experiments = ownedBy("experiments", team);
  if (!components.length || !experiments.length) throw new Error("the agents made nothing of the team's");

  let n = 0;
  const at = () => new Date().toISOString();
  const newAlert = async (comparisonId = main.id) => {
    const id = `alert-${++n}`;
    t.db
      .query(
        "INSERT INTO alert_rules (id, comparison_id, owner_id, channel, destination, min_severity, kinds, created_at) VALUES (?, ?, ?, 'webhook', ?, 'low', '[]', ?)",
      )
      .run(id, comparisonId, team, `http://127.0.0.1:9/${MARKER}`, at());
    return id;
  };
  const newShare = async () => {
    const id = `share-${++n}`;
    t.db
      .query("INSERT INTO share_links (id, comparison_id, run_id, token_hash, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run(id, main.id, runs.at(-1)!.id, `hash-${id}`, accounts.owner.user.id, at());
    return id;
  };
  const newSecret = async () => {
    const name = `spare-${++n}`;
    t.db
      .query("INSERT INTO site_secrets (target_id, name, nonce, ciphertext, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run(main.targets[0]!, name, new Uint8Array(12), new Uint8Array(32), at(), at());
    return name;
  };
  const newPage = async () => {
    const id = `page-${++n}`;
    t.db
      .query(
        "INSERT INTO pages (id, target_id, comparison_id, owner_id, path, role, steps, position, created_at) VALUES (?, ?, ?, ?, ?, 'pricing', '[]', ?, ?)",
      )
      .run(id, main.targets[0]!, main.id, team, `/pricing-${n}`, n, at());
    return id;
  };
  /** An API key of `who`'s in the team. */
  const newKey = async (who: Who = "owner") =>
    (await call("POST", "/api/api-keys", headersOf(who), { name: `key ${MARKER} ${++n}`, scope: "read" }, 201)).json.id as string;
  const newInvitation = async (workspaceId = team) =>
    (await call("POST", `/api/workspaces/${workspaceId}/invitations`, bearer("owner"), { role: "viewer" }, 201)).json as {
      id: string;
      url: string;
    };

  const alert = await newAlert();
  const share = await newShare();
  await newSecret();
  const page = await newPage();
  const key = await newKey();
  const invitation = await newInvitation();

  const ids = {
    team,
    other,
    comparison: main.id,
    targets: main.targets,
    snapshot: snapshots[0]!.id,
    run: runs[0]!.id,
    component: components[0]!,
    test: experiments[0]!,
    alert,
    share,
    page,
    key,
    invitation: invitation.id,
  };
  /** What only the team's members may ever be answered. */
  const secrets = [
    MARKER,
    team,
    main.id,
    ...main.targets,
    ...snapshots.map((s) => s.id),
    ...diffs.map((d) => d.id),
    ...findings.map((f) => f.id),
    ...runs.map((r) => r.id),
    ...components,
    ...experiments,
    alert,
    share,
    page,
    key,
    invitation.id,
    new URL(invitation.url).pathname.split("/").pop()!,
  ];

  return {
    t,
    root,
    accounts,
    ids,
    secrets,
    headersOf,
    freshComparison: () => mk(`Spare ${MARKER}`),
    /** A team like the main one (same members), for routes that change who is in it or delete it. */
    freshTeam: () => newTeam("Spare team"),
    freshAlert: newAlert,
    freshShare: newShare,
    freshSecret: newSecret,
    freshPage: newPage,
    freshKey: newKey,
    freshInvitation: newInvitation,
    async close() {
      await t.services.comparisons.whenIdle();
      await t.services.system.shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
type World = Awaited<ReturnType<typeof roleWorld>>;

type Expected = Record<Who, number>;
interface Probe {
  path: string;
  body?: unknown;
}
interface Rule {
  expect: Expected;
  /** Called once per caller: routes that change or delete get a fresh row each time. */
  probe: (w: World, who: Who) => Promise<Probe> | Probe;
}

/**
 * A route on the team's rows (or the team's workspace in the path): members whose role reaches
 * `need` get `ok`, the others 403; the non-member and the other workspace's owner get 404.
 */
const row = (need: WorkspaceRole, ok: number): Expected => ({
  ...(Object.fromEntries(MEMBERS.map((r) => [r, roleAtLeast(r, need) ? ok : 403])) as Record<(typeof MEMBERS)[number], number>),
  nonMember: 404,
  otherOwner: 404,
});
/** A list or a create in the current workspace: the other owner acts in their own (and must see nothing of the team's). */
const list = (need: WorkspaceRole, ok: number): Expected => ({ ...row(need, ok), otherOwner: ok });
/** Everyone signed in, whatever their workspace (their own account's things, or the installation's). */
const anyone = (ok: number): Expected => Object.fromEntries(WHO.map((w) => [w, ok])) as Expected;
/** The installation's admins only (the super-admin console): none of the six is one. */
const SUPER_ADMIN = anyone(403);

const fixed = (path: string, body?: unknown) => (): Probe => ({ path, body });

const RULES: Record<string, Rule> = {
  // Comparisons and everything under them.
  "GET /api/comparisons": { expect: list("viewer", 200), probe: fixed("/api/comparisons") },
  "POST /api/comparisons": { expect: list("editor", 201), probe: fixed("/api/comparisons", { name: "New" }) },
  "GET /api/comparisons/:id": { expect: row("viewer", 200), probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}` }) },
  "PATCH /api/comparisons/:id": {
    expect: row("editor", 200),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}`, body: { consent: "keep" } }),
  },
  "DELETE /api/comparisons/:id": {
    expect: row("editor", 200),
    probe: async (w) => ({ path: `/api/comparisons/${(await w.freshComparison()).id}` }),
  },
  "GET /api/comparisons/:id/targets": {
    expect: row("viewer", 200),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/targets` }),
  },
  "POST /api/comparisons/:id/targets": {
    expect: row("editor", 201),
    probe: async (w) => ({
      path: `/api/comparisons/${(await w.freshComparison()).id}/targets`,
      body: { url: "http://127.0.0.1:9/third", label: "Third" },
    }),
  },
  "DELETE /api/targets/:id": {
    expect: row("editor", 200),
    probe: async (w) => ({ path: `/api/targets/${(await w.freshComparison()).targets[0]}` }),
  },
  // The sweep's sites never answer: an editor's 502 proves the route ran.
  "POST /api/targets/:id/discover": { expect: row("editor", 502), probe: (w) => ({ path: `/api/targets/${w.ids.targets[0]}/discover` }) },
  "GET /api/targets/:id/pages": { expect: row("viewer", 200), probe: (w) => ({ path: `/api/targets/${w.ids.targets[0]}/pages` }) },
  "POST /api/targets/:id/pages": {
    expect: row("editor", 201),
    probe: (w) => ({
      path: `/api/targets/${w.ids.targets[0]}/pages`,
      body: { path: `/f-${Math.random().toString(36).slice(2)}`, role: "features" },
    }),
  },
  "PATCH /api/pages/:id": { expect: row("editor", 200), probe: (w) => ({ path: `/api/pages/${w.ids.page}`, body: { role: "features" } }) },
  "DELETE /api/pages/:id": { expect: row("editor", 204), probe: async (w) => ({ path: `/api/pages/${await w.freshPage()}` }) },
  "GET /api/targets/:id/secrets": { expect: row("viewer", 200), probe: (w) => ({ path: `/api/targets/${w.ids.targets[0]}/secrets` }) },
  "PUT /api/targets/:id/secrets/:name": {
    expect: row("editor", 204),
    probe: (w) => ({ path: `/api/targets/${w.ids.targets[0]}/secrets/password`, body: { value: `pw ${MARKER}` } }),
  },
  "DELETE /api/targets/:id/secrets/:name": {
    expect: row("editor", 204),
    probe: async (w) => ({ path: `/api/targets/${w.ids.targets[0]}/secrets/${await w.freshSecret()}` }),
  },
  "POST /api/comparisons/:id/start": {
    expect: row("editor", 202),
    probe: async (w) => ({ path: `/api/comparisons/${(await w.freshComparison()).id}/start` }),
  },
  "GET /api/comparisons/:id/snapshots": {
    expect: row("viewer", 200),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/snapshots` }),
  },
  "GET /api/comparisons/:id/diffs": { expect: row("viewer", 200), probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/diffs` }) },
  "GET /api/comparisons/:id/findings": {
    expect: row("viewer", 200),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/findings` }),
  },
  "GET /api/comparisons/:id/runs": { expect: row("viewer", 200), probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/runs` }) },
  "GET /api/comparisons/:id/runs/:runId": {
    expect: row("viewer", 200),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/runs/${w.ids.run}` }),
  },
  "GET /api/comparisons/:id/changes": {
    expect: row("viewer", 200),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/changes` }),
  },
  "GET /api/comparisons/:id/changes/visual": {
    expect: row("viewer", 200),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/changes/visual?targetId=${w.ids.targets[0]}&viewport=desktop` }),
  },
  "GET /api/comparisons/:id/filmstrips": {
    expect: row("viewer", 200),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/filmstrips` }),
  },
  "GET /api/snapshots/:id/filmstrip/:frame": {
    expect: row("viewer", 200),
    probe: (w) => ({ path: `/api/snapshots/${w.ids.snapshot}/filmstrip/0` }),
  },
  "GET /api/snapshots/:id/screenshot": {
    expect: row("viewer", 200),
    probe: (w) => ({ path: `/api/snapshots/${w.ids.snapshot}/screenshot` }),
  },
  "GET /api/comparisons/:id/export": {
    expect: row("viewer", 200),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/export?format=html` }),
  },
  // Schedules and alerts: editors manage them, viewers read them.
  "PUT /api/comparisons/:id/schedule": {
    expect: row("editor", 200),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/schedule`, body: { cron: "0 9 * * 1", timezone: "Europe/Berlin" } }),
  },
  "DELETE /api/comparisons/:id/schedule": {
    expect: row("editor", 200),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/schedule` }),
  },
  "POST /api/comparisons/:id/alerts": {
    expect: row("editor", 201),
    probe: async (w) => ({
      path: `/api/comparisons/${(await w.freshComparison()).id}/alerts`,
      body: { channel: "webhook", url: "http://127.0.0.1:9/hook" },
    }),
  },
  "GET /api/comparisons/:id/alerts": {
    expect: row("viewer", 200),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/alerts` }),
  },
  "GET /api/comparisons/:id/alerts/deliveries": {
    expect: row("viewer", 200),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/alerts/deliveries` }),
  },
  "DELETE /api/alerts/:id": { expect: row("editor", 200), probe: async (w) => ({ path: `/api/alerts/${await w.freshAlert()}` }) },
  // Share links: editors make and revoke them.
  "POST /api/comparisons/:id/shares": {
    expect: row("editor", 201),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/shares`, body: {} }),
  },
  "GET /api/comparisons/:id/shares": {
    expect: row("viewer", 200),
    probe: (w) => ({ path: `/api/comparisons/${w.ids.comparison}/shares` }),
  },
  "DELETE /api/shares/:id": { expect: row("editor", 204), probe: async (w) => ({ path: `/api/shares/${await w.freshShare()}` }) },
  // The agents' output, per workspace.
  "GET /api/components": { expect: list("viewer", 200), probe: fixed("/api/components?limit=100") },
  "GET /api/components/:id": { expect: row("viewer", 200), probe: (w) => ({ path: `/api/components/${w.ids.component}` }) },
  "GET /api/tests": { expect: list("viewer", 200), probe: fixed("/api/tests?limit=100") },
  "GET /api/tests/:id": { expect: row("viewer", 200), probe: (w) => ({ path: `/api/tests/${w.ids.test}` }) },
  "POST /api/tests/:id/events": {
    expect: row("editor", 200),
    probe: (w) => ({ path: `/api/tests/${w.ids.test}/events`, body: { variant: "A", event: "impression", count: 1 } }),
  },
  "GET /api/trends": { expect: list("viewer", 200), probe: fixed("/api/trends") },
  "GET /api/metrics": { expect: list("viewer", 200), probe: fixed("/api/metrics") },
  "GET /api/analytics": { expect: list("viewer", 200), probe: fixed("/api/analytics") },
  "GET /api/activity": { expect: list("viewer", 200), probe: fixed("/api/activity?limit=100") },
  // The installation's agents: everyone reads their state; only the installation's admins steer them.
  // (Read in the request's workspace like every other screen: naming one that is not yours is 404.)
  "GET /api/agents": { expect: list("viewer", 200), probe: fixed("/api/agents") },
  "GET /api/trends/settings": { expect: list("viewer", 200), probe: fixed("/api/trends/settings") },
  "PUT /api/trends/settings": { expect: SUPER_ADMIN, probe: fixed("/api/trends/settings", {}) },
  "GET /api/system/status": { expect: anyone(200), probe: fixed("/api/system/status") },
  "POST /api/system/start": { expect: SUPER_ADMIN, probe: fixed("/api/system/start") },
  "POST /api/system/stop": { expect: SUPER_ADMIN, probe: fixed("/api/system/stop") },
  "POST /api/system/restart": { expect: SUPER_ADMIN, probe: fixed("/api/system/restart") },
  // Your own API keys, in the current workspace; the workspace's keys are managed by its admins.
  "GET /api/api-keys": { expect: list("viewer", 200), probe: fixed("/api/api-keys") },
  "POST /api/api-keys": { expect: list("viewer", 201), probe: fixed("/api/api-keys", { name: "mine", scope: "read" }) },
  "DELETE /api/api-keys/:id": {
    expect: { owner: 200, admin: 404, editor: 404, viewer: 404, nonMember: 404, otherOwner: 404 },
    probe: async (w) => ({ path: `/api/api-keys/${await w.freshKey()}` }),
  },
  "GET /api/workspaces/:id/api-keys": { expect: row("admin", 200), probe: (w) => ({ path: `/api/workspaces/${w.ids.team}/api-keys` }) },
  "DELETE /api/workspaces/:id/api-keys/:keyId": {
    expect: row("admin", 200),
    probe: async (w) => ({ path: `/api/workspaces/${w.ids.team}/api-keys/${await w.freshKey("editor")}` }),
  },
  // Personal settings: each account's own, set from within a workspace (any role).
  "GET /api/watch/digest": { expect: list("viewer", 200), probe: fixed("/api/watch/digest") },
  "PUT /api/watch/digest": { expect: list("viewer", 200), probe: fixed("/api/watch/digest", { frequency: "off" }) },
  "GET /api/auth/me": { expect: anyone(200), probe: fixed("/api/auth/me") },
  // Workspaces: the path names the workspace.
  "GET /api/workspaces": { expect: anyone(200), probe: fixed("/api/workspaces") },
  "POST /api/workspaces": { expect: anyone(201), probe: fixed("/api/workspaces", { name: "Another" }) },
  "PUT /api/me/workspace": {
    expect: { ...row("viewer", 200) },
    probe: (w) => ({ path: "/api/me/workspace", body: { id: w.ids.team } }),
  },
  "PATCH /api/workspaces/:id": {
    expect: row("owner", 200),
    probe: (w) => ({ path: `/api/workspaces/${w.ids.team}`, body: { name: `Team ${MARKER}` } }),
  },
  "DELETE /api/workspaces/:id": { expect: row("owner", 204), probe: async (w) => ({ path: `/api/workspaces/${await w.freshTeam()}` }) },
  "POST /api/workspaces/:id/owner": {
    expect: row("owner", 200),
    probe: async (w) => ({ path: `/api/workspaces/${await w.freshTeam()}/owner`, body: { userId: w.accounts.extra.user.id } }),
  },
  "GET /api/workspaces/:id/members": { expect: row("viewer", 200), probe: (w) => ({ path: `/api/workspaces/${w.ids.team}/members` }) },
  "PATCH /api/workspaces/:id/members/:userId": {
    expect: row("admin", 200),
    probe: (w) => ({ path: `/api/workspaces/${w.ids.team}/members/${w.accounts.extra.user.id}`, body: { role: "viewer" } }),
  },
  "DELETE /api/workspaces/:id/members/:userId": {
    expect: row("admin", 204),
    probe: async (w) => ({ path: `/api/workspaces/${await w.freshTeam()}/members/${w.accounts.extra.user.id}` }),
  },
  "POST /api/workspaces/:id/invitations": {
    expect: row("admin", 201),
    probe: (w) => ({ path: `/api/workspaces/${w.ids.team}/invitations`, body: { role: "viewer" } }),
  },
  "GET /api/workspaces/:id/invitations": {
    expect: row("admin", 200),
    probe: (w) => ({ path: `/api/workspaces/${w.ids.team}/invitations` }),
  },
  "GET /api/workspaces/:id/audit": { expect: row("admin", 200), probe: (w) => ({ path: `/api/workspaces/${w.ids.team}/audit` }) },
  "DELETE /api/invitations/:id": {
    expect: row("admin", 204),
    probe: async (w) => ({ path: `/api/invitations/${(await w.freshInvitation()).id}` }),
  },
  // Members already belong (409); anyone else joins (a spare team, so the outsiders stay outside the main one).
  "POST /api/invitations/accept": {
    expect: { owner: 409, admin: 409, editor: 409, viewer: 409, nonMember: 200, otherOwner: 200 },
    probe: async (w) => {
      const invitation = await w.freshInvitation(await w.freshTeam());
      return { path: "/api/invitations/accept", body: { token: new URL(invitation.url).pathname.split("/").pop() } };
    },
  },
  // The super-admin console.
  "GET /api/admin/sso-newcomers": { expect: SUPER_ADMIN, probe: fixed("/api/admin/sso-newcomers") },
  "PUT /api/admin/sso-newcomers": {
    expect: SUPER_ADMIN,
    probe: (w) => ({ path: "/api/admin/sso-newcomers", body: { workspaceId: w.ids.team, role: "viewer" } }),
  },
};

/** Routes outside the roles, and why. */
const OUTSIDE: Record<string, string> = {
  "GET /api/health": "the process answers; no data",
  "GET /api/health/live": "liveness; no data",
  "GET /api/health/ready": "readiness; no data",
  "GET /api/maintenance": "public: whether the app shows its maintenance screen",
  "GET /api/openapi.json": "the API's description",
  "GET /api/docs": "the API reference page",
  "GET /api/docs/scalar.js": "the reference page's script",
  "POST /api/auth/signup": "makes an account (tests/api/auth.test.ts)",
  "POST /api/auth/login": "signs in (tests/api/auth.test.ts)",
  "POST /api/auth/refresh": "the session cookie's own (tests/api/auth.test.ts)",
  "POST /api/auth/logout": "ends the caller's own session",
  "GET /api/auth/oidc/start": "single sign-on (tests/api/oidc.test.ts)",
  "GET /api/auth/oidc/callback": "single sign-on (tests/api/oidc.test.ts)",
  "POST /api/beta-signups": "the public waitlist",
  "GET /api/share/:token": "a share link: the token is the credential (tests/api/share.test.ts)",
  "GET /api/share/:token/screenshots/:snapshotId": "a share link: the token is the credential (tests/api/share.test.ts)",
  "GET /assets/:name": "the client bundle",
};
const isSuperAdminRoute = (key: string) => key.split(" ")[1]!.startsWith("/api/admin/") && !RULES[key];

describe("role sweep", async () => {
  const w = await roleWorld();
  afterAll(() => w.close());
  const routes = w.t.app.routes
    .map((r) => ({ method: r.method, path: r.path, key: routeKey(r.method, r.path) }))
    .filter((r) => !NOT_API.has(r.key) && !OUTSIDE[r.key]);

  test("every route has a rule (a new route must say who may call it)", () => {
    expect(routes.length).toBeGreaterThanOrEqual(90);
    expect(routes.map((r) => r.key).filter((k) => !RULES[k] && !isSuperAdminRoute(k))).toEqual([]);
  });

  for (const r of routes) {
    test(`${r.key}: owner, admin, editor, viewer, non-member, another workspace's owner`, async () => {
      const rule: Rule = RULES[r.key] ?? {
        expect: SUPER_ADMIN,
        probe: () => ({ path: r.path.replace(/:\w+/g, "x"), body: {} }),
      };
      const wrong: string[] = [];
      for (const who of WHO) {
        const p = await rule.probe(w, who);
        const res = await w.t.call(r.method, p.path, { headers: w.headersOf(who), body: p.body });
        if (res.status !== rule.expect[who]) wrong.push(`${who}: ${res.status} (wanted ${rule.expect[who]}) ${res.text.slice(0, 160)}`);
        if (res.status >= 400 && typeof res.json?.error !== "string") wrong.push(`${who}: ${res.status} without { error }`);
        if (who === "nonMember" || who === "otherOwner") {
          const named = new Set(p.path.split(/[/?&=]/));
          for (const s of w.secrets) if (!named.has(s) && res.text.includes(s)) wrong.push(`${who} was answered ${s}`);
        }
        await w.t.services.comparisons.whenIdle();
      }
      expect(wrong).toEqual([]);
    });
  }

  test("a viewer is refused start, delete and schedule with the reason; an editor is not", async () => {
    const c = w.ids.comparison;
    for (const [method, path, body] of [
      ["POST", `/api/comparisons/${c}/start`, undefined],
      ["DELETE", `/api/comparisons/${c}`, undefined],
      ["PUT", `/api/comparisons/${c}/schedule`, { cron: "0 9 * * 1", timezone: "UTC" }],
    ] as const) {
      const res = await w.t.call(method, path, { headers: w.headersOf("viewer"), body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json.error).toBe(
        "Your role in this workspace is viewer; this needs editor (create, edit, run, schedule and delete comparisons)",
      );
    }
  });

  test("a member acting in their personal workspace does not reach the team's rows by id", async () => {
    for (const path of [
      `/api/comparisons/${w.ids.comparison}`,
      `/api/snapshots/${w.ids.snapshot}/screenshot`,
      `/api/comparisons/${w.ids.comparison}/runs/${w.ids.run}`,
      `/api/components/${w.ids.component}`,
    ]) {
      const res = await w.t.call("GET", path, {
        headers: { ...w.t.auth(w.accounts.editor.token), "x-workspace-id": w.accounts.editor.user.id },
      });
      expect(res.status, path).toBe(404);
    }
  });
});
