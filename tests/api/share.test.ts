// Share links through the API: make, list and revoke them; what a link opens (the run's results and
// screenshots, signed out) and nothing else; expiry and revocation; the headers on every answer;
// and a database that never holds a token.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SHARE_RESPONSE_HEADERS } from "#server/modules/share/model";
import { hashShareToken, newShareToken } from "#server/modules/share/service";
import { makeTestApp } from "#tests/support/app";
import { fakeRunTools, pngBytes } from "./comparisons-support";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const URL_A = "http://127.0.0.1:9/alpha";
const URL_B = "http://127.0.0.1:9/beta";
const HOUR = 3_600_000;

function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), "di-share-"));
  dirs.push(dataDir);
  const fake = fakeRunTools();
  // Each run paints its screenshots another colour, so runs have files of their own.
  let shade = 0;
  const capture = fake.tools.capture!;
  fake.tools.capture = async (ownerId, job, onStage) => {
    const r = await capture(ownerId, job, onStage);
    if (r.ok) await Bun.write(job.screenshotPath, pngBytes(job.viewport === "desktop" ? 48 : 13, 40, [shade, 20, 20]));
    return r;
  };
  const clock = { at: Date.now() };
  const dbPath = join(dataDir, "design-intel.db");
  const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" }, runTools: fake.tools, now: () => clock.at, dbPath });
  return { ...t, fake, clock, dbPath, nextShade: () => (shade += 40) };
}
type Setup = ReturnType<typeof setup>;

async function comparison(t: Setup, name = "Rivals") {
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name, description: "Two roasters" }, headers: h })).json;
  for (const [url, label] of [
    [URL_A, "Alpha"],
    [URL_B, "Beta"],
  ])
    await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: h });
  const run = async () => {
    t.nextShade();
    expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
    await t.services.comparisons.whenIdle();
  };
  const runs = async () => (await t.call("GET", `/api/comparisons/${c.id}/runs`, { headers: h })).json as { id: string; number: number }[];
  const share = (body: unknown = {}, headers = h) => t.call("POST", `/api/comparisons/${c.id}/shares`, { body, headers });
  const list = (headers = h) => t.call("GET", `/api/comparisons/${c.id}/shares`, { headers });
  return { u, h, c, run, runs, share, list };
}

const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;

function expectShareHeaders(headers: Headers) {
  for (const [k, v] of Object.entries(SHARE_RESPONSE_HEADERS)) expect(headers.get(k), k).toBe(v);
}

describe("share tokens", () => {
  test("256 random bits as base64url, never the same twice; stored as their SHA-256", () => {
    const tokens = new Set(Array.from({ length: 2000 }, newShareToken));
    expect(tokens.size).toBe(2000);
    for (const token of [...tokens].slice(0, 50)) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, "base64url").byteLength).toBe(32);
    }
    const token = [...tokens][0]!;
    expect(hashShareToken(token)).toBe(new Bun.CryptoHasher("sha256").update(token).digest("hex"));
    expect(hashShareToken(token)).toBe(hashShareToken(token));
    expect(hashShareToken(token)).not.toBe(hashShareToken([...tokens][1]!));
  });
});

describe("share links", () => {
  test("the owner shares the latest completed run; the link opens it signed out and counts the view", async () => {
    const t = setup();
    const x = await comparison(t);
    await x.run();
    await x.run();
    const [latest, first] = await x.runs();

    const made = await x.share();
    expect(made.status).toBe(201);
    expect(made.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(made.json).sort()).toEqual(["expiresAt", "id", "url"]);
    expect(made.json.expiresAt).toBeNull();
    expect(made.json.url).toMatch(/^http:\/\/localhost\/share\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(made.json.url);

    const opened = await t.call("GET", `/api/share/${token}`);
    expect(opened.status).toBe(200);
    expectShareHeaders(opened.headers);
    expect(opened.json.comparison).toEqual({ name: "Rivals", description: "Two roasters" });
    expect(opened.json.run.number).toBe(latest!.number);
    expect(opened.json.targets.map((s: { label: string }) => s.label)).toEqual(["Alpha", "Beta"]);
    expect(opened.json.snapshots).toHaveLength(4);
    expect(opened.json.diffs.length).toBeGreaterThan(0);
    expect(opened.json.findings.length).toBeGreaterThan(0);
    // The run's own results, exactly: the same rows the owner's run view shows.
    const own = (await t.call("GET", `/api/comparisons/${x.c.id}/runs/${latest!.id}`, { headers: x.h })).json;
    expect(opened.json.snapshots.map((s: { id: string }) => s.id)).toEqual(own.snapshots.map((s: { id: string }) => s.id));
    expect(opened.json.findings).toEqual(own.findings);
    // Every screenshot is served under the link, and only there.
    for (const s of opened.json.snapshots as { id: string; screenshotUrl: string }[]) {
      expect(s.screenshotUrl).toBe(`/api/share/${token}/screenshots/${s.id}`);
      const img = await t.call("GET", s.screenshotUrl);
      expect(img.status).toBe(200);
      expect(img.headers.get("content-type")).toBe("image/png");
      expectShareHeaders(img.headers);
    }
    // The earlier run's screenshots are other files, and the link does not serve them.
    const older = (await t.call("GET", `/api/comparisons/${x.c.id}/runs/${first!.id}`, { headers: x.h })).json;
    for (const s of older.snapshots as { id: string }[])
      expect((await t.call("GET", `/api/share/${token}/screenshots/${s.id}`)).status).toBe(404);

    const [listed] = (await x.list()).json;
    expect(listed).toMatchObject({
      id: made.json.id,
      runId: latest!.id,
      runNumber: latest!.number,
      createdBy: { id: x.u.user.id, email: x.u.email },
      expiresAt: null,
      views: 1,
      revoked: false,
    });
    expect(listed.lastViewedAt).toBeString();
    // The list never carries the link or its hash.
    const listText = (await x.list()).text;
    expect(listText).not.toContain(token);
    expect(listText).not.toContain(hashShareToken(token));
  });

  test("a chosen run; a run still going, failed, unknown or another comparison's is refused", async () => {
    const t = setup();
    const x = await comparison(t);
    const other = await comparison(t, "Other");
    expect((await x.share()).json.error).toBe("This comparison has no completed run to share yet");
    await x.run();
    await x.run();
    await other.run();
    const [, first] = await x.runs();
    const made = await x.share({ runId: first!.id });
    expect(made.status).toBe(201);
    expect((await t.call("GET", `/api/share/${tokenOf(made.json.url)}`)).json.run.number).toBe(first!.number);

    const [otherRun] = await other.runs();
    expect((await x.share({ runId: otherRun!.id })).status).toBe(404);
    expect((await x.share({ runId: "nope" })).status).toBe(404);

    t.fake.holdCaptures();
    await t.call("POST", `/api/comparisons/${x.c.id}/start`, { headers: x.h });
    await t.fake.captureStarted();
    const [running] = await x.runs();
    const refused = await x.share({ runId: running!.id });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toBe("Only a completed run can be shared");
    t.fake.release();
    await t.services.comparisons.whenIdle();
  });

  test("expiry: never, or a time in the future; a link past it is gone", async () => {
    const t = setup();
    const x = await comparison(t);
    await x.run();
    for (const expiresAt of [new Date(t.clock.at - 1000).toISOString(), new Date(t.clock.at).toISOString()]) {
      const r = await x.share({ expiresAt });
      expect(r.status).toBe(400);
      expect(r.json.error).toBe("expiresAt must be in the future");
    }
    for (const expiresAt of ["tomorrow", 12, "2030-13-01T00:00:00Z"]) {
      const r = await x.share({ expiresAt });
      expect(r.status).toBe(400);
      expect(r.json.error).toBe("expiresAt must be an ISO 8601 date and time");
    }
    const inAnHour = new Date(t.clock.at + HOUR).toISOString();
    const made = await x.share({ expiresAt: inAnHour });
    expect(made.status).toBe(201);
    expect(made.json.expiresAt).toBe(inAnHour);
    const never = await x.share({ expiresAt: null });
    expect(never.json.expiresAt).toBeNull();

    const token = tokenOf(made.json.url);
    const opened = await t.call("GET", `/api/share/${token}`);
    expect(opened.json.expiresAt).toBe(inAnHour);
    const shot = opened.json.snapshots[0].screenshotUrl as string;
    expect((await t.call("GET", shot)).status).toBe(200);

    t.clock.at += HOUR;
    for (const path of [`/api/share/${token}`, shot, `/share/${token}`]) {
      const r = await t.call("GET", path);
      expect(r.status, path).toBe(404);
      expectShareHeaders(r.headers);
    }
    expect((await t.call("GET", `/api/share/${tokenOf(never.json.url)}`)).status).toBe(200);
  });

  test("revoked: the link and its screenshots are 404 at once; the list shows it revoked; the audit log has both", async () => {
    const t = setup();
    const x = await comparison(t);
    await x.run();
    const made = await x.share();
    const token = tokenOf(made.json.url);
    const shot = (await t.call("GET", `/api/share/${token}`)).json.snapshots[0].screenshotUrl as string;

    const revoked = await t.call("DELETE", `/api/shares/${made.json.id}`, { headers: x.h });
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe("");
    for (const path of [`/api/share/${token}`, shot]) {
      const r = await t.call("GET", path);
      expect(r.status, path).toBe(404);
      expect(r.json.error).toBe("This link does not exist, has expired or was revoked");
      expectShareHeaders(r.headers);
    }
    const page = await t.call("GET", `/share/${token}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain("404 Page Not Found");
    expect((await x.list()).json[0]).toMatchObject({ id: made.json.id, revoked: true, views: 1 });
    // Again: nothing changes, nothing more is recorded.
    expect((await t.call("DELETE", `/api/shares/${made.json.id}`, { headers: x.h })).status).toBe(204);

    const actions = t.db
      .query<{ action: string; target: string; actor_id: string }, []>(
        "SELECT action, target, actor_id FROM audit_log WHERE action LIKE 'share.%' ORDER BY id",
      )
      .all();
    expect(actions).toEqual([
      { action: "share.created", target: made.json.id, actor_id: x.u.user.id },
      { action: "share.revoked", target: made.json.id, actor_id: x.u.user.id },
    ]);
  });

  test("another user's comparison and share links are 404 to them, as everywhere else", async () => {
    const t = setup();
    const x = await comparison(t);
    await x.run();
    const made = await x.share();
    const bob = await t.signup();
    const hb = t.auth(bob.token);
    for (const [method, path] of [
      ["POST", `/api/comparisons/${x.c.id}/shares`],
      ["GET", `/api/comparisons/${x.c.id}/shares`],
      ["DELETE", `/api/shares/${made.json.id}`],
    ] as const) {
      const r = await t.call(method, path, { headers: hb, body: method === "POST" ? {} : undefined });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.json.error).toBeString();
    }
    expect((await x.list()).json[0].revoked).toBe(false);
    // Signed out, the owner's routes are 401.
    expect((await t.call("GET", `/api/comparisons/${x.c.id}/shares`)).status).toBe(401);
    expect((await t.call("DELETE", `/api/shares/${made.json.id}`)).status).toBe(401);
  });

  test("no id swapped into a share-scoped request reaches anything else", async () => {
    const t = setup();
    const x = await comparison(t);
    const other = await comparison(t, "Someone else's");
    await x.run();
    await x.run();
    await other.run();
    const [latest, first] = await x.runs();
    const token = tokenOf((await x.share({ runId: latest!.id })).json.url);
    const otherToken = tokenOf((await other.share()).json.url);
    const own = async (c: typeof x, runId: string) =>
      (await t.call("GET", `/api/comparisons/${c.c.id}/runs/${runId}`, { headers: c.h })).json.snapshots as { id: string }[];
    const olderShots = await own(x, first!.id);
    const otherShots = await own(other, (await other.runs())[0]!.id);
    const shot = (await own(x, latest!.id))[0]!.id;
    expect((await t.call("GET", `/api/share/${token}/screenshots/${shot}`)).status).toBe(200);

    const probes = [
      // Another run's, another comparison's screenshots through this link.
      ...olderShots.map((s) => `/api/share/${token}/screenshots/${s.id}`),
      ...otherShots.map((s) => `/api/share/${token}/screenshots/${s.id}`),
      // This run's screenshot through another link, and through no link.
      `/api/share/${otherToken}/screenshots/${shot}`,
      `/api/share/${newShareToken()}/screenshots/${shot}`,
      // Ids where the token goes.
      `/api/share/${x.c.id}`,
      `/api/share/${latest!.id}`,
      `/api/share/${first!.id}`,
      `/api/share/${shot}`,
      `/api/share/${x.c.id}/screenshots/${shot}`,
      `/api/share/${hashShareToken(token)}`,
      `/api/share/${token.slice(0, -1)}`,
      `/api/share/${token}x`,
      `/api/share/${token.toUpperCase()}`,
      // Paths out of the screenshot folder.
      `/api/share/${token}/screenshots/${encodeURIComponent("../../etc/passwd")}`,
      `/api/share/${token}/screenshots/..%2F..%2Fdesign-intel.db`,
      `/api/share/${token}/screenshots/`,
      `/share/${x.c.id}`,
      `/share/${latest!.id}`,
    ];
    for (const path of probes) {
      const r = await t.call("GET", path);
      expect(r.status, path).toBe(404);
      if (path.startsWith("/api/share/") && r.json?.error !== "No route for GET " + path) expectShareHeaders(r.headers);
    }
    // The link itself still works, and nobody's views were counted by the probes but its own.
    expect((await t.call("GET", `/api/share/${token}`)).status).toBe(200);
    expect((await other.list()).json[0].views).toBe(0);
  });

  test("the shared page: server-rendered results, noindex, no referrer, no shared caching, no link into the app", async () => {
    const t = setup();
    const x = await comparison(t);
    await x.run();
    const token = tokenOf((await x.share({ expiresAt: new Date(t.clock.at + 7 * 24 * HOUR).toISOString() })).json.url);
    const page = await t.call("GET", `/share/${token}`);
    expect(page.status).toBe(200);
    expectShareHeaders(page.headers);
    expect(page.text).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page.text).toContain("Rivals");
    expect(page.text).toContain("Shared read-only view");
    expect(page.text).toContain(`/api/share/${token}/screenshots/`);
    expect(page.text).not.toContain("/api/snapshots/");
    // Anchors stay on this page (the pair links are ?query links on it).
    const hrefs = [...page.text.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)].map((m) => m[1]!);
    for (const href of hrefs)
      expect(new URL(href.replaceAll("&amp;", "&"), `http://localhost/share/${token}`).pathname).toBe(`/share/${token}`);
    for (const word of ["Mission Control", "Sign in", "Settings", "Back"]) expect(page.text).not.toContain(`>${word}<`);

    const missing = await t.call("GET", `/share/${newShareToken()}`);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain("404 Page Not Found");
    expectShareHeaders(missing.headers);
    expect(missing.text).toContain('<meta name="robots" content="noindex, nofollow">');
  });

  test("the database never holds a token: only its hash", async () => {
    const t = setup();
    const x = await comparison(t);
    await x.run();
    const tokens: string[] = [];
    for (let i = 0; i < 5; i++) tokens.push(tokenOf((await x.share()).json.url));
    await t.call("DELETE", `/api/shares/${(await x.list()).json[0].id}`, { headers: x.h });
    for (const token of tokens) expect((await t.call("GET", `/api/share/${token}`)).status).toBeOneOf([200, 404]);
    const bytes = () => {
      const parts = [t.dbPath, `${t.dbPath}-wal`].map((p) => {
        try {
          return readFileSync(p);
        } catch {
          return Buffer.alloc(0);
        }
      });
      return Buffer.concat(parts);
    };
    const before = bytes();
    t.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const after = bytes();
    for (const image of [before, after]) {
      expect(image.byteLength).toBeGreaterThan(4096);
      for (const token of tokens) {
        expect(image.includes(token)).toBe(false);
        expect(image.includes(Buffer.from(token, "base64url"))).toBe(false);
        // The hash is what is there.
        expect(image.includes(hashShareToken(token))).toBe(true);
      }
    }
  });
});
