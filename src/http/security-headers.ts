// Built once at module load: every response carries them, so they are not rebuilt per request.
const directives = (script: string) =>
  [
    "default-src 'self'",
    `script-src ${script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");

const NONCE_MARK = "\u0000nonce\u0000";
const [CSP_BEFORE_NONCE, CSP_AFTER_NONCE] = directives(`'self' 'nonce-${NONCE_MARK}'`).split(NONCE_MARK) as [string, string];

const DEFAULT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": directives("'self'"),
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
});

/**
 * What every answer that is not an HTML document carries (JSON, scripts, images, errors), after
 * OWASP's REST guidance: such an answer loads nothing and may not be framed, and its type is not to
 * be sniffed. The document-only policies (referrer, opener, permissions) say nothing to a JSON
 * body, and every header is work on every API answer. HTML documents set securityHeaders().
 */
export const RESOURCE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
});

/** RESOURCE_HEADERS as [name, value] pairs, for answers built outside Elysia's header defaults. */
export const RESOURCE_HEADER_ENTRIES: readonly (readonly [string, string])[] = Object.freeze(Object.entries(RESOURCE_HEADERS));

/**
 * An HTML document's headers; the CSP allows inline script only with the per-response nonce.
 * Without a nonce the shared (frozen) object is returned: copy it before changing it.
 */
export function securityHeaders(nonce?: string): Readonly<Record<string, string>> {
  if (!nonce) return DEFAULT_HEADERS;
  return { ...DEFAULT_HEADERS, "content-security-policy": CSP_BEFORE_NONCE + nonce + CSP_AFTER_NONCE };
}

/**
 * Sent only on HTTPS (a browser ignores it over HTTP anyway): a year, subdomains included. Not
 * preloaded: that is the operator's decision for their whole domain.
 */
export const HSTS_HEADER = "max-age=31536000; includeSubDomains";
