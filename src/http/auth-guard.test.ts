import { describe, expect, test } from "bun:test";
import { bearerToken } from "./auth-guard";

describe("bearerToken", () => {
  test("takes the token after the scheme, in any case and after any spaces", () => {
    expect(bearerToken("Bearer abc.def")).toBe("abc.def");
    expect(bearerToken("bearer abc")).toBe("abc");
    expect(bearerToken("BEARER \t  abc")).toBe("abc");
  });

  test("refuses anything that is not exactly one bearer token", () => {
    for (const header of [
      null,
      undefined,
      "",
      "Bearer",
      "Bearer ",
      "Bearer  ",
      "Bearerabc",
      "Basic abc",
      "Bearer a b",
      "Bearer abc ",
      " Bearer abc",
      "Token abc",
    ]) {
      expect(bearerToken(header)).toBeUndefined();
    }
  });
});
