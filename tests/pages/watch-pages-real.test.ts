// The watch per page in real Chromium (issue 33's acceptance): 3 sites × 3 roles × 2 viewports.
// The run scores each role across the sites; a re-run of the unchanged pages finds no change; a
// page taken out of one site's sitemap is that site's `pages` change, and nothing else changes.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { makeTestApp } from "#tests/support/app";
import { useRealRunTools } from "#tests/support/real-run-tools";
import { startWatchSites, WATCH_PAGES, type WatchSite } from "#tests/support/watch-sites";

const real = useRealRunTools("watch-pages-real");
let sites: WatchSite[] = [];
beforeAll(() => {
  sites = startWatchSites();
});
afterAll(async () => {
  for (const s of sites) await s.server.close();
});

interface Change {
  kind: string;
  viewport: string;
  severity: string;
  summary: string;
  before: string | null;
  after: string | null;
  pageId: string | null;
  role: string;
  path: string;
  colorScheme: string;
  evidence: { source?: string };
}
type Changes = { targets: { targetId: string; changes: Change[] }[] };

test("3 sites × 3 roles × 2 viewports: per-role scores, no change on a re-run, a page removed from a sitemap is a `pages` change", async () => {
  const t = makeTestApp({
    env: { DATA_DIR: real.dataDir, ALLOW_PRIVATE_TARGETS: "1" },
    runTools: real.runTools(),
  });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (
    await t.call("POST", "/api/comparisons", {
      body: { name: "Three sites" },
      headers: h,
    })
  ).json;
  const ids: string[] = [];
  for (const site of sites) {
    const r = await t.call("POST", `/api/comparisons/${c.id}/targets`, {
      body: { url: site.url, label: site.name },
      headers: h,
    });
    expect(r.status, r.text).toBe(201);
    ids.push(r.json.id);
    for (const role of ["pricing", "features"] as const) {
      const p = await t.call("POST", `/api/targets/${r.json.id}/pages`, {
        body: { path: WATCH_PAGES[role], role },
        headers: h,
      });
      expect(p.status, p.text).toBe(201);
    }
  }
  const run = async () => {
    expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
    await t.services.comparisons.whenIdle();
    const done = (await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json;
    expect(done).toMatchObject({
      status: "completed",
      error: null,
      progress: { done: 18, total: 18 },
    });
  };
  const changes = async (query = "page=all&colorScheme=all") =>
    (
      await t.call("GET", `/api/comparisons/${c.id}/changes?${query}`, {
        headers: h,
      })
    ).json as Changes;

  await run();
  // The per-role matrix: each role's pages scored pair by pair (3 pairs of 3 sites), at each viewport.
  const diffs = (await t.call("GET", `/api/comparisons/${c.id}/diffs`, { headers: h })).json as { role: string; viewport: string }[];
  const perRole = (role: string) => diffs.filter((d) => d.role === role).map((d) => d.viewport);
  for (const role of ["home", "pricing", "features"])
    expect(perRole(role).sort()).toEqual(["desktop", "desktop", "desktop", "mobile", "mobile", "mobile"]);
  const findings = (await t.call("GET", `/api/comparisons/${c.id}/findings`, { headers: h })).json as { role: string }[];
  for (const f of findings) expect(["home", "pricing", "features"]).toContain(f.role);

  // Re-run, nothing changed on the sites: no change on any page, and the run's count says so.
  await run();
  const again = await changes();
  expect(again.targets.map((x) => x.changes.map((ch) => `${ch.kind} ${ch.role} ${ch.viewport}: ${ch.summary}`))).toEqual([[], [], []]);
  const runs = (await t.call("GET", `/api/comparisons/${c.id}/runs`, { headers: h })).json as { changeCount: number | null }[];
  expect(runs[0]!.changeCount).toBe(0);

  // The first site drops a page from its sitemap.
  sites[0]!.sitemap.delete("/old-offer/");
  await run();
  const after = await changes();
  expect(after.targets.map((x) => x.targetId)).toEqual(ids);
  expect(after.targets[0]!.changes).toEqual([
    {
      kind: "pages",
      severity: "low",
      viewport: "desktop",
      summary: "Page removed from sitemap: /old-offer/",
      before: "/old-offer/",
      after: null,
      evidence: { source: "sitemap" },
      pageId: null,
      role: "other",
      path: "/old-offer/",
      colorScheme: "light",
    },
  ]);
  expect(after.targets[1]!.changes).toEqual([]);
  expect(after.targets[2]!.changes).toEqual([]);
  // A site's `pages` change is listed whatever page the query asks for (it is about the site).
  expect((await changes()).targets[0]!.changes).toHaveLength(1);
  expect((await changes("")).targets[0]!.changes.map((ch) => ch.kind)).toEqual(["pages"]);
}, 600_000);
