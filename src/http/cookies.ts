export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export interface CookieOptions {
  maxAgeSeconds: number;
  secure: boolean;
  path?: string;
  /** Strict unless a cookie must ride a navigation from another site (an identity provider's redirect back). */
  sameSite?: "Strict" | "Lax";
}

export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${o.path ?? "/"}`,
    `Max-Age=${o.maxAgeSeconds}`,
    "HttpOnly",
    `SameSite=${o.sameSite ?? "Strict"}`,
  ];
  if (o.maxAgeSeconds === 0) parts.push("Expires=Thu, 01 Jan 1970 00:00:00 GMT");
  if (o.secure) parts.push("Secure");
  return parts.join("; ");
}
