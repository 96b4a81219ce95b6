// Pages with steps in a real run (real Chromium): a site whose pricing page is behind a sign-in
// (tests/fixtures/sites/login-site) is captured signed in at both viewports with one sign-in for
// the run, paired with the other site's pricing page; the secret's value is in no answer, no log
// line, no backup and no file under DATA_DIR.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createStepSessions } from "#server/modules/capture/public";
import { makeTestApp } from "#tests/support/app";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { LOGIN_EMAIL, LOGIN_PASSWORD, loginSite } from "#tests/support/login-site";
import { useRealRunTools } from "#tests/support/real-run-tools";

const real = useRealRunTools("pages-steps-real");
let login: FixtureServer;
beforeAll(() => {
  login = startFixtureServer(
    undefined,
    loginSite(() => login.origin),
  );
});
afterAll(() => login?.close());

test("a pricing page behind a sign-in: captured signed in, one sign-in for the run, paired with pricing, the secret nowhere", async () => {
  const t = makeTestApp({
    // The database file under DATA_DIR too, so the grep of DATA_DIR below reads its rows and WAL.
    dbPath: join(real.dataDir, "design-intel.db"),
    env: { DATA_DIR: real.dataDir, ALLOW_PRIVATE_TARGETS: "1" },
    runTools: real.runTools({ stepSessions: createStepSessions }),
  });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Tally vs North" }, headers: h })).json;
  const add = async (url: string, label: string) =>
    (await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: h })).json.id as string;
  const tally = await add(login.url("/login-site/features/"), "Tally");
  const north = await add(real.fixtures.url("/pages-north/"), "North");
  expect((await t.call("PUT", `/api/targets/${tally}/secrets/password`, { body: { value: LOGIN_PASSWORD }, headers: h })).status).toBe(204);
  const steps = [
    { type: "fill", selector: "#email", value: LOGIN_EMAIL },
    { type: "fill", selector: "#password", value: "{{secret:password}}" },
    { type: "click", text: "Sign in" },
    { type: "wait", selector: "#plan, #features" },
  ];
  const pricing = await t.call("POST", `/api/targets/${tally}/pages`, {
    body: { path: "/login-site/pricing/", role: "pricing", steps },
    headers: h,
  });
  expect(pricing.status, pricing.text).toBe(201);
  await t.call("POST", `/api/targets/${north}/pages`, { body: { path: "/pages-north/pricing/", role: "pricing" }, headers: h });

  expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
  await t.services.comparisons.whenIdle();
  const done = (await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json;
  expect(done).toMatchObject({ status: "completed", progress: { done: 8, total: 8 } });

  const snaps = (await t.call("GET", `/api/comparisons/${c.id}/snapshots`, { headers: h })).json as {
    pageId: string;
    viewport: string;
    title: string;
    step: unknown;
    extraction: { copy: { visibleText: string } } | null;
  }[];
  const members = snaps.filter((s) => s.pageId === pricing.json.id);
  expect(members.map((s) => s.viewport)).toEqual(["desktop", "mobile"]);
  for (const s of members) {
    expect(s.step).toBeNull();
    expect(s.title).toBe("Pricing — Tally");
    expect(s.extraction!.copy.visibleText).toContain("Members' price");
  }
  // One sign-in for the run: the mobile capture started from the desktop capture's session.
  expect(login.hits("/login-site/login")).toBe(1);

  // The site's home (its members' features page) answers signed-out visitors 401: not captured,
  // and said so beside the captured pricing page.
  const targets = (await t.call("GET", `/api/comparisons/${c.id}/targets`, { headers: h })).json as {
    id: string;
    status: string;
    error: string | null;
  }[];
  expect(targets.find((x) => x.id === tally)).toMatchObject({
    status: "completed",
    error: expect.stringContaining("Not captured: /login-site/features/ desktop"),
  });
  const diffs = (await t.call("GET", `/api/comparisons/${c.id}/diffs`, { headers: h })).json as { role: string; viewport: string }[];
  expect(diffs.map((d) => `${d.role} ${d.viewport}`)).toEqual(["pricing desktop", "pricing mobile"]);

  const runs = (await t.call("GET", `/api/comparisons/${c.id}/runs`, { headers: h })).json;
  for (const path of [
    `/api/comparisons/${c.id}/snapshots`,
    `/api/comparisons/${c.id}/diffs`,
    `/api/comparisons/${c.id}/findings`,
    `/api/comparisons/${c.id}/export?format=json`,
    `/api/comparisons/${c.id}/runs/${runs[0].id}`,
    `/api/targets/${tally}/pages`,
    `/api/targets/${tally}/secrets`,
  ]) {
    const r = await t.call("GET", path, { headers: h });
    expect(r.status, path).toBe(200);
    expect(r.text, path).not.toContain(LOGIN_PASSWORD);
  }

  // Nor in a backup download (the first account is the admin), the logs, or any file under DATA_DIR
  // (the database and its WAL, screenshots, filmstrips, backups) in plain text.
  const backup = await t.call("POST", "/api/admin/backups", { headers: h });
  expect(backup.status, backup.text).toBe(201);
  const download = await t.app.handle(new Request(`http://localhost/api/admin/backups/${backup.json.backup.name}`, { headers: h }));
  expect(download.status).toBe(200);
  const secret = Buffer.from(LOGIN_PASSWORD);
  expect(Buffer.from(await download.arrayBuffer()).includes(secret)).toBe(false);
  expect(t.logs.text()).not.toContain(LOGIN_PASSWORD);
  expect(real.poolLog.join("\n")).not.toContain(LOGIN_PASSWORD);
  const files = readdirSync(real.dataDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  expect(files.length).toBeGreaterThan(3);
  for (const f of files) {
    const path = join(f.parentPath, f.name);
    expect(readFileSync(path).includes(secret), path).toBe(false);
  }
}, 420_000);
