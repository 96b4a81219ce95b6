// Route-level code splitting as served: every page preloads its own chunk and no other page's,
// the marketing pages boot their light entry and carry none of the app's code, `/` stays within
// the budget, and the gzip JavaScript each page downloads is printed (bench/route-js.bench.ts
// prints the same table on its own).
import { describe, expect, test } from "bun:test";
import { clientManifest } from "#server/ssr/assets";
import { makeTestApp } from "#tests/support/app";
import { APP_PAGES, LANDING_JS_BUDGET_BYTES, MARKETING_PAGES, PUBLIC_PAGES, routeJs } from "#tests/support/route-js";

const t = makeTestApp();
const admin = await t.signup();
const comparison = (await t.call("POST", "/api/comparisons", { headers: t.auth(admin.token), body: { name: "Chunks" } })).json.id as string;
const own = (id: string) => clientManifest.routes[id]![0]!;
const pageChunks = new Set(Object.keys(clientManifest.routes).map(own));

const ID_OF: Record<string, string> = { "/": "landing", "/no-such-page": "not-found" };
const idOf = (path: string) => ID_OF[path] ?? (path.includes("/view") ? "comparison-view" : path.slice(1));

/** A message React Router's bundle always carries: a file holding it holds the router. */
const REACT_ROUTER_MARK = "You cannot render a <Router> inside another <Router>";
const served = async (file: string) => (await t.app.handle(new Request(`http://localhost${file}`))).text();

describe("route chunks", () => {
  const pages = [
    ...PUBLIC_PAGES.map((p) => ({ p, signedIn: false })),
    ...MARKETING_PAGES.map((p) => ({ p, signedIn: true })),
    ...[...APP_PAGES, `/comparison/${comparison}/view`].map((p) => ({ p, signedIn: true })),
  ];

  test("each page preloads the entry it boots, its own chunk and no other page's", async () => {
    const rows: string[] = [];
    for (const { p, signedIn } of pages) {
      const r = await routeJs(t, p, signedIn ? admin.cookie : undefined);
      const marketing = MARKETING_PAGES.includes(p);
      const mine = [own(idOf(p)), ...(signedIn && !marketing ? [own("app-layout")] : [])];
      for (const chunk of mine) expect(r.files).toContain(chunk);
      expect(r.files.filter((f) => pageChunks.has(f) && !mine.includes(f))).toEqual([]);
      expect(r.files).toContain(marketing ? clientManifest.marketing.entry : clientManifest.entry);
      expect(r.files).not.toContain(marketing ? clientManifest.entry : clientManifest.marketing.entry);
      rows.push(
        `${p.padEnd(24)} ${(r.gzipBytes / 1024).toFixed(1).padStart(7)} KiB gzip JS in ${r.files.length} files${signedIn ? " (signed in)" : ""}`,
      );
    }
    console.log(rows.join("\n"));
  });

  test("the marketing pages download none of the app's code, and `/` at most 120 KB of it", async () => {
    // The mark is there to find: the app's pages do load the router.
    const app = await routeJs(t, "/dashboard", admin.cookie);
    expect((await Promise.all(app.files.map(served))).some((text) => text.includes(REACT_ROUTER_MARK))).toBe(true);
    for (const cookie of [undefined, admin.cookie]) {
      for (const p of MARKETING_PAGES) {
        const r = await routeJs(t, p, cookie);
        // Neither the app's entry nor React Router (the data router and what it brings).
        expect(r.files).not.toContain(clientManifest.entry);
        for (const f of r.files) expect(await served(f)).not.toContain(REACT_ROUTER_MARK);
        expect(r.gzipBytes).toBeLessThanOrEqual(LANDING_JS_BUDGET_BYTES);
      }
    }
    // Sign-in and sign-up run on the app's entry; one bundle for everything was 251 KB gzip.
    for (const p of PUBLIC_PAGES.filter((x) => !MARKETING_PAGES.includes(x)))
      expect((await routeJs(t, p)).gzipBytes).toBeLessThan(200 * 1024);
  });
});
