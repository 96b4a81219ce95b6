import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Checks a compact HS256 JWT without a promise. WebCrypto (jose's verify) is asynchronous only, a
 * promise per guarded request; node:crypto's HMAC is synchronous. Only what our own tokens use is accepted: the header names HS256 and nothing
 * critical, the signature is the HMAC of the first two parts under `key` (compared in constant
 * time), `iss` matches, `exp` is a number in the future, `nbf` (when present) has passed.
 * Anything else, malformed or not, is null.
 */
export function verifyHs256(token: string, key: Uint8Array, opts: { issuer: string; nowSeconds: number }): Record<string, unknown> | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  if (!BASE64URL.test(header) || !BASE64URL.test(payload) || !SIGNATURE.test(signature)) return null;

  const head = decodeObject(header);
  if (!head || head.alg !== "HS256" || "crit" in head) return null;

  const expected = createHmac("sha256", key).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;

  const claims = decodeObject(payload);
  if (!claims || claims.iss !== opts.issuer) return null;
  if (typeof claims.exp !== "number" || !Number.isFinite(claims.exp) || opts.nowSeconds >= claims.exp) return null;
  if (claims.nbf !== undefined && (typeof claims.nbf !== "number" || claims.nbf > opts.nowSeconds)) return null;
  return claims;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** An HMAC-SHA256 is 32 bytes: 43 base64url characters without padding. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

function decodeObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
