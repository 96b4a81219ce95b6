// Spec §2 route list and §6 permissions, as the server renders them: every guarded page shows the
// guard to visitors and its own page to users; public pages never guard; a missing (or someone
// else's) comparison is 'Comparison Not Found'.
import { describe, expect, test } from "bun:test";
import { makeTestApp } from "#tests/support/app";

const GUARD = "Hold Up There, Digital Wanderer";
const PUBLIC = ["/", "/login", "/signup", "/pricing", "/features"];
/** Guarded path and the <title> its page renders for a signed-in user. */
const GUARDED: [string, string][] = [
  ["/dashboard", "Mission Control"],
  ["/comparison", "Comparisons"],
  ["/super-admin", "Super Admin"],
  ["/trends", "Trends"],
  ["/analytics", "Analytics"],
  ["/activity", "Activity"],
  ["/tests", "A/B Testing"],
  ["/generate", "Generate Components"],
  ["/settings", "Settings"],
];

describe("§2 routes", () => {
  const t = makeTestApp();

  test("public pages render for visitors without the guard", async () => {
    for (const path of PUBLIC) {
      const r = await t.call("GET", path);
      expect(r.status).toBe(200);
      expect(r.text).not.toContain(GUARD);
    }
  });

  test("every guarded page shows the guard to visitors, with its three ways out", async () => {
    for (const path of [...GUARDED.map(([p]) => p), "/comparison/some-id/view"]) {
      const r = await t.call("GET", path);
      // The results page too: a visitor gets the guard, and the page they get answers 200 (issue 14:
      // no failed request on a signed-out load); its data stays nobody's.
      expect(r.status).toBe(200);
      expect(r.text).toContain(GUARD);
      expect(r.text).toContain('href="/login"');
      expect(r.text).toContain('href="/signup"');
      expect(r.text).toMatch(/href="\/"[^>]*>Back to the homepage/);
    }
  });

  test("signed in, every guarded page renders itself inside the shell", async () => {
    const { cookie } = await t.signup();
    for (const [path, title] of GUARDED) {
      const r = await t.call("GET", path, { headers: { cookie } });
      expect(r.status).toBe(200);
      expect(r.text).not.toContain(GUARD);
      expect(r.text).toContain(`<title>${title} · Design Intel</title>`);
      // Exactly one <main>: the shell's (spec: pages inside the shell don't add another).
      expect(r.text.match(/<main[\s>]/g)?.length).toBe(1);
    }
  });

  test("a comparison that doesn't exist, or isn't yours, is 'Comparison Not Found' with a 404", async () => {
    const owner = await t.signup();
    const other = await t.signup();
    const c = await t.call("POST", "/api/comparisons", { body: { name: "Mine" }, headers: t.auth(owner.token) });
    expect(c.status).toBe(201);
    for (const [who, id] of [
      [owner, "no-such-comparison"],
      [other, c.json.id as string],
    ] as const) {
      const r = await t.call("GET", `/comparison/${id}/view`, { headers: { cookie: who.cookie } });
      expect(r.status).toBe(404);
      expect(r.text).toContain("Comparison Not Found");
      expect(r.text).toContain("The comparison you&#x27;re looking for doesn&#x27;t exist.");
      expect(r.text).toContain("Back to Comparisons");
      expect(r.text).not.toContain("Mine");
    }
    const mine = await t.call("GET", `/comparison/${c.json.id}/view`, { headers: { cookie: owner.cookie } });
    expect(mine.status).toBe(200);
    expect(mine.text).toContain("<title>Mine · Results · Design Intel</title>");
    expect(mine.text).toContain("Not enough snapshots");
    expect(mine.text).toContain("Start the analysis to generate comparison data.");
  });

  test("any other path is the 404 page titled '404 Page Not Found', signed in or not", async () => {
    const { cookie } = await t.signup();
    for (const headers of [{}, { cookie }] as Record<string, string>[]) {
      const r = await t.call("GET", "/comparison/x/y/z", { headers });
      expect(r.status).toBe(404);
      expect(r.text).toContain("<title>404 Page Not Found · Design Intel</title>");
    }
  });
});
