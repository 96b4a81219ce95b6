// A run over pages with fake run tools (no browser): every page of every site is captured at each
// viewport in each colour scheme of the comparison, diffs pair the pages of one role of two sites,
// a site without a role is simply not in that role's lanes, a site's second page of a role is
// captured but paired with none, findings name their page and scheme, and the export lists pages.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "#tests/support/app";
import { fakeRunTools } from "#tests/api/comparisons-support";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const A = "http://127.0.0.1:9/";
const B = "http://127.0.0.2:9/";
const C = "http://127.0.0.3:9/";

async function world() {
  const dataDir = mkdtempSync(join(tmpdir(), "di-pages-run-"));
  dirs.push(dataDir);
  const fake = fakeRunTools({ [`${B}pricing`]: { hex: "#00aa00" } });
  const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" }, runTools: fake.tools });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Rivals" }, headers: h })).json;
  const site = async (url: string, label: string) =>
    (await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: h })).json.id as string;
  const page = async (targetId: string, body: unknown) => {
    const r = await t.call("POST", `/api/targets/${targetId}/pages`, { body, headers: h });
    expect(r.status, r.text).toBe(201);
    return r.json.id as string;
  };
  const get = async (path = "") => (await t.call("GET", `/api/comparisons/${c.id}${path}`, { headers: h })).json;
  return { t, fake, h, c, site, page, get };
}

describe("a run over pages", () => {
  test("home and pricing of two sites (a third has home only), light and dark", async () => {
    const w = await world();
    const a = await w.site(A, "Alpha");
    const b = await w.site(B, "Beta");
    const c = await w.site(C, "Gamma");
    const aPricing = await w.page(a, { path: "/pricing", role: "pricing", steps: [{ type: "click", text: "Monthly" }] });
    const bPricing = await w.page(b, { path: "/pricing", role: "pricing" });
    // Beta's second pricing page: captured, paired with none.
    const bPlans = await w.page(b, { path: "/plans", role: "pricing" });
    await w.t.call("PATCH", `/api/comparisons/${w.c.id}`, { body: { colorSchemes: ["light", "dark"] }, headers: w.h });

    const r = await w.t.call("POST", `/api/comparisons/${w.c.id}/start`, { headers: w.h });
    expect(r.status, r.text).toBe(202);
    // 6 pages × 2 viewports × 2 schemes.
    expect(r.json.progress.total).toBe(24);
    await w.t.services.comparisons.whenIdle();
    const cmp = await w.get();
    expect(cmp).toMatchObject({ status: "completed", progress: { done: 24, total: 24 }, colorSchemes: ["light", "dark"] });

    // What the capture was asked: each page's URL, its scheme (light is the browser's default: not sent), its steps with the site's origin.
    expect(w.fake.calls).toHaveLength(24);
    const asked = w.fake.calls.map((j) => `${j.url} ${j.viewport} ${(j as { colorScheme?: string }).colorScheme ?? "light"}`);
    expect(new Set(asked).size).toBe(24);
    expect(w.fake.calls.filter((j) => (j as { colorScheme?: string }).colorScheme === "dark")).toHaveLength(12);
    expect(w.fake.calls.some((j) => "colorScheme" in j && (j as { colorScheme?: string }).colorScheme === "light")).toBe(false);
    const withSteps = w.fake.calls.filter((j) => "steps" in j) as unknown as { url: string; steps: unknown[]; siteOrigin: string }[];
    expect(withSteps).toHaveLength(4);
    for (const j of withSteps)
      expect(j).toMatchObject({ url: `${A}pricing`, steps: [{ type: "click", text: "Monthly" }], siteOrigin: "http://127.0.0.1:9" });
    // Desktop before mobile: the first half of the captures are desktop ones.
    expect(w.fake.calls.slice(0, 12).every((j) => j.viewport === "desktop")).toBe(true);

    const snapshots = (await w.get("/snapshots")) as {
      targetId: string;
      pageId: string;
      role: string;
      path: string;
      colorScheme: string;
      viewport: string;
    }[];
    expect(snapshots).toHaveLength(24);
    expect(snapshots.filter((s) => s.pageId === bPlans).map((s) => `${s.role} ${s.path} ${s.colorScheme} ${s.viewport}`)).toEqual([
      "pricing /plans light desktop",
      "pricing /plans light mobile",
      "pricing /plans dark desktop",
      "pricing /plans dark mobile",
    ]);
    // Site by site, each site's pages in order, light before dark, desktop before mobile.
    expect(snapshots.slice(0, 8).map((s) => `${s.targetId === a} ${s.role} ${s.colorScheme} ${s.viewport}`)).toEqual([
      "true home light desktop",
      "true home light mobile",
      "true home dark desktop",
      "true home dark mobile",
      "true pricing light desktop",
      "true pricing light mobile",
      "true pricing dark desktop",
      "true pricing dark mobile",
    ]);

    // Home: 3 sites → 3 pairs; pricing: Alpha's and Beta's first → 1 pair; each per viewport and scheme.
    const diffs = (await w.get("/diffs")) as {
      role: string;
      colorScheme: string;
      viewport: string;
      targetAId: string;
      targetBId: string;
      pageAId: string;
      pageBId: string;
      colorSimilarity: number;
    }[];
    expect(diffs.map((d) => `${d.role} ${d.colorScheme} ${d.viewport}`)).toEqual([
      ...Array(3).fill("home light desktop"),
      ...Array(3).fill("home light mobile"),
      ...Array(3).fill("home dark desktop"),
      ...Array(3).fill("home dark mobile"),
      "pricing light desktop",
      "pricing light mobile",
      "pricing dark desktop",
      "pricing dark mobile",
    ]);
    for (const d of diffs.filter((d) => d.role === "pricing")) {
      expect([d.targetAId, d.targetBId, d.pageAId, d.pageBId]).toEqual([a, b, aPricing, bPricing]);
      // Beta's pricing page is green, Alpha's blue: the scores are the pricing pages', not the home pages'.
      expect(d.colorSimilarity).toBe(0.4);
    }
    expect(diffs.filter((d) => d.role === "home").every((d) => d.colorSimilarity === 0.9)).toBe(true);
    expect(diffs.some((d) => d.targetAId === c && d.role === "pricing")).toBe(false);

    // The fake findings step finds one finding per page it is shown: each stored with its page and scheme.
    const findings = (await w.get("/findings")) as {
      targetId: string;
      pageId: string;
      role: string;
      colorScheme: string;
      viewport: string;
    }[];
    expect(findings).toHaveLength(24);
    expect(new Set(findings.map((f) => `${f.pageId} ${f.colorScheme} ${f.viewport}`)).size).toBe(24);
    expect(findings.filter((f) => f.pageId === bPlans).every((f) => f.role === "pricing" && f.targetId === b)).toBe(true);
    // Home in light first, as before pages.
    expect(findings.slice(0, 6).every((f) => f.role === "home" && f.colorScheme === "light")).toBe(true);

    // The run history reads the same.
    const runs = await w.get("/runs");
    const run = (await w.t.call("GET", `/api/comparisons/${w.c.id}/runs/${runs[0].id}`, { headers: w.h })).json;
    expect(run.snapshots).toHaveLength(24);
    expect(run.diffs.map((d: { role: string }) => d.role)).toEqual(diffs.map((d) => d.role));

    // The JSON export lists the pages.
    const exported = await w.t.call("GET", `/api/comparisons/${w.c.id}/export?format=json`, { headers: w.h });
    const report = JSON.parse(exported.text);
    expect(report.pages.map((p: { role: string; url: string }) => `${p.role} ${p.url}`)).toEqual([
      `home ${A}`,
      `pricing ${A}pricing`,
      `home ${B}`,
      `pricing ${B}pricing`,
      `pricing ${B}plans`,
      `home ${C}`,
    ]);
    // The HTML report names each capture's page and scheme (the home page in light as before).
    const html = (await w.t.call("GET", `/api/comparisons/${w.c.id}/export?format=html`, { headers: w.h })).text;
    expect(html).toContain("desktop · pricing /pricing · dark");
    expect(html).toContain(">desktop</span>");
  });

  test("a comparison of home pages in light runs exactly as before pages: 2 captures a site, no scheme or steps asked", async () => {
    const w = await world();
    await w.site(A, "Alpha");
    await w.site(B, "Beta");
    const r = await w.t.call("POST", `/api/comparisons/${w.c.id}/start`, { headers: w.h });
    expect(r.json.progress.total).toBe(4);
    await w.t.services.comparisons.whenIdle();
    expect(w.fake.calls.map((j) => Object.keys(j).sort().join(","))).toEqual(
      Array(4).fill("consent,deferTiming,earlierSamples,ownerId,screenshotPath,url,viewport"),
    );
    const diffs = await w.get("/diffs");
    expect(diffs.map((d: { role: string; colorScheme: string; viewport: string }) => `${d.role} ${d.colorScheme} ${d.viewport}`)).toEqual([
      "home light desktop",
      "home light mobile",
    ]);
  });
});

describe("a page whose steps stop", () => {
  test("is stored with the step and its screenshot, not scored nor found about; the steps get the site's secrets they name", async () => {
    const w = await world();
    const a = await w.site(A, "Alpha");
    const b = await w.site(B, "Beta");
    const put = await w.t.call("PUT", `/api/targets/${a}/secrets/password`, { body: { value: "hunter2-secret" }, headers: w.h });
    expect(put.status, put.text).toBe(204);
    const steps = [
      { type: "fill", selector: "#password", value: "{{secret:password}}" },
      { type: "click", text: "Missing button" },
    ];
    const aPricing = await w.page(a, { path: "/pricing", role: "pricing", steps });
    await w.page(b, { path: "/pricing", role: "pricing" });
    const asked: unknown[] = [];
    // Alpha's pricing page stops at its second step, with a screenshot of where (as the capture answers since steps).
    const tools = w.t.tools!;
    const capture = tools.capture!;
    tools.capture = async (ownerId, job, onStage) => {
      if (!("steps" in job)) return capture(ownerId, job, onStage);
      asked.push(job);
      const { writeFileSync } = await import("node:fs");
      const { pngBytes } = await import("#tests/api/comparisons-support");
      writeFileSync(job.screenshotPath, pngBytes(30, 20, [0, 0, 0]));
      const step = { index: 2, error: "No element with the text “Missing button”" };
      return { ok: false, reason: `Step 2: ${step.error}`, step, screenshotPath: job.screenshotPath } as Awaited<
        ReturnType<typeof capture>
      >;
    };
    await w.t.call("POST", `/api/comparisons/${w.c.id}/start`, { headers: w.h });
    await w.t.services.comparisons.whenIdle();
    expect((await w.get()).status).toBe("completed");
    expect(asked).toHaveLength(2);
    for (const j of asked) expect(j).toMatchObject({ steps, secrets: { password: "hunter2-secret" }, siteOrigin: "http://127.0.0.1:9" });

    const snapshots = (await w.get("/snapshots")) as {
      id: string;
      pageId: string;
      step: unknown;
      extraction: unknown;
      screenshotUrl: string;
    }[];
    const stopped = snapshots.filter((s) => s.pageId === aPricing);
    expect(stopped).toHaveLength(2);
    for (const s of stopped) {
      expect(s.step).toEqual({ index: 2, error: "No element with the text “Missing button”" });
      expect(s.extraction).toBeNull();
      const img = await w.t.call("GET", s.screenshotUrl, { headers: w.h });
      expect(img.status).toBe(200);
    }
    expect(snapshots.filter((s) => s.step === null)).toHaveLength(6);
    // Pricing has one measured page: no pair; home is paired as usual.
    const diffs = (await w.get("/diffs")) as { role: string }[];
    expect(diffs.map((d) => d.role)).toEqual(["home", "home"]);
    const findings = (await w.get("/findings")) as { pageId: string }[];
    expect(findings.some((f) => f.pageId === aPricing)).toBe(false);
    // The site still counts as captured (its home page was).
    const targets = await w.get("/targets");
    expect(targets.map((t: { status: string }) => t.status)).toEqual(["completed", "completed"]);
    // The secret's value is in no answer.
    for (const path of ["", "/snapshots", "/diffs", "/findings", "/targets", "/runs"])
      expect(JSON.stringify(await w.get(path))).not.toContain("hunter2-secret");
  });
});

describe("a run of many pages", () => {
  test("hands the capture pool 20 pages at a time, so its owner's share of the queue never overflows", async () => {
    const w = await world();
    for (const [url, label] of [
      [A, "Alpha"],
      [B, "Beta"],
      [C, "Gamma"],
    ] as const) {
      const id = await w.site(url, label);
      for (const role of ["pricing", "features", "signup"]) await w.page(id, { path: `/${role}`, role });
    }
    await w.t.call("PATCH", `/api/comparisons/${w.c.id}`, { body: { colorSchemes: ["light", "dark"] }, headers: w.h });
    const tools = w.t.tools!;
    const capture = tools.capture!;
    let inFlight = 0;
    let most = 0;
    tools.capture = async (ownerId, job, onStage) => {
      most = Math.max(most, ++inFlight);
      try {
        // Held until the pool has 20 in hand (or a second passed: the last few pages), so the count
        // does not turn on how fast the database writes each page's outcome.
        for (let i = 0; i < 50 && inFlight < 20; i++) await Bun.sleep(20);
        return await capture(ownerId, job, onStage);
      } finally {
        inFlight--;
      }
    };
    const r = await w.t.call("POST", `/api/comparisons/${w.c.id}/start`, { headers: w.h });
    expect(r.json.progress.total).toBe(48);
    await w.t.services.comparisons.whenIdle();
    expect(await w.get()).toMatchObject({ status: "completed", progress: { done: 48, total: 48 } });
    expect(most).toBe(20);
    // 4 roles × 2 viewports × 2 schemes, 3 pairs each.
    expect(await w.get("/diffs")).toHaveLength(48);
  });
});

describe("changes between runs over pages", () => {
  test("each page is compared with its own earlier capture, in its scheme: a pricing change is the pricing page's, nothing crosses pages", async () => {
    const sites: Parameters<typeof fakeRunTools>[0] = {};
    const dataDir = mkdtempSync(join(tmpdir(), "di-pages-changes-"));
    dirs.push(dataDir);
    const fake = fakeRunTools(sites);
    const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" }, runTools: fake.tools });
    const u = await t.signup();
    const h = t.auth(u.token);
    const c = (await t.call("POST", "/api/comparisons", { body: { name: "Watch" }, headers: h })).json;
    const ids: string[] = [];
    for (const [url, label] of [
      [A, "Alpha"],
      [B, "Beta"],
    ])
      ids.push((await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: h })).json.id);
    const pricing = (await t.call("POST", `/api/targets/${ids[0]}/pages`, { body: { path: "/pricing", role: "pricing" }, headers: h })).json
      .id;
    await t.call("POST", `/api/targets/${ids[1]}/pages`, { body: { path: "/pricing", role: "pricing" }, headers: h });
    await t.call("PATCH", `/api/comparisons/${c.id}`, { body: { colorSchemes: ["light", "dark"] }, headers: h });
    const run = async () => {
      expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
      await t.services.comparisons.whenIdle();
    };
    await run();
    sites[`${A}pricing`] = { title: "Alpha pricing, new plans" };
    await run();

    // By default the changes API lists the home pages' changes in light (what it listed before pages): none here.
    const homeLight = (await t.call("GET", `/api/comparisons/${c.id}/changes`, { headers: h })).json;
    expect(homeLight.targets.flatMap((x: { changes: unknown[] }) => x.changes)).toEqual([]);
    const changes = (await t.call("GET", `/api/comparisons/${c.id}/changes?page=all&colorScheme=all`, { headers: h })).json;
    const [alpha, beta] = changes.targets;
    expect(beta.changes).toEqual([]);
    expect(alpha.changes.length).toBeGreaterThan(0);
    // Only Alpha's pricing page changed, in both schemes and at both viewports; its home page did not.
    for (const ch of alpha.changes) expect(ch).toMatchObject({ pageId: pricing, role: "pricing", path: "/pricing" });
    const pricingDark = (await t.call("GET", `/api/comparisons/${c.id}/changes?page=pricing&colorScheme=dark`, { headers: h })).json;
    expect(pricingDark.targets[0].changes.length).toBe(alpha.changes.length / 2);
    expect(new Set(alpha.changes.map((ch: { colorScheme: string; viewport: string }) => `${ch.colorScheme} ${ch.viewport}`))).toEqual(
      new Set(["light desktop", "light mobile", "dark desktop", "dark mobile"]),
    );
    const runs = (await t.call("GET", `/api/comparisons/${c.id}/runs`, { headers: h })).json;
    expect(runs[0].changeCount).toBe(alpha.changes.length);
  });
});
