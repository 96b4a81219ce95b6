import { SignJWT, jwtVerify } from "jose";
import type { Role } from "./model";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
/** Distinct tokens whose signature check is remembered; past it the oldest is forgotten. */
const VERIFIED_CACHE_SIZE = 10_000;

export interface AccessClaims {
  sub: string;
  role: Role;
  ver: number;
  /** The sign-in session (refresh-token family) the token was issued for: logging it out ends the token. */
  sid: string;
}

export function accessTokens(secret: Uint8Array, now: () => number = Date.now) {
  // Every API call presents the same token for up to 15 minutes, and the HMAC check (WebCrypto,
  // async) was the largest cost of an authenticated request. A token string that verified once
  // under this secret verifies the same way until it expires, so the result is kept until `exp`.
  // Only the signature check is skipped: callers still load the user (disabled, role, token
  // version) on every request.
  const verified = new Map<string, { claims: AccessClaims; exp: number }>();

  return {
    async issue(claims: AccessClaims): Promise<string> {
      const iat = Math.floor(now() / 1000);
      return new SignJWT({ role: claims.role, ver: claims.ver, sid: claims.sid })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(claims.sub)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
        .setIssuer("design-intel")
        .sign(secret);
    },
    /**
     * Only HS256 is accepted, so `alg: none` and algorithm-confusion tokens fail here. `exp` and
     * `sid` are required: a token without `exp` would never expire, and one without `sid` could not
     * be ended by logging out.
     */
    /**
     * A token's claims when its signature check is remembered (null once it has expired), or
     * undefined when it has to go through verify(): lets the common case answer without a promise.
     */
    known(token: string): AccessClaims | null | undefined {
      const known = verified.get(token);
      if (!known) return undefined;
      // The same rule as jose's: expired once now >= exp.
      if (Math.floor(now() / 1000) < known.exp) return known.claims;
      verified.delete(token);
      return null;
    },
    async verify(token: string): Promise<AccessClaims | null> {
      const known = this.known(token);
      if (known !== undefined) return known;
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ["HS256"],
          issuer: "design-intel",
          currentDate: new Date(now()),
          requiredClaims: ["exp", "sid"],
        });
        if (typeof payload.sub !== "string" || typeof payload.exp !== "number") return null;
        if (typeof payload.sid !== "string" || payload.sid === "") return null;
        const claims: AccessClaims = { sub: payload.sub, role: payload.role as Role, ver: Number(payload.ver ?? 0), sid: payload.sid };
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
        verified.set(token, { claims: Object.freeze(claims), exp: payload.exp });
        return claims;
      } catch {
        return null;
      }
    },
  };
}

export type AccessTokens = ReturnType<typeof accessTokens>;
