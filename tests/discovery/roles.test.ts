import { describe, expect, test } from "bun:test";
import { classifyRole } from "#server/modules/discovery/roles";

describe("classifyRole", () => {
  test.each([
    ["/", "home"],
    ["", "home"],
    ["/index.html", "home"],
    ["/pricing", "pricing"],
    ["/pricing/", "pricing"],
    ["/plans", "pricing"],
    ["/en/pricing", "pricing"],
    ["/de-de/preise", "pricing"],
    ["/register", "signup"],
    ["/sign-up", "signup"],
    ["/signup.html", "signup"],
    ["/get_started", "signup"],
    ["/blog", "blog"],
    ["/news/2024/launch", "blog"],
    ["/docs/getting-started", "docs"],
    ["/help", "docs"],
    ["/features", "features"],
    ["/product", "features"],
    ["/about", "other"],
    ["/login", "other"],
    ["/de/", "other"],
  ] as const)("path %p → %p", (path, role) => {
    expect(classifyRole({ path })).toBe(role);
  });

  test("the first meaningful segment decides: a blog post about pricing is a blog page", () => {
    expect(classifyRole({ path: "/blog/pricing-strategies" })).toBe("blog");
    expect(classifyRole({ path: "/blog/pricing" })).toBe("blog");
    expect(classifyRole({ path: "/company/pricing" })).toBe("pricing");
  });

  test("labels decide when the path says nothing", () => {
    expect(classifyRole({ path: "/offer", texts: ["Plans"] })).toBe("pricing");
    expect(classifyRole({ path: "/go", texts: ["Get started"] })).toBe("signup");
    expect(classifyRole({ path: "/x", texts: ["Sign up"] })).toBe("signup");
    expect(classifyRole({ path: "/x", texts: ["Start your free trial"] })).toBe("signup");
    expect(classifyRole({ path: "/x", texts: ["Create an account"] })).toBe("signup");
    expect(classifyRole({ path: "/x", texts: ["Help Center"] })).toBe("docs");
    expect(classifyRole({ path: "/x", texts: ["Newsroom"] })).toBe("blog");
    expect(classifyRole({ path: "/x", texts: ["How it works"] })).toBe("features");
  });

  test("labels are read strongest first, and a path that names a role is never overruled", () => {
    expect(classifyRole({ path: "/x", texts: [null, "Compare our plans", "Acme — the product platform"] })).toBe("pricing");
    expect(classifyRole({ path: "/x", texts: ["", undefined, "Welcome", "Sign up in a minute"] })).toBe("signup");
    expect(classifyRole({ path: "/pricing", texts: ["Read our blog"] })).toBe("pricing");
  });

  test("sign-in is not sign-up, and a vague 'join' is nothing", () => {
    expect(classifyRole({ path: "/x", texts: ["Sign in"] })).toBe("other");
    expect(classifyRole({ path: "/x", texts: ["Log in"] })).toBe("other");
    expect(classifyRole({ path: "/x", texts: ["Join our newsletter"] })).toBe("other");
    expect(classifyRole({ path: "/x", texts: ["Join now"] })).toBe("signup");
  });

  test("odd paths do not throw", () => {
    expect(classifyRole({ path: "/%E0%A4%A/pricing" })).toBe("pricing");
    expect(classifyRole({ path: "/about?ref=pricing#plans" })).toBe("other");
  });
});
