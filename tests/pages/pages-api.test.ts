// The pages of a site through app.handle: every target has its home page, pages are added on the
// site's own origin only, steps that break a rule are refused naming the step, a site holds 20
// pages at most (home counts), the home page stays, and another user's site or page is a 404.
import { describe, expect, test } from "bun:test";
import { makeTestApp } from "#tests/support/app";

const SITE = "http://127.0.0.1:9/shop/?lang=en";

async function owner(t: ReturnType<typeof makeTestApp>) {
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = await t.call("POST", "/api/comparisons", { body: { name: "Pages" }, headers: h });
  const r = await t.call("POST", `/api/comparisons/${c.json.id}/targets`, { body: { url: SITE, label: "Shop" }, headers: h });
  expect(r.status, r.text).toBe(201);
  return { h, comparisonId: c.json.id as string, targetId: r.json.id as string };
}

describe("pages of a site", () => {
  const t = makeTestApp({ env: { ALLOW_PRIVATE_TARGETS: "1" } });

  test("a new target has its home page: the URL's path, role home, no steps", async () => {
    const a = await owner(t);
    const r = await t.call("GET", `/api/targets/${a.targetId}/pages`, { headers: a.h });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual([{ id: expect.any(String), targetId: a.targetId, path: "/shop/?lang=en", url: SITE, role: "home", steps: [] }]);
  });

  test("pages are added as a path or a URL of the site's origin, listed home first then in order; another origin is a 400", async () => {
    const a = await owner(t);
    const add = (body: unknown) => t.call("POST", `/api/targets/${a.targetId}/pages`, { body, headers: a.h });
    const pricing = await add({ path: "/pricing", role: "pricing" });
    expect(pricing.status, pricing.text).toBe(201);
    expect(pricing.json).toMatchObject({ path: "/pricing", url: "http://127.0.0.1:9/pricing", role: "pricing", steps: [] });
    const features = await add({ path: "http://127.0.0.1:9/features?x=1", role: "features" });
    expect(features.status, features.text).toBe(201);
    expect(features.json.path).toBe("/features?x=1");
    const relative = await add({ path: "signup", role: "signup" });
    expect(relative.json.path).toBe("/signup");

    for (const path of ["https://evil.example/pricing", "//evil.example/x", "http://127.0.0.1:10/pricing", "javascript:alert(1)"]) {
      const r = await add({ path, role: "other" });
      expect(r.status, path).toBe(400);
      expect(r.json.error).toContain("origin");
    }
    expect((await add({ path: "/pricing", role: "pricing" })).status).toBe(409);
    expect((await add({ path: "/x", role: "landing" })).status).toBe(400);

    const list = await t.call("GET", `/api/targets/${a.targetId}/pages`, { headers: a.h });
    expect(list.json.map((p: { role: string }) => p.role)).toEqual(["home", "pricing", "features", "signup"]);
  });

  test("steps are checked when saved: the error names the step", async () => {
    const a = await owner(t);
    const add = (steps: unknown) =>
      t.call("POST", `/api/targets/${a.targetId}/pages`, { body: { path: "/app", role: "other", steps }, headers: a.h });
    const cases: [unknown, string][] = [
      [[{ type: "click", text: "Plans" }, { type: "dance" }], "Step 2: "],
      [
        [
          { type: "wait", ms: 100 },
          { type: "wait", ms: 100 },
          { type: "wait", ms: 60_000 },
        ],
        "Step 3: ",
      ],
      [[{ type: "fill", selector: "#email" }], "Step 1: a fill needs a value"],
      [[{ type: "click" }], "Step 1: a click needs a selector or a text"],
      [[{ type: "scroll" }, { type: "goto", url: "https://evil.example/" }], "Step 2: a goto stays on the site (http://127.0.0.1:9)"],
      [[{ type: "click", text: "x", extra: 1 }], "Step 1: "],
      [Array.from({ length: 21 }, () => ({ type: "scroll" })), "at most 20 steps"],
    ];
    for (const [steps, message] of cases) {
      const r = await add(steps);
      expect(r.status, JSON.stringify(steps)).toBe(400);
      expect(r.json.error).toContain(message);
    }
    const ok = await add([
      { type: "click", text: "Accept" },
      { type: "fill", selector: "#email", value: "me@example.com" },
      { type: "fill", selector: "#password", value: "{{secret:password}}" },
      { type: "press", value: "Enter" },
      { type: "wait", selector: ".dashboard" },
      { type: "goto", url: "/app/billing" },
      { type: "hide", selector: ".chat-widget" },
    ]);
    expect(ok.status, ok.text).toBe(201);
    expect(ok.json.steps).toHaveLength(7);
    const bad = await t.call("PATCH", `/api/pages/${ok.json.id}`, {
      body: { steps: [{ type: "goto", url: "http://elsewhere.example/" }] },
      headers: a.h,
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toStartWith("Step 1:");
  });

  test("PATCH changes path, role and steps; the home page keeps its role and cannot be deleted", async () => {
    const a = await owner(t);
    const [home] = (await t.call("GET", `/api/targets/${a.targetId}/pages`, { headers: a.h })).json;
    const p = await t.call("POST", `/api/targets/${a.targetId}/pages`, { body: { path: "/blog", role: "blog" }, headers: a.h });
    const patched = await t.call("PATCH", `/api/pages/${p.json.id}`, {
      body: { path: "/docs", role: "docs", steps: [{ type: "scroll" }] },
      headers: a.h,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({ path: "/docs", role: "docs", steps: [{ type: "scroll" }] });
    expect((await t.call("PATCH", `/api/pages/${p.json.id}`, { body: {}, headers: a.h })).status).toBe(400);

    expect((await t.call("PATCH", `/api/pages/${home.id}`, { body: { role: "pricing" }, headers: a.h })).status).toBe(409);
    const homeSteps = await t.call("PATCH", `/api/pages/${home.id}`, {
      body: { steps: [{ type: "hide", selector: "#chat" }] },
      headers: a.h,
    });
    expect(homeSteps.status, homeSteps.text).toBe(200);
    const del = await t.call("DELETE", `/api/pages/${home.id}`, { headers: a.h });
    expect(del.status).toBe(409);
    expect(del.json.error).toContain("home page");

    expect((await t.call("DELETE", `/api/pages/${p.json.id}`, { headers: a.h })).status).toBe(204);
    expect((await t.call("DELETE", `/api/pages/${p.json.id}`, { headers: a.h })).status).toBe(404);
  });

  test("a site has at most 20 pages, its home page included", async () => {
    const a = await owner(t);
    for (let i = 1; i < 20; i++) {
      const r = await t.call("POST", `/api/targets/${a.targetId}/pages`, { body: { path: `/p${i}`, role: "other" }, headers: a.h });
      expect(r.status, r.text).toBe(201);
    }
    const over = await t.call("POST", `/api/targets/${a.targetId}/pages`, { body: { path: "/p20", role: "other" }, headers: a.h });
    expect(over.status).toBe(409);
    expect(over.json.error).toContain("20 pages");
  });

  test("another user's site and pages are 404, and anonymous callers 401", async () => {
    const a = await owner(t);
    const b = await owner(t);
    const p = await t.call("POST", `/api/targets/${a.targetId}/pages`, { body: { path: "/pricing", role: "pricing" }, headers: a.h });
    const calls: [string, string, unknown?][] = [
      ["GET", `/api/targets/${a.targetId}/pages`],
      ["POST", `/api/targets/${a.targetId}/pages`, { path: "/x", role: "other" }],
      ["PATCH", `/api/pages/${p.json.id}`, { role: "docs" }],
      ["DELETE", `/api/pages/${p.json.id}`],
    ];
    for (const [method, path, body] of calls) {
      const stranger = await t.call(method, path, { body, headers: b.h });
      expect(stranger.status, `${method} ${path}`).toBe(404);
      expect(typeof stranger.json.error).toBe("string");
      expect((await t.call(method, path, { body })).status).toBe(401);
    }
    expect((await t.call("GET", `/api/targets/${a.targetId}/pages`, { headers: a.h })).json).toHaveLength(2);
  });

  test("the comparison's colour schemes: light by default, PATCH to light and dark; anything else is a 400", async () => {
    const a = await owner(t);
    const c = await t.call("GET", `/api/comparisons/${a.comparisonId}`, { headers: a.h });
    expect(c.json.colorSchemes).toEqual(["light"]);
    const dark = await t.call("PATCH", `/api/comparisons/${a.comparisonId}`, { body: { colorSchemes: ["light", "dark"] }, headers: a.h });
    expect(dark.status, dark.text).toBe(200);
    expect(dark.json.colorSchemes).toEqual(["light", "dark"]);
    for (const bad of [["dark"], [], ["light", "light"], ["light", "sepia"], "dark"]) {
      const r = await t.call("PATCH", `/api/comparisons/${a.comparisonId}`, { body: { colorSchemes: bad }, headers: a.h });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await t.call("GET", `/api/comparisons/${a.comparisonId}`, { headers: a.h })).json.colorSchemes).toEqual(["light", "dark"]);
  });
});
