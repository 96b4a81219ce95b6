/** Headers every response carries; the CSP allows inline script only with the per-response nonce. */
export function securityHeaders(nonce?: string): Record<string, string> {
  const script = nonce ? `'self' 'nonce-${nonce}'` : "'self'";
  return {
    "content-security-policy": [
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
    ].join("; "),
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
  };
}
