// Ownership sweep over every route the router knows. Each route with a `:param` is called on a
// row alice (or, for admin-only keys, carol) really owns: strangers get 404 (403 for a non-admin
// on an admin route), then the owner succeeds, proving the id was live. A new id route without a
// fixture below fails on purpose. Every list (GET without params) is read by strangers and
// scanned for any of alice's ids, keys or her marker string.
import { afterAll, describe, expect, test } from "bun:test";
import { deadJob } from "#tests/jobs/support";
import { MARKER, NOT_API, routeKey, sweepWorld, type SweepWorld } from "./sweep-support";

type Who = "anon" | "alice" | "bob" | "carol" | "root";
interface Probe {
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  owner: Who;
  /** The owner's success status. */
  ok: number;
  /** What everyone else gets; bob is an ordinary user, carol and root are admins. */
  strangers: Partial<Record<Who, number>>;
}

const USER_ROW = { bob: 404, root: 404, carol: 404 };
/** Components and tests are visible to admins by design (they oversee the agents' output). */
const AGENT_ROW = { bob: 404, root: 200, carol: 200 };

const FIXTURES: Record<string, (w: SweepWorld) => Promise<Probe> | Probe> = {
  "GET /api/comparisons/:id": (w) => ({ path: `/api/comparisons/${w.ids.comparison}`, owner: "alice", ok: 200, strangers: USER_ROW }),
  "DELETE /api/comparisons/:id": async (w) => ({
    path: `/api/comparisons/${(await w.freshComparison()).id}`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "GET /api/comparisons/:id/targets": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/targets`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "POST /api/comparisons/:id/targets": async (w) => ({
    path: `/api/comparisons/${(await w.freshComparison()).id}/targets`,
    body: { url: "http://127.0.0.1:9/third", label: "Third" },
    owner: "alice",
    ok: 201,
    strangers: USER_ROW,
  }),
  "DELETE /api/targets/:id": async (w) => ({
    path: `/api/targets/${(await w.freshComparison()).targets[0]}`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  // The sweep's targets are on 127.0.0.1:9, where nothing answers: the owner's 502 proves the id was live.
  "POST /api/targets/:id/discover": (w) => ({
    path: `/api/targets/${w.ids.targets[0]}/discover`,
    owner: "alice",
    ok: 502,
    strangers: USER_ROW,
  }),
  "GET /api/targets/:id/pages": (w) => ({
    path: `/api/targets/${w.ids.targets[0]}/pages`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "POST /api/targets/:id/pages": (w) => ({
    path: `/api/targets/${w.ids.targets[0]}/pages`,
    body: { path: `/features-${Math.random().toString(36).slice(2)}`, role: "features" },
    owner: "alice",
    ok: 201,
    strangers: USER_ROW,
  }),
  "PATCH /api/pages/:id": (w) => ({
    path: `/api/pages/${w.ids.page}`,
    body: { role: "features" },
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "DELETE /api/pages/:id": async (w) => ({
    path: `/api/pages/${await w.freshPage()}`,
    owner: "alice",
    ok: 204,
    strangers: USER_ROW,
  }),
  "GET /api/targets/:id/secrets": (w) => ({
    path: `/api/targets/${w.ids.targets[0]}/secrets`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "PUT /api/targets/:id/secrets/:name": (w) => ({
    path: `/api/targets/${w.ids.targets[0]}/secrets/password`,
    body: { value: `pw ${MARKER}` },
    owner: "alice",
    ok: 204,
    strangers: USER_ROW,
  }),
  "DELETE /api/targets/:id/secrets/:name": async (w) => ({
    path: `/api/targets/${w.ids.targets[0]}/secrets/${await w.freshSecret()}`,
    owner: "alice",
    ok: 204,
    strangers: USER_ROW,
  }),
  "POST /api/comparisons/:id/start": async (w) => ({
    path: `/api/comparisons/${(await w.freshComparison()).id}/start`,
    owner: "alice",
    ok: 202,
    strangers: USER_ROW,
  }),
  "GET /api/comparisons/:id/snapshots": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/snapshots`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "GET /api/comparisons/:id/diffs": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/diffs`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "GET /api/comparisons/:id/findings": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/findings`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "GET /api/comparisons/:id/runs": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/runs`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "GET /api/comparisons/:id/changes": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/changes`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "GET /api/comparisons/:id/changes/visual": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/changes/visual?targetId=${w.ids.targets[0]}&viewport=desktop`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "PATCH /api/comparisons/:id": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}`,
    body: { consent: "keep" },
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "PUT /api/comparisons/:id/schedule": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/schedule`,
    body: { cron: "0 9 * * 1", timezone: "Europe/Berlin" },
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "GET /api/comparisons/:id/runs/:runId": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/runs/${w.ids.run}`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "DELETE /api/comparisons/:id/schedule": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/schedule`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "POST /api/comparisons/:id/alerts": async (w) => ({
    path: `/api/comparisons/${(await w.freshComparison()).id}/alerts`,
    body: { channel: "webhook", url: "http://127.0.0.1:9/hook" },
    owner: "alice",
    ok: 201,
    strangers: USER_ROW,
  }),
  "GET /api/comparisons/:id/alerts": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/alerts`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "GET /api/comparisons/:id/alerts/deliveries": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/alerts/deliveries`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "DELETE /api/alerts/:id": async (w) => ({ path: `/api/alerts/${await w.freshAlert()}`, owner: "alice", ok: 200, strangers: USER_ROW }),
  "GET /api/comparisons/:id/filmstrips": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/filmstrips`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "GET /api/snapshots/:id/filmstrip/:frame": (w) => ({
    path: `/api/snapshots/${w.ids.snapshot}/filmstrip/0`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "GET /api/snapshots/:id/screenshot": (w) => ({
    path: `/api/snapshots/${w.ids.snapshot}/screenshot`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "GET /api/comparisons/:id/export": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/export?format=html`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "POST /api/comparisons/:id/shares": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/shares`,
    body: {},
    owner: "alice",
    ok: 201,
    strangers: USER_ROW,
  }),
  "GET /api/comparisons/:id/shares": (w) => ({
    path: `/api/comparisons/${w.ids.comparison}/shares`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "DELETE /api/shares/:id": async (w) => ({
    path: `/api/shares/${(await w.freshShare()).id}`,
    owner: "alice",
    ok: 204,
    strangers: USER_ROW,
  }),
  "GET /api/components/:id": (w) => ({ path: `/api/components/${w.ids.component}`, owner: "alice", ok: 200, strangers: AGENT_ROW }),
  "GET /api/tests/:id": (w) => ({ path: `/api/tests/${w.ids.test}`, owner: "alice", ok: 200, strangers: AGENT_ROW }),
  "POST /api/tests/:id/events": (w) => ({
    path: `/api/tests/${w.ids.test}/events`,
    body: { variant: "A", event: "impression", count: 1 },
    owner: "alice",
    ok: 200,
    // Admins may feed any test; anonymous callers need the test's ingest key.
    strangers: { bob: 404, anon: 401 },
  }),
  // Admin-only rows. Backups and user accounts belong to the installation, not to one admin, so
  // another admin succeeds too; API keys are personal, so another admin gets 404.
  "GET /api/admin/backups/:name": (w) => ({
    path: `/api/admin/backups/${w.ids.backup}`,
    owner: "root",
    ok: 200,
    strangers: { bob: 403, alice: 403, carol: 200 },
  }),
  "PATCH /api/admin/users/:id": (w) => ({
    path: `/api/admin/users/${w.alice.user.id}`,
    body: { disabled: false },
    owner: "root",
    ok: 200,
    strangers: { bob: 403, alice: 403, carol: 200 },
  }),
  "DELETE /api/api-keys/:id": (w) => ({
    path: `/api/api-keys/${w.ids.personalKey}`,
    owner: "alice",
    ok: 200,
    strangers: { bob: 404, carol: 404, root: 404 },
  }),
  "DELETE /api/admin/api-keys/:id": (w) => ({
    path: `/api/admin/api-keys/${w.ids.apiKey}`,
    owner: "carol",
    ok: 200,
    strangers: { bob: 403, alice: 403, root: 404 },
  }),
  // A workspace's keys: its admins and owners manage them; whoever is not a member (site admins too) gets 404.
  "GET /api/workspaces/:id/api-keys": (w) => ({
    path: `/api/workspaces/${w.alice.user.id}/api-keys`,
    owner: "alice",
    ok: 200,
    strangers: { anon: 401, bob: 404, carol: 404, root: 404 },
  }),
  "DELETE /api/workspaces/:id/api-keys/:keyId": async (w) => {
    const r = await w.t.call("POST", "/api/api-keys", { headers: w.h.alice, body: { name: "revoked in the workspace", scope: "read" } });
    return {
      path: `/api/workspaces/${w.alice.user.id}/api-keys/${r.json.id}`,
      owner: "alice",
      ok: 200,
      strangers: { anon: 401, bob: 404, carol: 404, root: 404 },
    };
  },
  // Jobs belong to the installation: any admin retries a dead one; a plain user gets 403.
  "POST /api/admin/jobs/:id/retry": async (w) => ({
    path: `/api/admin/jobs/${await deadJob(w.t.services.jobs)}/retry`,
    owner: "root",
    ok: 200,
    strangers: { bob: 403, alice: 403 },
  }),
  // The console's view of everyone's keys: any admin revokes any key; its owner, a plain user, gets 403 here.
  "DELETE /api/admin/all-api-keys/:id": async (w) => {
    const r = await w.t.call("POST", "/api/api-keys", { headers: w.h.alice, body: { name: "revoked by an admin", scope: "read" } });
    return { path: `/api/admin/all-api-keys/${r.json.id}`, owner: "root", ok: 200, strangers: { bob: 403, alice: 403 } };
  },
  // Workspaces: the path names the workspace; whoever is not a member gets 404.
  "PATCH /api/workspaces/:id": (w) => ({
    path: `/api/workspaces/${w.ids.team}`,
    body: { name: `Team ${MARKER}` },
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "DELETE /api/workspaces/:id": async (w) => ({
    path: `/api/workspaces/${await w.freshTeam()}`,
    owner: "alice",
    ok: 204,
    strangers: USER_ROW,
  }),
  "POST /api/workspaces/:id/owner": async (w) => ({
    path: `/api/workspaces/${await w.freshTeam()}/owner`,
    body: { userId: w.dave.user.id },
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "GET /api/workspaces/:id/members": (w) => ({
    path: `/api/workspaces/${w.ids.team}/members`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "PATCH /api/workspaces/:id/members/:userId": (w) => ({
    path: `/api/workspaces/${w.ids.team}/members/${w.dave.user.id}`,
    body: { role: "editor" },
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "DELETE /api/workspaces/:id/members/:userId": async (w) => ({
    path: `/api/workspaces/${await w.freshTeam()}/members/${w.dave.user.id}`,
    owner: "alice",
    ok: 204,
    strangers: USER_ROW,
  }),
  "POST /api/workspaces/:id/invitations": (w) => ({
    path: `/api/workspaces/${w.ids.team}/invitations`,
    body: { role: "viewer" },
    owner: "alice",
    ok: 201,
    strangers: USER_ROW,
  }),
  "GET /api/workspaces/:id/invitations": (w) => ({
    path: `/api/workspaces/${w.ids.team}/invitations`,
    owner: "alice",
    ok: 200,
    strangers: USER_ROW,
  }),
  "GET /api/workspaces/:id/audit": (w) => ({ path: `/api/workspaces/${w.ids.team}/audit`, owner: "alice", ok: 200, strangers: USER_ROW }),
  "DELETE /api/invitations/:id": async (w) => ({
    path: `/api/invitations/${(await w.freshInvitation()).id}`,
    owner: "alice",
    ok: 204,
    strangers: USER_ROW,
  }),
};

/** Id routes where any caller may succeed, and why. */
const PUBLIC_ID_ROUTES: Record<string, string> = {
  "GET /assets/:name": "the client bundle: public, immutable, holds no user data",
  // tests/api/share.test.ts swaps every other id into these and revokes and expires the links.
  "GET /api/share/:token": "a share link's results: the token in the path is the credential",
  "GET /api/share/:token/screenshots/:snapshotId": "a shared run's screenshot: the token in the path is the credential",
};

/** Routes that also accept the session cookie (for <img> and downloads): strangers' cookies get 404 too. */
const COOKIE_ROUTES = new Set([
  "GET /api/snapshots/:id/screenshot",
  "GET /api/snapshots/:id/filmstrip/:frame",
  "GET /api/comparisons/:id/export",
  "GET /api/comparisons/:id/changes/visual",
]);

describe("ownership sweep", async () => {
  const w = await sweepWorld();
  afterAll(() => w.close());
  const headersOf = (who: Who): Record<string, string> => (who === "anon" ? {} : w.h[who]);
  const all = w.t.app.routes
    .map((r) => ({ method: r.method, path: r.path, key: routeKey(r.method, r.path) }))
    .filter((r) => !NOT_API.has(r.key));
  const idRoutes = all.filter((r) => r.path.includes(":"));
  const lists = all.filter((r) => !r.path.includes(":") && r.method === "GET");

  test("the router exposes the id routes this sweep knows", () => {
    expect(idRoutes.length).toBeGreaterThanOrEqual(17);
    const missing = idRoutes.map((r) => r.key).filter((k) => !FIXTURES[k] && !PUBLIC_ID_ROUTES[k]);
    expect(missing).toEqual([]);
  });

  for (const r of idRoutes) {
    if (PUBLIC_ID_ROUTES[r.key]) continue;
    test(`${r.key}: strangers refused, the owner served`, async () => {
      const fixture = FIXTURES[r.key];
      if (!fixture) throw new Error(`no ownership fixture for ${r.key}`);
      const p = await fixture(w);
      for (const [who, status] of Object.entries(p.strangers) as [Who, number][]) {
        const res = await w.t.call(r.method, p.path, { headers: headersOf(who), body: p.body });
        expect(res.status, `${who} on ${r.key}: ${res.text.slice(0, 200)}`).toBe(status);
        if (status >= 400) {
          expect(res.json?.error, `${who} on ${r.key}`).toBeString();
          for (const s of w.secrets) if (s !== p.path.split("/").pop()) expect(res.text).not.toContain(s);
        }
      }
      if (COOKIE_ROUTES.has(r.key)) {
        const res = await w.t.call(r.method, p.path, { headers: { cookie: w.bob.cookie } });
        expect(res.status, `bob's cookie on ${r.key}`).toBe(404);
      }
      const own = await w.t.call(r.method, p.path, { headers: headersOf(p.owner), body: p.body });
      expect(own.status, `${p.owner} on ${r.key}: ${own.text.slice(0, 200)}`).toBe(p.ok);
      await w.t.services.comparisons.whenIdle();
    });
  }

  test("unknown and malformed ids are 404 for the owner too (no existence oracle)", async () => {
    for (const path of [
      "/api/comparisons/nope",
      "/api/components/nope",
      "/api/tests/nope",
      `/api/snapshots/${encodeURIComponent("../../etc/passwd")}/screenshot`,
    ])
      expect((await w.t.call("GET", path, { headers: w.h.alice })).status).toBe(404);
  });

  test("lists never hand alice's rows to anyone else", async () => {
    expect(lists.length).toBeGreaterThanOrEqual(20);
    const leaks: string[] = [];
    for (const r of lists) {
      for (const who of ["anon", "bob"] as const) {
        const res = await w.t.call("GET", r.path.replace(/(.)\/$/, "$1"), { headers: headersOf(who) });
        for (const s of w.secrets) if (res.text.includes(s)) leaks.push(`${who} ${r.key} (${res.status}) shows ${s}`);
      }
    }
    // Admins oversee users, activity and agent output, but comparisons and API keys stay personal.
    for (const [path, viewer, own] of [
      ["/api/comparisons", "root", [w.ids.comparison, MARKER]],
      ["/api/admin/api-keys", "root", [w.ids.apiKey]],
      ["/api/api-keys", "root", [w.ids.personalKey]],
      ["/api/admin/api-keys", "root", [w.ids.personalKey]],
    ] as const) {
      const res = await w.t.call("GET", path, { headers: headersOf(viewer) });
      expect(res.status).toBe(200);
      for (const s of own) if (res.text.includes(s)) leaks.push(`${viewer} ${path} shows ${s}`);
    }
    expect(leaks).toEqual([]);
    // The scan is only worth something if alice's own lists do show her rows.
    const mine = await w.t.call("GET", "/api/comparisons", { headers: w.h.alice });
    expect(mine.text).toContain(w.ids.comparison);
    expect((await w.t.call("GET", "/api/components?limit=100", { headers: w.h.alice })).text).toContain(w.ids.component);
    expect((await w.t.call("GET", "/api/activity?limit=100", { headers: w.h.alice })).text).toContain(MARKER);
  });

  test("server-rendered pages as bob show none of alice's data", async () => {
    for (const page of [
      "/comparison",
      `/comparison/${w.ids.comparison}`,
      `/comparison/${w.ids.comparison}/view`,
      "/dashboard",
      "/activity",
      "/tests",
      "/generate",
      "/trends",
      "/analytics",
      "/settings",
      "/super-admin",
    ]) {
      const res = await w.t.call("GET", page, { headers: { cookie: w.bob.cookie, accept: "text/html" } });
      expect(res.status, page).toBeLessThan(500);
      for (const s of w.secrets) expect(res.text.includes(s), `${page} shows ${s}`).toBe(false);
    }
    // Control: alice's own render of the same page does carry her data.
    const own = await w.t.call("GET", `/comparison/${w.ids.comparison}/view`, { headers: { cookie: w.alice.cookie, accept: "text/html" } });
    expect(own.text).toContain(MARKER);
  });
});
