// Change detection wired into real runs: the capture pool drives system Chromium against a site
// on 127.0.0.1 whose content the test switches between two runs. The second run's completion
// finds the changes against the first and stores them; the API reads them back, and the
// unchanged site in the same runs reports none.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { findChromium } from "#server/lib/chromium";
import { CapturePool } from "#server/modules/capture/browser/pool";
import { makeTestApp } from "#tests/support/app";
import { TEST_TIMING_SAMPLES } from "#tests/support/server";

setDefaultTimeout(240_000);

const state = { headline: "Ship faster with Alpha", cta: "Start free trial", brand: "#2563eb", pricing: true };

const page = (title: string, hero: string, sections: string, css = "") => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>${title}</title><meta name="description" content="${title}: a fixture for run history.">
<style>
body{margin:0;font-family:sans-serif;color:#111827;background:#fff}
header{display:flex;justify-content:space-between;align-items:center;height:72px;padding:0 48px;border-bottom:1px solid #e5e7eb}
header nav a{margin-left:24px;color:#374151;text-decoration:none}
.hero{padding:120px 48px;text-align:center;background:#f8fafc}
h1{font-size:52px;margin:0 0 16px}
.btn{display:inline-block;padding:14px 28px;border-radius:8px;color:#fff;text-decoration:none;font-weight:600}
.btn.dark{background:#111827}
section{padding:80px 48px;min-height:320px;box-sizing:border-box}
footer{padding:48px;background:#0f172a;color:#cbd5e1}
${css}
</style></head><body>
<header><strong>${title}</strong><nav><a href="/docs">Docs</a><a href="/pricing">Pricing</a></nav></header>
<div class="hero">${hero}</div>
${sections}
<footer><p>© ${title} Inc.</p></footer>
</body></html>`;

const alpha = () =>
  page(
    "Alpha",
    `<h1>${state.headline}</h1><p>The deployment platform for small teams.</p><a class="btn primary" href="/signup">${state.cta}</a>`,
    `<section><h2>Features</h2><p>Every branch gets its own URL. One click back to any deploy.</p></section>
${state.pricing ? `<section style="background:#eef2ff"><h2>Pricing</h2><p>Free for hobby projects, 20 dollars per seat for teams.</p><a class="btn dark" href="/sales">Talk to sales</a></section>` : ""}
<section><h2>Customers</h2><p>Teams at 4,000 companies deploy with Alpha every day.</p></section>`,
    `.btn.primary{background:${state.brand}}`,
  );

const steady = () =>
  page(
    "Steady",
    `<h1>Coffee roasted over fire</h1><p>Small batches, shipped on Mondays.</p><a class="btn dark" href="/shop">Shop beans</a>`,
    `<section><h2>Our farms</h2><p>We buy from the same twelve farms every year.</p></section>`,
  );

let server: ReturnType<typeof Bun.serve>;
let pool: CapturePool;
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "di-changes-real-"));
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const html = { "/alpha": alpha, "/steady": steady }[new URL(req.url).pathname];
      if (!html) return new Response("not here", { status: 404 });
      return new Response(html(), { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
    },
  });
  pool = new CapturePool({
    // One browser: a second (a worker and a Chromium, over a CPU-second to start) only overlapped
    // these runs' four pages, on a machine whose two cores the other test files keep busy.
    concurrency: 1,
    chromiumPath: findChromium(process.env.CHROMIUM_PATH),
    allowPrivate: true,
    timingSamples: Number(TEST_TIMING_SAMPLES),
  });
});

afterAll(async () => {
  await pool?.close();
  server?.stop(true);
  rmSync(dataDir, { recursive: true, force: true });
});

test("two real runs: CTA text, brand colour, a removed section and the headline are reported with their values; the unchanged site reports none", async () => {
  const t = makeTestApp({
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" },
    runTools: { capture: (owner, job, onStage) => pool.submit(owner, job, onStage) },
  });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Watch" }, headers: h })).json;
  const origin = `http://127.0.0.1:${server.port}`;
  const a = (await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url: `${origin}/alpha`, label: "Alpha" }, headers: h }))
    .json;
  const s = (await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url: `${origin}/steady`, label: "Steady" }, headers: h }))
    .json;
  const run = async () => {
    expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
    await t.services.comparisons.whenIdle();
    const done = (await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json;
    expect({ status: done.status, error: done.error }).toEqual({ status: "completed", error: null });
  };

  await run();
  Object.assign(state, { headline: "Deploy in seconds", cta: "Book a demo", brand: "#dc2626", pricing: false });
  await run();

  const runs = (await t.call("GET", `/api/comparisons/${c.id}/runs`, { headers: h })).json;
  expect(runs.map((r: any) => r.number)).toEqual([2, 1]);
  expect(runs[1].changeCount).toBeNull(); // the first run had nothing to compare with

  const res = await t.call("GET", `/api/comparisons/${c.id}/changes`, { headers: h });
  expect(res.status).toBe(200);
  const body = res.json;
  expect(body.from).toBe(runs[1].id);
  expect(body.to).toBe(runs[0].id);
  expect(body.targets.map((x: any) => [x.targetId, x.label, x.url])).toEqual([
    [a.id, "Alpha", a.url],
    [s.id, "Steady", s.url],
  ]);
  const [alphaChanges, steadyChanges] = body.targets.map((x: any) => x.changes);
  expect(steadyChanges).toEqual([]);
  expect(runs[0].changeCount).toBe(alphaChanges.length);

  const desktop = alphaChanges.filter((x: any) => x.viewport === "desktop");
  const brief = (x: any) => ({ kind: x.kind, before: x.before, after: x.after });
  expect(desktop.map(brief)).toContainEqual({ kind: "copy", before: "Ship faster with Alpha", after: "Deploy in seconds" });
  expect(desktop.map(brief)).toContainEqual({ kind: "cta", before: "Start free trial", after: "Book a demo" });
  expect(desktop.filter((x: any) => x.kind === "palette").map((x: any) => [x.before, x.after])).toContainEqual(["#2563eb", "#dc2626"]);
  const removed = desktop.filter((x: any) => x.kind === "layout" && x.after === null);
  expect(removed.map((x: any) => x.summary)).toContainEqual(expect.stringMatching(/^Removed: Section “Pricing”/));
  expect(desktop.some((x: any) => x.kind === "visual")).toBe(true);
  for (const x of alphaChanges) {
    expect(["low", "medium", "high"]).toContain(x.severity);
    expect(x.summary).toBeString();
  }
  expect(alphaChanges.some((x: any) => x.viewport === "mobile")).toBe(true);

  // Asked for explicitly, or found again on request (no stored rows), the answer is the same.
  expect((await t.call("GET", `/api/comparisons/${c.id}/changes?from=${runs[1].id}&to=${runs[0].id}`, { headers: h })).json).toEqual(body);
  t.db.query("UPDATE runs SET change_count = NULL").run();
  t.db.query("DELETE FROM run_changes").run();
  expect((await t.call("GET", `/api/comparisons/${c.id}/changes`, { headers: h })).json).toEqual(body);

  // The heat map: a PNG as wide as the desktop page, by bearer or session cookie.
  const visual = await t.app.handle(
    new Request(`http://localhost/api/comparisons/${c.id}/changes/visual?targetId=${a.id}&viewport=desktop`, {
      headers: { cookie: u.cookie },
    }),
  );
  expect(visual.status).toBe(200);
  expect(visual.headers.get("content-type")).toBe("image/png");
  const png = PNG.sync.read(Buffer.from(await visual.arrayBuffer()));
  expect(png.width).toBe(1440);
  expect(png.height).toBeGreaterThan(900);
});
