// Spec §1-§3 marketing copy as the server renders it: the pitch, the agents and their jobs, the
// plan tiers in full, the claims and stats, and the playful tone.
import { describe, expect, test } from "bun:test";
import { makeTestApp } from "#tests/support/app";

const t = makeTestApp();
const page = async (path: string) => {
  const r = await t.call("GET", path);
  expect(r.status).toBe(200);
  // Text nodes only, entities decoded, so phrases split by markup still match.
  return r.text
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
};

describe("§1 what the product says about itself", () => {
  test("landing: design, UX, copy and timing compared, AI models give specific fixes; 'Crash the Beta' and 'Join the Rebellion'", async () => {
    const text = await page("/");
    expect(text).toContain("design, UX, copy and timing");
    expect(text).toContain("AI models hand you specific fixes");
    expect(text).toContain("Crash the Beta");
    expect(text).toContain("Join the Rebellion");
    // Tools section with three cards, a stats row, the three steps.
    for (const s of ["Side-by-side teardown", "Design DNA extraction", "Evidence-backed fixes", "50K+", "1M+", "99.9%", "24/7"])
      expect(text).toContain(s);
    for (const s of ["Websites analyzed", "Insights generated", "Uptime", "Monitoring"]) expect(text).toContain(s);
  });

  test("features: the four agents and their jobs, six features, tech stack, benefits, Start Free Beta twice", async () => {
    const text = await page("/features");
    for (const [agent, job] of [
      ["TrendHunter", "Trend discovery"],
      ["DesignNinja", "Component generation"],
      ["TestCommander", "A/B testing"],
      ["InsightOracle", "Analytics"],
    ])
      expect(text).toMatch(new RegExp(`${agent}.{0,40}${job}|${job}.{0,40}${agent}`));
    for (const s of [
      "Real-browser captures",
      "Palette & typography",
      "Similarity scoring",
      "Accessibility checks",
      "Live mission control",
      "Self-hosted & private",
    ])
      expect(text).toContain(s);
    for (const s of ["Bun", "Headless Chromium", "SQLite", "Ship faster", "Decide with evidence", "Stay ahead"]) expect(text).toContain(s);
    expect(text.match(/Start Free Beta/g)?.length).toBe(2);
  });

  test("pricing: Coming Soon, the claims, and each tier's features as the spec lists them", async () => {
    const text = await page("/pricing");
    for (const s of ["Coming Soon", "No hidden fees", "Cancel anytime", "14-day free trial", "Most Popular", "Custom"])
      expect(text).toContain(s);
    const tiers = {
      Starter: ["TrendHunter access", "5 trend discoveries per month", "Basic component generation", "E-mail support"],
      Professional: [
        "All 4 agents",
        "Unlimited trend discoveries",
        "Advanced component generation",
        "A/B testing",
        "Real-time analytics",
        "Priority support",
      ],
      Enterprise: [
        "Everything in Professional",
        "Custom agent training",
        "White-label",
        "Dedicated account manager",
        "SLA",
        "Custom integrations",
      ],
    };
    for (const [tier, features] of Object.entries(tiers)) {
      const from = text.indexOf(tier);
      expect(from).toBeGreaterThanOrEqual(0);
      for (const f of features) expect(text.indexOf(f, from)).toBeGreaterThan(from);
    }
    // The FAQ and a closing call to action.
    expect(text).toContain("Questions, answered");
    expect(text).toContain("Join the Beta");
  });

  test("the landing forms' e-mail fields are required e-mail inputs", async () => {
    const r = await t.call("GET", "/");
    const inputs = r.text.match(/<input[^>]*name="email"[^>]*>/g) ?? [];
    expect(inputs).toHaveLength(2);
    for (const input of inputs) {
      expect(input).toContain('type="email"');
      expect(input).toContain('required=""');
    }
  });

  test("visitor header: logo, Features, Sign In and 'Crash the Beta' — no Compare Websites", async () => {
    const r = await t.call("GET", "/features");
    const header = r.text.slice(r.text.indexOf("<header"), r.text.indexOf("</header>"));
    expect(header).toMatch(/<a class="mk-logo" href="\/"[^>]*>[\s\S]*Design Intel/);
    expect(header).toContain('href="/features"');
    expect(header).toContain('href="/login"');
    expect(header).toContain("Crash the Beta");
    expect(header).not.toContain("Compare Websites");
  });
});
