import { describe, expect, test } from "bun:test";
import { makeTestApp } from "#tests/support/app";

describe("platform smoke", () => {
  test("landing renders on the server", async () => {
    const t = makeTestApp();
    const r = await t.call("GET", "/");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-security-policy")).toContain("nonce-");
  });
  test("unknown page is a 404 page", async () => {
    const t = makeTestApp();
    const r = await t.call("GET", "/definitely-not-here");
    expect(r.status).toBe(404);
    expect(r.text).toContain("404 Page Not Found");
  });
});
