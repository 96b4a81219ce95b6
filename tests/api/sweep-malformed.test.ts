// Hostile input on every registered route, read from the router: malformed JSON, wrong types,
// missing fields, huge strings under 1 MB, a body over 1 MB, odd content types, bad ids and bad
// query parameters, each as an anonymous caller, the owning user and an admin. No answer may be a
// 500, and every error must be JSON `{ error }`.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { SERVER_START_MS, startServer } from "#tests/support/server";
import { deadJob } from "#tests/jobs/support";
import { NOT_API, routeKey, sweepWorld, type SweepWorld } from "./sweep-support";

type Who = "anon" | "alice" | "root";
// Each route's test sends a few dozen requests (every malformed body, for each caller): what is checked is
// the answers, not their speed, and a loaded machine takes more than the default 5 s for them.
setDefaultTimeout(60_000);

const CALLERS: Who[] = ["anon", "alice", "root"];

/** Routes that fetch the target's site: the sweep's sites never answer, so their owner's 502 { error } is deliberate. */
const UPSTREAM_ROUTES = new Set(["POST /api/targets/:id/discover"]);

/** A live id for each id route, owned by the caller who can reach it (alice, or root for admin rows). */
const VALID: Record<string, (w: SweepWorld, ids: { rootKey: string }) => string | Promise<string>> = {
  "GET /api/admin/backups/:name": (w) => `/api/admin/backups/${w.ids.backup}`,
  "PATCH /api/admin/users/:id": (w) => `/api/admin/users/${w.bob.user.id}`,
  "DELETE /api/admin/api-keys/:id": (_w, x) => `/api/admin/api-keys/${x.rootKey}`,
  "DELETE /api/admin/all-api-keys/:id": (_w, x) => `/api/admin/all-api-keys/${x.rootKey}`,
  "POST /api/admin/jobs/:id/retry": async (w) => `/api/admin/jobs/${await deadJob(w.t.services.jobs)}/retry`,
  "DELETE /api/api-keys/:id": (w) => `/api/api-keys/${w.ids.personalKey}`,
  "GET /api/comparisons/:id": (w) => `/api/comparisons/${w.ids.comparison}`,
  "DELETE /api/comparisons/:id": (w) => `/api/comparisons/${w.ids.comparison}`,
  "PATCH /api/comparisons/:id": (w) => `/api/comparisons/${w.ids.comparison}`,
  "GET /api/comparisons/:id/targets": (w) => `/api/comparisons/${w.ids.comparison}/targets`,
  "POST /api/comparisons/:id/targets": (w) => `/api/comparisons/${w.ids.comparison}/targets`,
  "DELETE /api/targets/:id": (w) => `/api/targets/${w.ids.targets[0]}`,
  "POST /api/targets/:id/discover": (w) => `/api/targets/${w.ids.targets[0]}/discover`,
  "GET /api/targets/:id/pages": (w) => `/api/targets/${w.ids.targets[0]}/pages`,
  "POST /api/targets/:id/pages": (w) => `/api/targets/${w.ids.targets[0]}/pages`,
  "PATCH /api/pages/:id": (w) => `/api/pages/${w.ids.page}`,
  "DELETE /api/pages/:id": (w) => `/api/pages/${w.ids.page}`,
  "GET /api/targets/:id/secrets": (w) => `/api/targets/${w.ids.targets[0]}/secrets`,
  "PUT /api/targets/:id/secrets/:name": (w) => `/api/targets/${w.ids.targets[0]}/secrets/password`,
  "DELETE /api/targets/:id/secrets/:name": (w) => `/api/targets/${w.ids.targets[0]}/secrets/password`,
  "POST /api/comparisons/:id/start": (w) => `/api/comparisons/${w.ids.comparison}/start`,
  "GET /api/comparisons/:id/snapshots": (w) => `/api/comparisons/${w.ids.comparison}/snapshots`,
  "GET /api/comparisons/:id/diffs": (w) => `/api/comparisons/${w.ids.comparison}/diffs`,
  "GET /api/comparisons/:id/findings": (w) => `/api/comparisons/${w.ids.comparison}/findings`,
  "PUT /api/comparisons/:id/schedule": (w) => `/api/comparisons/${w.ids.comparison}/schedule`,
  "DELETE /api/comparisons/:id/schedule": (w) => `/api/comparisons/${w.ids.comparison}/schedule`,
  "POST /api/comparisons/:id/alerts": (w) => `/api/comparisons/${w.ids.comparison}/alerts`,
  "GET /api/comparisons/:id/alerts": (w) => `/api/comparisons/${w.ids.comparison}/alerts`,
  "GET /api/comparisons/:id/alerts/deliveries": (w) => `/api/comparisons/${w.ids.comparison}/alerts/deliveries`,
  "DELETE /api/alerts/:id": (w) => `/api/alerts/${w.ids.alert}`,
  "GET /api/snapshots/:id/screenshot": (w) => `/api/snapshots/${w.ids.snapshot}/screenshot`,
  "GET /api/comparisons/:id/filmstrips": (w) => `/api/comparisons/${w.ids.comparison}/filmstrips`,
  "GET /api/snapshots/:id/filmstrip/:frame": (w) => `/api/snapshots/${w.ids.snapshot}/filmstrip/0`,
  "GET /api/comparisons/:id/export": (w) => `/api/comparisons/${w.ids.comparison}/export`,
  "GET /api/comparisons/:id/runs": (w) => `/api/comparisons/${w.ids.comparison}/runs`,
  "GET /api/comparisons/:id/changes": (w) => `/api/comparisons/${w.ids.comparison}/changes`,
  "GET /api/comparisons/:id/changes/visual": (w) =>
    `/api/comparisons/${w.ids.comparison}/changes/visual?targetId=${w.ids.targets[0]}&viewport=desktop`,
  "GET /api/comparisons/:id/runs/:runId": (w) => `/api/comparisons/${w.ids.comparison}/runs/${w.ids.run}`,
  "GET /api/components/:id": (w) => `/api/components/${w.ids.component}`,
  "GET /api/tests/:id": (w) => `/api/tests/${w.ids.test}`,
  "POST /api/tests/:id/events": (w) => `/api/tests/${w.ids.test}/events`,
  "POST /api/comparisons/:id/shares": (w) => `/api/comparisons/${w.ids.comparison}/shares`,
  "GET /api/comparisons/:id/shares": (w) => `/api/comparisons/${w.ids.comparison}/shares`,
  "DELETE /api/shares/:id": (w) => `/api/shares/${w.ids.share}`,
  "GET /api/share/:token": (w) => `/api/share/${w.ids.shareToken}`,
  "GET /api/share/:token/screenshots/:snapshotId": (w) => `/api/share/${w.ids.shareToken}/screenshots/${w.ids.snapshot}`,
  "PATCH /api/workspaces/:id": (w) => `/api/workspaces/${w.ids.team}`,
  "DELETE /api/workspaces/:id": (w) => `/api/workspaces/${w.ids.team}`,
  "POST /api/workspaces/:id/owner": (w) => `/api/workspaces/${w.ids.team}/owner`,
  "GET /api/workspaces/:id/members": (w) => `/api/workspaces/${w.ids.team}/members`,
  "PATCH /api/workspaces/:id/members/:userId": (w) => `/api/workspaces/${w.ids.team}/members/${w.dave.user.id}`,
  "DELETE /api/workspaces/:id/members/:userId": (w) => `/api/workspaces/${w.ids.team}/members/${w.dave.user.id}`,
  "POST /api/workspaces/:id/invitations": (w) => `/api/workspaces/${w.ids.team}/invitations`,
  "GET /api/workspaces/:id/invitations": (w) => `/api/workspaces/${w.ids.team}/invitations`,
  "GET /api/workspaces/:id/audit": (w) => `/api/workspaces/${w.ids.team}/audit`,
  "DELETE /api/invitations/:id": (w) => `/api/invitations/${w.ids.invitation}`,
  "GET /api/workspaces/:id/api-keys": (w) => `/api/workspaces/${w.ids.team}/api-keys`,
  "DELETE /api/workspaces/:id/api-keys/:keyId": (w) => `/api/workspaces/${w.ids.team}/api-keys/${w.ids.personalKey}`,
  "GET /assets/:name": () => "/assets/entry.client.js",
};

const BAD_IDS = [
  encodeURIComponent("../../etc/passwd"),
  "..%2F..%2F..%2Fetc%2Fpasswd",
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "x".repeat(4096),
  encodeURIComponent("💥ñ日本\u202e"),
  "%00",
  "%ff%fe",
  encodeURIComponent("' OR 1=1 --"),
  encodeURIComponent("<script>alert(1)</script>"),
  "%25",
];

const BAD_QUERIES = [
  "limit=-1",
  "limit=abc",
  "limit=1e9",
  "limit=",
  "limit=1&limit=2",
  "limit[]=1",
  "limit=NaN",
  "limit=0x10",
  "page=0&pageSize=1e9",
  "page=abc&pageSize=-5",
  "format=xml",
  "format=json&format=html",
  "range=forever",
  "status=<b>",
  "type=%00",
  `before=${"9".repeat(5000)}`,
  `q=${encodeURIComponent("%_'\"\\; DROP TABLE users; --")}`,
  `q=${"x".repeat(5000)}`,
  "%ff=%fe",
];

/** Every field name any route reads, with a value of the wrong type. */
const WRONG_TYPES = {
  name: ["x"],
  description: { a: 1 },
  url: 42,
  label: null,
  email: ["a@example.com"],
  password: { $gt: "" },
  username: 5,
  source: true,
  enabled: "yes",
  disabled: "no",
  role: { admin: true },
  variant: ["A"],
  event: 1,
  count: "10",
  cpuThreshold: "80",
  memoryThreshold: [],
  errorRateThreshold: {},
  emailNotifications: "true",
  slackNotifications: 0,
  sources: "snapshots",
  frequency: "30",
  confidenceThreshold: null,
  maxResults: 1e308,
  aiDetectionConfidence: -Infinity,
  customKeywords: [1, 2, { x: 1 }],
  trendTypes: [[]],
  path: 42,
  steps: "click",
  colorSchemes: "dark",
};

const HUGE = "x".repeat(900_000);
const HUGE_FIELDS = Object.fromEntries(
  ["name", "description", "url", "label", "email", "password", "username", "source", "variant", "event", "role"].map((k) => [k, HUGE]),
);

function deepNest(depth: number): unknown {
  let v: unknown = "leaf";
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

interface Variant {
  name: string;
  raw?: string;
  contentType?: string;
}

const BODY_VARIANTS: Variant[] = [
  { name: "malformed JSON", raw: "{not json", contentType: "application/json" },
  { name: "truncated JSON", raw: '{"name": "x", "url": ', contentType: "application/json" },
  { name: "JSON with a BOM", raw: '\ufeff{"name":"x"}', contentType: "application/json" },
  { name: "array", raw: "[]", contentType: "application/json" },
  { name: "string", raw: '"text"', contentType: "application/json" },
  { name: "number", raw: "42", contentType: "application/json" },
  { name: "null", raw: "null", contentType: "application/json" },
  { name: "true", raw: "true", contentType: "application/json" },
  { name: "empty object", raw: "{}", contentType: "application/json" },
  { name: "wrong types", raw: JSON.stringify(WRONG_TYPES), contentType: "application/json" },
  {
    name: "nested objects",
    raw: JSON.stringify(Object.fromEntries(Object.keys(WRONG_TYPES).map((k) => [k, deepNest(50)]))),
    contentType: "application/json",
  },
  { name: "deeply nested", raw: "[".repeat(5000) + "]".repeat(5000), contentType: "application/json" },
  {
    name: "__proto__",
    raw: '{"__proto__":{"role":"admin","isAdmin":true},"constructor":{"prototype":{"x":1}}}',
    contentType: "application/json",
  },
  { name: "huge strings under 1 MB", raw: JSON.stringify(HUGE_FIELDS).slice(0, 1_000_000), contentType: "application/json" },
  {
    name: "huge valid-looking strings",
    raw: JSON.stringify({ name: HUGE, label: HUGE, url: `http://127.0.0.1/${HUGE.slice(0, 500_000)}` }),
    contentType: "application/json",
  },
  { name: "body over 1 MB", raw: JSON.stringify({ name: "x".repeat(1_100_000) }), contentType: "application/json" },
  { name: "text/plain", raw: "name=x", contentType: "text/plain" },
  { name: "form encoded", raw: "name=x&url=http%3A%2F%2Fa", contentType: "application/x-www-form-urlencoded" },
  {
    name: "multipart",
    raw: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n',
    contentType: "multipart/form-data; boundary=b",
  },
  { name: "broken multipart", raw: "garbage", contentType: "multipart/form-data" },
  {
    name: "xml",
    raw: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
    contentType: "application/xml",
  },
  { name: "binary", raw: "\u0000\u0001\u0002\uffff", contentType: "application/octet-stream" },
  { name: "JSON as text/plain", raw: '{"name": 1}', contentType: "text/plain" },
  { name: "bogus content type", raw: "{}", contentType: ";;;===" },
  { name: "no content type", raw: '{"name":"x"}' },
];

interface Problem {
  what: string;
  status: number;
  body: string;
}

describe("malformed input sweep", async () => {
  const w = await sweepWorld();
  const rootKey = (await w.t.call("POST", "/api/admin/api-keys", { headers: w.h.root, body: { name: "root's own" } })).json.apiKey
    .id as string;
  afterAll(() => w.close());
  const headersOf = (who: Who): Record<string, string> => (who === "anon" ? {} : w.h[who]);

  // Deleting routes go last so the rows stay alive for the others.
  const routes = w.t.app.routes
    .map((r) => ({ method: r.method, path: r.path, key: routeKey(r.method, r.path) }))
    .filter((r) => !NOT_API.has(r.key))
    .sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));

  let calls = 0;
  async function check(
    problems: Problem[],
    what: string,
    method: string,
    path: string,
    init: { raw?: string; headers?: Record<string, string>; upstream?: boolean },
  ) {
    calls++;
    const res = await w.t.call(method, path, init);
    const json = res.headers.get("content-type")?.includes("application/json");
    const deliberate = init.upstream === true && res.status === 502;
    if ((res.status >= 500 && !deliberate) || (res.status >= 400 && (!json || typeof res.json?.error !== "string")))
      problems.push({ what, status: res.status, body: res.text.slice(0, 160) });
    return res;
  }

  test("every id route has a live id to aim at", () => {
    const missing = routes.filter((r) => r.path.includes(":") && !VALID[r.key]).map((r) => r.key);
    expect(missing).toEqual([]);
  });

  for (const r of routes) {
    test(`${r.key}: no 500, errors are JSON`, async () => {
      const problems: Problem[] = [];
      const valid = r.path.includes(":") ? await VALID[r.key]?.(w, { rootKey }) : r.path.replace(/(.)\/$/, "$1");
      if (!valid) throw new Error(`no live id for ${r.key}`);
      const paths = [valid];
      if (r.path.includes(":")) for (const bad of BAD_IDS) paths.push(r.path.replace(/:\w+/, bad).replace(/:\w+/g, "x"));
      for (const who of CALLERS) {
        const headers = headersOf(who);
        for (const path of paths) {
          if (r.method === "GET") {
            await check(problems, `${who} GET ${path.slice(0, 80)}`, "GET", path, { headers });
            if (path === valid)
              for (const q of BAD_QUERIES)
                await check(problems, `${who} GET ${path}?${q.slice(0, 60)}`, "GET", `${path}?${q}`, { headers });
          } else {
            const variants = path === valid ? BODY_VARIANTS : BODY_VARIANTS.slice(0, 2);
            for (const v of variants) {
              const h = { ...headers, ...(v.contentType ? { "content-type": v.contentType } : {}) };
              const res = await check(problems, `${who} ${r.method} ${path.slice(0, 80)} [${v.name}]`, r.method, path, {
                raw: v.raw,
                headers: h,
                upstream: UPSTREAM_ROUTES.has(r.key),
              });
              if (v.name === "body over 1 MB" && res.status !== 413)
                problems.push({ what: `${who} ${r.key} [over 1 MB] should be 413`, status: res.status, body: res.text.slice(0, 160) });
            }
          }
        }
        await w.t.services.comparisons.whenIdle();
      }
      expect(problems).toEqual([]);
    });
  }

  test("pages and assets with hostile paths and queries never 500", async () => {
    const problems: Problem[] = [];
    const pages = [
      ...BAD_IDS.map((id) => `/comparison/${id}/view`),
      ...BAD_IDS.map((id) => `/assets/${id}`),
      ...BAD_IDS.map((id) => `/share/${id}`),
      "/comparison?id=%00",
      `/comparison?${"a=1&".repeat(2000)}`,
      "/%ff",
      "/activity?limit=-1",
      "/super-admin?tab=%3Cscript%3E",
      "/api/%2e%2e/%2e%2e/etc/passwd",
      "//evil.example/",
    ];
    for (const who of CALLERS)
      for (const page of pages) {
        const headers: Record<string, string> = who === "anon" ? {} : { cookie: w[who].cookie };
        const res = await w.t.call("GET", page, { headers: { ...headers, accept: "text/html" } });
        if (res.status >= 500) problems.push({ what: `${who} GET ${page.slice(0, 80)}`, status: res.status, body: res.text.slice(0, 160) });
      }
    expect(problems).toEqual([]);
  });

  test("hostile auth headers, cookies and unregistered methods never 500", async () => {
    const problems: Problem[] = [];
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const headerSets: Record<string, string>[] = [
      { authorization: `Bearer ${"a".repeat(100_000)}` },
      { authorization: "Bearer di_%ff%00" },
      { authorization: "Bearer di_" },
      { authorization: "Bearer a.b.c" },
      { authorization: `Bearer ${b64({ alg: "HS256" })}.${b64({ sub: { x: 1 }, ver: "x", role: ["admin"] })}.sig` },
      { authorization: "Basic YTpi" },
      { authorization: "Bearer" },
      { "x-api-key": "di_%ff%00" },
      { "x-api-key": `di_${"a".repeat(100_000)}` },
      { "x-api-key": "not a key", authorization: "Bearer di_" },
      { cookie: "di_refresh=%ff; di_refresh=x" },
      { cookie: `di_refresh=${"a".repeat(8000)}` },
      { cookie: "di_refresh" },
      { origin: "null", "sec-fetch-site": "cross-site", cookie: "di_refresh=x" },
      { origin: "%%%", cookie: "di_refresh=x" },
      { "x-forwarded-for": "<script>, ::ffff:127.0.0.1", "x-ingest-key": "' OR 1=1 --".repeat(10) },
    ];
    for (const r of routes) {
      const path = r.path.includes(":") ? await VALID[r.key]!(w, { rootKey }) : r.path.replace(/(.)\/$/, "$1");
      for (const headers of headerSets)
        await check(problems, `${r.key} ${JSON.stringify(headers).slice(0, 60)}`, r.method, path, {
          headers,
          raw: r.method === "GET" ? undefined : "{}",
        });
      for (const method of ["OPTIONS", "PUT", "PATCH", "TRACE"])
        if (!routes.some((x) => x.path === r.path && x.method === method)) await check(problems, `${method} ${path}`, method, path, {});
    }
    expect(problems).toEqual([]);
    // Guards the sweep itself: thousands of hostile requests really went out.
    expect(calls).toBeGreaterThan(5000);
  });

  test(
    "through the real server, bodies past 1 MB (declared or chunked, up to the transport cap) get a JSON 413",
    async () => {
      const server = await startServer({ env: { CAPTURE_CONCURRENCY: "1" } });
      try {
        const signup = await fetch(`${server.url}/api/auth/signup`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "big@example.com", password: "correct-horse-battery" }),
        });
        const token = ((await signup.json()) as { accessToken: string }).accessToken;
        const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
        const chunked = (bytes: number) => {
          let sent = 0;
          return new ReadableStream<Uint8Array>({
            pull(c) {
              if (sent >= bytes) return c.close();
              sent += 64 * 1024;
              c.enqueue(new Uint8Array(64 * 1024).fill(120));
            },
          });
        };
        const bodies: [string, BodyInit][] = [
          ["1.5 MB", JSON.stringify({ name: "x".repeat(1_500_000) })],
          ["5 MB", JSON.stringify({ name: "x".repeat(5_000_000) })],
          ["5 MB chunked", chunked(5_000_000)],
        ];
        for (const [name, body] of bodies) {
          const res = await fetch(`${server.url}/api/comparisons`, { method: "POST", headers, body, duplex: "half" } as RequestInit);
          expect(res.status, name).toBe(413);
          expect(res.headers.get("content-type"), name).toContain("application/json");
          expect(((await res.json()) as { error: string }).error, name).toBe("Request body is larger than 1 MB");
        }
        const ok = await fetch(`${server.url}/api/comparisons`, { method: "POST", headers, body: JSON.stringify({ name: "Still fine" }) });
        expect(ok.status).toBe(201);
      } finally {
        await server.stop();
      }
    },
    SERVER_START_MS + 30_000,
  ); // a boot, then a handful of requests
});
