import { describe, expect, test } from "bun:test";
import { DISCOVERY_USER_AGENT, ROBOTS_AGENT, siteRules } from "#server/modules/discovery/robots";

const ORIGIN = "https://acme.example";
const rules = (text: string) => siteRules(ORIGIN, { kind: "rules", text });

describe("robots.txt interpretation", () => {
  test("the * group applies when nothing names us", () => {
    const r = rules("User-agent: *\nDisallow: /private/\nDisallow: /*.pdf$\nAllow: /private/press\n");
    expect(r.allows(`${ORIGIN}/pricing`)).toBe(true);
    expect(r.allows(`${ORIGIN}/private/`)).toBe(false);
    expect(r.allows(`${ORIGIN}/private/roadmap`)).toBe(false);
    // The longest match wins (RFC 9309), wildcards and `$` work.
    expect(r.allows(`${ORIGIN}/private/press`)).toBe(true);
    expect(r.allows(`${ORIGIN}/files/a.pdf`)).toBe(false);
    expect(r.allows(`${ORIGIN}/files/a.pdf?x=1`)).toBe(true);
  });

  test("a group naming our product token replaces the * group for us", () => {
    const r = rules(`User-agent: *\nDisallow: /\n\nUser-agent: ${ROBOTS_AGENT.toLowerCase()}\nDisallow: /admin\n`);
    expect(r.allows(`${ORIGIN}/pricing`)).toBe(true);
    expect(r.allows(`${ORIGIN}/admin/users`)).toBe(false);
    const ours = rules(`User-agent: ${ROBOTS_AGENT}\nDisallow: /\n`);
    expect(ours.allows(`${ORIGIN}/`)).toBe(false);
    expect(DISCOVERY_USER_AGENT.startsWith(`${ROBOTS_AGENT}/`)).toBe(true);
  });

  test("another bot's group is not ours", () => {
    const r = rules("User-agent: OtherBot\nDisallow: /\n");
    expect(r.allows(`${ORIGIN}/anything`)).toBe(true);
  });

  test("percent-encoding is compared normalised", () => {
    const r = rules("User-agent: *\nDisallow: /caf%C3%A9\n");
    expect(r.allows(`${ORIGIN}/café`)).toBe(false);
    expect(r.allows(`${ORIGIN}/caf%c3%a9`)).toBe(false);
  });

  test("no robots.txt (a 4xx) allows everything; another origin is never allowed", () => {
    const none = siteRules(ORIGIN, { kind: "none" });
    expect(none.allows(`${ORIGIN}/private/`)).toBe(true);
    expect(none.allows("https://other.example/")).toBe(false);
    expect(none.allows("http://acme.example/")).toBe(false);
    expect(none.sitemaps).toEqual([]);
  });

  test("Sitemap: lines are collected, relative ones resolved against the site, junk dropped", () => {
    const r = rules(
      "Sitemap: https://acme.example/sitemap_index.xml\nsitemap: /news.xml\nSitemap: http://[broken\nUser-agent: *\nDisallow:\n",
    );
    expect(r.sitemaps).toEqual(["https://acme.example/sitemap_index.xml", "https://acme.example/news.xml"]);
    expect(r.allows(`${ORIGIN}/anything`)).toBe(true);
  });
});
