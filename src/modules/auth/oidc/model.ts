import { z } from "zod";

/**
 * Why an SSO sign-in was refused, as the short code the callback hands the login page
 * (`/login?error=<code>`); web/features/auth/sso-errors.ts words each one.
 */
export const oidcErrorCode = z.enum([
  "unavailable", // the provider could not be reached or described itself wrongly
  "denied", // the provider answered with an error (the person declined, or it refused the client)
  "expired", // no sign-in in progress in this browser (cookie gone: over 10 minutes, or another browser)
  "state", // the state in the answer is not the one this browser was sent with (tampered or crossed)
  "nonce", // the ID token was not minted for this sign-in
  "issuer", // the answer or its ID token came from another issuer
  "token", // the code exchange or the ID token failed another check (signature, audience, expiry, PKCE)
  "no_email", // the provider told no e-mail address
  "domain", // the address's domain is not in OIDC_ALLOWED_DOMAINS
  "unverified", // an account has this address, but the provider has not verified it: no link
  "disabled", // the account is disabled
  "setup", // the server still waits for its first (password) account
]);
export type OidcErrorCode = z.infer<typeof oidcErrorCode>;

export class OidcRefusal extends Error {
  constructor(
    readonly code: OidcErrorCode,
    detail: string,
  ) {
    super(detail);
  }
}

/** What OIDC_* configure (src/env.ts); absent when OIDC_ISSUER is not set. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Lower-case e-mail domains accepted; empty accepts every domain. */
  allowedDomains: string[];
  /** The button label's provider name. */
  name: string;
}

/** What the sign-in page is told: whether to offer SSO, and under which name. */
export const ssoOffer = z.object({ name: z.string() }).nullable();
export type SsoOffer = z.infer<typeof ssoOffer>;

/** The callback's query as providers send it; the handler reads the full URL, these are for the document. */
export const callbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(1024).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
  session_state: z.string().max(1024).optional(),
});
