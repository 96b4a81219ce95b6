// Pages per site in real Chromium: two fixture sites, each with a home and a pricing page, captured
// light and dark (prefers-color-scheme through the browser context). Diffs pair pricing with
// pricing and home with home, per viewport and scheme; the dark captures are dark.
import { expect, test } from "bun:test";
import { makeTestApp } from "#tests/support/app";
import { useRealRunTools } from "#tests/support/real-run-tools";

const real = useRealRunTools("pages-real");

interface Snap {
  id: string;
  targetId: string;
  pageId: string;
  role: string;
  path: string;
  colorScheme: string;
  viewport: string;
  title: string;
  colors: string[];
  extraction: { finalUrl: string; palette: { isDark: boolean } };
}

test("2 sites × home and pricing × light and dark: snapshots by page and scheme, diffs per role", async () => {
  const t = makeTestApp({ env: { DATA_DIR: real.dataDir, ALLOW_PRIVATE_TARGETS: "1" }, runTools: real.runTools() });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "North vs South" }, headers: h })).json;
  const site = async (path: string, label: string) => {
    const r = await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url: real.fixtures.url(path), label }, headers: h });
    expect(r.status, r.text).toBe(201);
    const pricing = await t.call("POST", `/api/targets/${r.json.id}/pages`, {
      body: { path: `${path}pricing/`, role: "pricing" },
      headers: h,
    });
    expect(pricing.status, pricing.text).toBe(201);
    return { id: r.json.id as string, pricing: pricing.json.id as string };
  };
  const north = await site("/pages-north/", "North");
  const south = await site("/pages-south/", "South");
  const patched = await t.call("PATCH", `/api/comparisons/${c.id}`, { body: { colorSchemes: ["light", "dark"] }, headers: h });
  expect(patched.json.colorSchemes).toEqual(["light", "dark"]);

  expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
  await t.services.comparisons.whenIdle();
  const done = (await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json;
  expect(done).toMatchObject({ status: "completed", error: null, progress: { done: 16, total: 16 } });

  const snaps = (await t.call("GET", `/api/comparisons/${c.id}/snapshots`, { headers: h })).json as Snap[];
  expect(snaps.map((s) => `${s.targetId === north.id ? "north" : "south"} ${s.role} ${s.colorScheme} ${s.viewport}`)).toEqual(
    ["north", "south"].flatMap((who) =>
      ["home", "pricing"].flatMap((role) =>
        ["light", "dark"].flatMap((scheme) => ["desktop", "mobile"].map((v) => `${who} ${role} ${scheme} ${v}`)),
      ),
    ),
  );
  for (const s of snaps) {
    // Each page is what was captured: the pricing page's own title and address.
    expect(s.title.includes("pricing")).toBe(s.role === "pricing");
    expect(s.extraction.finalUrl.endsWith(s.path)).toBe(true);
    // The dark variant is dark (its own background), the light one is not.
    expect(s.extraction.palette.isDark, `${s.role} ${s.colorScheme} ${s.viewport}`).toBe(s.colorScheme === "dark");
  }
  const light = snaps.find((s) => s.role === "home" && s.colorScheme === "light" && s.viewport === "desktop")!;
  const dark = snaps.find((s) => s.pageId === light.pageId && s.colorScheme === "dark" && s.viewport === "desktop")!;
  expect(dark.colors[0]).not.toBe(light.colors[0]);

  // One pair per role, viewport and scheme; pricing is scored against pricing.
  const diffs = (await t.call("GET", `/api/comparisons/${c.id}/diffs`, { headers: h })).json as {
    role: string;
    colorScheme: string;
    viewport: string;
    pageAId: string;
    pageBId: string;
    overallSimilarity: number;
  }[];
  expect(diffs.map((d) => `${d.role} ${d.colorScheme} ${d.viewport}`)).toEqual(
    ["home", "pricing"].flatMap((role) =>
      ["light", "dark"].flatMap((scheme) => ["desktop", "mobile"].map((v) => `${role} ${scheme} ${v}`)),
    ),
  );
  for (const d of diffs.filter((d) => d.role === "pricing")) expect([d.pageAId, d.pageBId]).toEqual([north.pricing, south.pricing]);
  for (const d of diffs) {
    expect(d.overallSimilarity).toBeGreaterThan(0);
    expect(d.overallSimilarity).toBeLessThanOrEqual(1);
  }

  // Findings name their page, role and scheme, and only pages of this run.
  const findings = (await t.call("GET", `/api/comparisons/${c.id}/findings`, { headers: h })).json as {
    pageId: string;
    role: string;
    colorScheme: string;
  }[];
  const pages = new Map(snaps.map((s) => [s.pageId, s.role]));
  for (const f of findings) {
    expect(pages.get(f.pageId)).toBe(f.role);
    expect(["light", "dark"]).toContain(f.colorScheme);
  }
}, 420_000);
