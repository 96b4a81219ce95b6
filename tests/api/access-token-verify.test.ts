// The synchronous HS256 check that guards every API request, held to what jose (which signs our
// tokens) would accept: our own tokens pass; forged, altered, expired, premature, foreign-issuer
// and algorithm-confusion tokens fail; malformed input is null, never a throw.
import { describe, expect, test } from "bun:test";
import { SignJWT } from "jose";
import { createHmac } from "node:crypto";
import { verifyHs256 } from "#server/modules/auth/hs256";
import { accessTokens } from "#server/modules/auth/tokens";

const KEY = new TextEncoder().encode("a-test-secret-of-enough-length-for-hs256!");
const OTHER = new TextEncoder().encode("another-secret-of-enough-length-for-hs256");
const NOW = 1_800_000_000;
const at = { issuer: "design-intel", nowSeconds: NOW };

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
/** Signs any header and payload by hand, so tests can build what jose would refuse to make. */
const handSigned = (header: unknown, payload: unknown, key = KEY) => {
  const unsigned = `${b64(header)}.${b64(payload)}`;
  return `${unsigned}.${createHmac("sha256", key).update(unsigned).digest("base64url")}`;
};
const claims = { sub: "user-1", role: "user", ver: 0, sid: "family-1", iss: "design-intel", iat: NOW - 10, exp: NOW + 600 };
const sign = (payload: Record<string, unknown> = claims, key = KEY) =>
  new SignJWT(payload).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(key);

describe("verifyHs256", () => {
  test("a token jose signed verifies and gives its claims back", async () => {
    expect(verifyHs256(await sign(), KEY, at)).toEqual(claims);
  });

  test("another key, an altered payload or an altered signature fails", async () => {
    expect(verifyHs256(await sign(claims, OTHER), KEY, at)).toBeNull();
    const [h, , s] = (await sign()).split(".");
    expect(verifyHs256(`${h}.${b64({ ...claims, role: "admin" })}.${s}`, KEY, at)).toBeNull();
    const token = await sign();
    const flipped = token.slice(0, -2) + (token.at(-2) === "A" ? "B" : "A") + token.at(-1);
    expect(verifyHs256(flipped, KEY, at)).toBeNull();
  });

  test("alg none, other algorithms and critical headers fail even with a valid HMAC", () => {
    expect(verifyHs256(`${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`, KEY, at)).toBeNull();
    expect(verifyHs256(handSigned({ alg: "HS512", typ: "JWT" }, claims), KEY, at)).toBeNull();
    expect(verifyHs256(handSigned({ alg: "HS256", crit: ["b64"], b64: false }, claims), KEY, at)).toBeNull();
    expect(verifyHs256(handSigned({ alg: "HS256" }, claims), KEY, at)).toEqual(claims);
  });

  test("expiry, not-before and issuer are enforced", () => {
    expect(verifyHs256(handSigned({ alg: "HS256" }, { ...claims, exp: NOW }), KEY, at)).toBeNull();
    expect(verifyHs256(handSigned({ alg: "HS256" }, { ...claims, exp: NOW + 1 }), KEY, at)).not.toBeNull();
    expect(verifyHs256(handSigned({ alg: "HS256" }, { ...claims, exp: undefined }), KEY, at)).toBeNull();
    expect(verifyHs256(handSigned({ alg: "HS256" }, { ...claims, exp: "9999999999" }), KEY, at)).toBeNull();
    expect(verifyHs256(handSigned({ alg: "HS256" }, { ...claims, nbf: NOW + 5 }), KEY, at)).toBeNull();
    expect(verifyHs256(handSigned({ alg: "HS256" }, { ...claims, nbf: NOW }), KEY, at)).not.toBeNull();
    expect(verifyHs256(handSigned({ alg: "HS256" }, { ...claims, iss: "someone-else" }), KEY, at)).toBeNull();
  });

  test("malformed tokens are null, not errors", () => {
    for (const bad of ["", "a", "a.b", "a.b.c.d", "..", "x.y.z", `${b64(claims)}.${b64(claims)}.===`, `!!.${b64(claims)}.abc`]) {
      expect(verifyHs256(bad, KEY, at)).toBeNull();
    }
    const notJson = `${Buffer.from("{not json").toString("base64url")}.${b64(claims)}`;
    expect(verifyHs256(`${notJson}.${createHmac("sha256", KEY).update(notJson).digest("base64url")}`, KEY, at)).toBeNull();
    expect(verifyHs256(handSigned({ alg: "HS256" }, [1, 2]), KEY, at)).toBeNull();
  });
});

describe("accessTokens", () => {
  test("what issue() makes, verify() accepts until exp, and a session id is required", async () => {
    let now = NOW * 1000;
    const tokens = accessTokens(KEY, () => now);
    const token = await tokens.issue({ sub: "user-1", role: "admin", ver: 3, sid: "family-1" });
    expect(tokens.verify(token)).toEqual({ sub: "user-1", role: "admin", ver: 3, sid: "family-1" });
    now += 15 * 60 * 1000;
    expect(tokens.verify(token)).toBeNull();
    expect(accessTokens(KEY, () => NOW * 1000).verify(handSigned({ alg: "HS256" }, { ...claims, sid: undefined }))).toBeNull();
  });
});
