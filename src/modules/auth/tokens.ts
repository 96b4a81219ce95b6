import { SignJWT, jwtVerify } from "jose";
import type { Role } from "./model";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

export interface AccessClaims {
  sub: string;
  role: Role;
  ver: number;
  /** The sign-in session (refresh-token family) the token was issued for; absent on in-process tokens. */
  sid?: string;
}

export function accessTokens(secret: Uint8Array, now: () => number = Date.now) {
  return {
    async issue(claims: AccessClaims): Promise<string> {
      const iat = Math.floor(now() / 1000);
      return new SignJWT({ role: claims.role, ver: claims.ver, ...(claims.sid ? { sid: claims.sid } : {}) })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(claims.sub)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
        .setIssuer("design-intel")
        .sign(secret);
    },
    /** Only HS256 is accepted, so `alg: none` and algorithm-confusion tokens fail here. */
    async verify(token: string): Promise<AccessClaims | null> {
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ["HS256"],
          issuer: "design-intel",
          currentDate: new Date(now()),
        });
        if (typeof payload.sub !== "string") return null;
        const sid = typeof payload.sid === "string" ? payload.sid : undefined;
        return { sub: payload.sub, role: payload.role as Role, ver: Number(payload.ver ?? 0), ...(sid ? { sid } : {}) };
      } catch {
        return null;
      }
    },
  };
}

export type AccessTokens = ReturnType<typeof accessTokens>;
