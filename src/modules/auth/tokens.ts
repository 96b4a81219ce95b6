import { SignJWT } from "jose";
import { verifyHs256 } from "./hs256";
import type { Role } from "./model";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
/** Distinct tokens whose signature check is remembered; past it the oldest is forgotten. */
const VERIFIED_CACHE_SIZE = 10_000;
const ISSUER = "design-intel";

export interface AccessClaims {
  sub: string;
  role: Role;
  ver: number;
  /** The sign-in session (refresh-token family) the token was issued for: logging it out ends the token. */
  sid: string;
}

export function accessTokens(secret: Uint8Array, now: () => number = Date.now) {
  // Every API call presents the same token for up to 15 minutes, and the signature check (an HMAC
  // and two JSON decodes) was the largest cost of an authenticated request. A token string that verified once
  // under this secret verifies the same way until it expires, so the result is kept until `exp`.
  // Only the signature check is skipped: callers still load the user (disabled, role, token
  // version) on every request.
  const verified = new Map<string, { claims: AccessClaims; exp: number }>();

  /** A token's claims when its signature check is remembered (null once it has expired), else undefined. */
  function known(token: string): AccessClaims | null | undefined {
    const entry = verified.get(token);
    if (!entry) return undefined;
    // The same rule as verify's: expired once now >= exp.
    if (Math.floor(now() / 1000) < entry.exp) return entry.claims;
    verified.delete(token);
    return null;
  }

  return {
    async issue(claims: AccessClaims): Promise<string> {
      const iat = Math.floor(now() / 1000);
      return new SignJWT({ role: claims.role, ver: claims.ver, sid: claims.sid })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(claims.sub)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
        .setIssuer(ISSUER)
        .sign(secret);
    },
    /**
     * The token's claims, or null. Synchronous: it runs on every guarded request and needs no promise. Only
     * HS256 is accepted, so `alg: none` and algorithm-confusion tokens fail here. `exp` and `sid` are
     * required: a token without `exp` would never expire, and one without `sid` could not be ended
     * by logging out.
     */
    verify(token: string): AccessClaims | null {
      const remembered = known(token);
      if (remembered !== undefined) return remembered;
      const payload = verifyHs256(token, secret, { issuer: ISSUER, nowSeconds: Math.floor(now() / 1000) });
      if (!payload || typeof payload.sub !== "string" || typeof payload.exp !== "number") return null;
      if (typeof payload.sid !== "string" || payload.sid === "") return null;
      const claims: AccessClaims = { sub: payload.sub, role: payload.role as Role, ver: Number(payload.ver ?? 0), sid: payload.sid };
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
      verified.set(token, { claims: Object.freeze(claims), exp: payload.exp });
      return claims;
    },
  };
}

export type AccessTokens = ReturnType<typeof accessTokens>;
