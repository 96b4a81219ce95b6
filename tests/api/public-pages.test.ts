import { describe, expect, test } from "bun:test";
import { makeTestApp } from "#tests/support/app";

// React escapes apostrophes in text, so the expected strings avoid them.
const PAGES: { path: string; title: string; strings: string[] }[] = [
  {
    path: "/",
    title: "Competitive design intelligence · Design Intel",
    strings: [
      "Crash the Beta",
      "Three tools. Zero guesswork.",
      "50K+",
      "1M+",
      "99.9%",
      "24/7",
      "Marketing figures for the Design Intel service",
      "Name your gladiators",
      "Release the robots",
      "Pocket the advantage",
      "Join the Rebellion",
      'href="/dashboard"',
      'href="/features"',
      'data-source="homepage"',
      'data-source="cta"',
    ],
  },
  {
    path: "/features",
    title: "Features · Design Intel",
    strings: ["Start Free Beta", "TrendHunter", "DesignNinja", "TestCommander", "InsightOracle", "Tech stack", "Ship faster"],
  },
  {
    path: "/pricing",
    title: "Pricing · Design Intel",
    strings: [
      "Coming Soon",
      "Starter",
      "Notify Me",
      "Most Popular",
      "Join Beta - Free",
      "Custom",
      "Contact Sales",
      "No hidden fees",
      "Cancel anytime",
      "14-day free trial",
      "Questions, answered",
      "5 trend discoveries per month",
      "Custom agent training",
    ],
  },
  {
    path: "/login",
    title: "Sign In · Design Intel",
    strings: ['type="password"', 'aria-label="Show password"', 'href="/signup"', "Back to homepage"],
  },
  {
    path: "/signup",
    title: "Join the Rebellion · Design Intel",
    strings: ['minLength="8"', "Username", "(optional)", 'aria-label="Show password"', 'href="/login"', "Back to homepage"],
  },
];

describe("public pages render on the server", () => {
  const t = makeTestApp();

  for (const page of PAGES) {
    test(`${page.path} answers 200 with its content`, async () => {
      const r = await t.call("GET", page.path);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toContain("text/html");
      expect(r.text).toContain(`<title>${page.title}</title>`);
      for (const s of page.strings) expect(r.text).toContain(s);
    });
  }

  test("the Starter button is disabled and the header offers sign-in to visitors", async () => {
    const r = await t.call("GET", "/pricing");
    expect(r.text).toMatch(/<button[^>]*disabled=""[^>]*>Notify Me<\/button>/);
    expect(r.text).toContain('href="/login"');
    expect(r.text).not.toContain("Escape");
    expect(r.text).not.toContain("Compare Websites");
  });

  test("a signed-in visitor gets the Dashboard link, their name and Escape in the header", async () => {
    const { cookie } = await t.signup("header-check@example.com");
    const r = await t.call("GET", "/features", { headers: { cookie } });
    expect(r.status).toBe(200);
    expect(r.text).toContain("header-check@example.com");
    expect(r.text).toContain("Escape");
    expect(r.text).toContain('href="/comparison"');
    expect(r.text).not.toMatch(/<button[^>]*>Crash the Beta<\/button>/);
  });

  test("an unknown page answers 404 with the not-found page", async () => {
    const r = await t.call("GET", "/no-such-page-here");
    expect(r.status).toBe(404);
    expect(r.text).toContain("404 Page Not Found");
  });
});
