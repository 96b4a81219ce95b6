// Spec §3 and §7 details beyond the feature suites: targets come back in the order they
// were added, the A/B test lists the dashboard reads, and the agents' list limits.
import { describe, expect, test } from "bun:test";
import { makeTestApp } from "#tests/support/app";

describe("§3/§7 reads", () => {
  test("targets are listed in the order they were added (createdAt), whatever their labels", async () => {
    // Loopback addresses need no DNS; the SSRF guard lets them through only with this flag.
    const t = makeTestApp({ env: { ALLOW_PRIVATE_TARGETS: "1" } });
    const u = await t.signup();
    const h = t.auth(u.token);
    const c = await t.call("POST", "/api/comparisons", { body: { name: "Order check", description: "" }, headers: h });
    // (No asymmetric matchers here: Bun's toMatchObject writes them back into the object.)
    const id = c.json.id as string;
    expect(typeof id).toBe("string");
    expect(c.json.name).toBe("Order check");
    for (const [url, label] of [
      ["http://127.0.0.1:8081/", "Zulu"],
      ["http://127.0.0.1:8082/", "Alpha"],
      ["http://127.0.0.1:8083/", "Mike"],
    ])
      expect((await t.call("POST", `/api/comparisons/${id}/targets`, { body: { url, label }, headers: h })).status).toBe(201);
    const list = await t.call("GET", `/api/comparisons/${id}/targets`, { headers: h });
    expect(list.json.map((x: { label: string }) => x.label)).toEqual(["Zulu", "Alpha", "Mike"]);
    for (const target of list.json)
      expect(Object.keys(target)).toEqual(expect.arrayContaining(["id", "label", "url", "status", "createdAt"]));
  });

  test("GET /api/tests?status=active and ?status=completed&limit=10 answer lists; other statuses are a 400", async () => {
    const t = makeTestApp();
    const u = await t.signup();
    const h = t.auth(u.token);
    for (const q of ["status=active", "status=completed&limit=10"]) {
      const r = await t.call("GET", `/api/tests?${q}`, { headers: h });
      expect(r.status).toBe(200);
      expect(Array.isArray(r.json)).toBe(true);
    }
    const bad = await t.call("GET", "/api/tests?status=paused", { headers: h });
    expect(bad.status).toBe(400);
    expect(typeof bad.json.error).toBe("string");
    expect((await t.call("GET", "/api/tests?status=active")).status).toBe(401);
  });

  test("the list limits the pages use are accepted: trends 20, components 10, activity 50 and 100", async () => {
    const t = makeTestApp();
    const u = await t.signup();
    const h = t.auth(u.token);
    for (const path of [
      "/api/trends?limit=20",
      "/api/components?limit=10",
      "/api/activity?limit=50",
      "/api/activity?limit=100",
      "/api/metrics",
      "/api/system/status",
    ]) {
      const r = await t.call("GET", path, { headers: h });
      expect(r.status).toBe(200);
    }
    expect((await t.call("GET", "/api/system/status", { headers: h })).json).toMatchObject({ isActive: false });
    expect((await t.call("GET", "/api/metrics", { headers: h })).json).toMatchObject({
      totalTrends: 0,
      totalComponents: 0,
      activeTests: 0,
    });
  });
});
