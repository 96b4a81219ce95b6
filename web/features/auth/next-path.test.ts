import { describe, expect, test } from "bun:test";
import { nextPath } from "./next-path";

describe("where sign-in and sign-up go next", () => {
  test("a path of this site (an invitation link), else the dashboard", () => {
    expect(nextPath("/invite/AAAA_bbbb-1")).toBe("/invite/AAAA_bbbb-1");
    expect(nextPath(null)).toBe("/dashboard");
    expect(nextPath("")).toBe("/dashboard");
    for (const off of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "invite/x"])
      expect(nextPath(off)).toBe("/dashboard");
  });
});
