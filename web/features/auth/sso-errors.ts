import type { OidcErrorCode } from "#server/modules/auth/oidc/model";

/** What the sign-in page says for each reason the SSO callback gives in `/login?error=<code>`. */
export const SSO_ERRORS: Record<OidcErrorCode, string> = {
  unavailable: "Single sign-on is unavailable right now: the identity provider could not be reached. Try again in a moment.",
  denied: "The identity provider did not sign you in.",
  expired: "That sign-in took too long or began in another browser. Start again.",
  state: "That sign-in answer did not match the sign-in this browser started (it may have been altered), so it was refused. Start again.",
  nonce: "The identity provider's token was not issued for this sign-in, so it was refused. Start again.",
  issuer: "That sign-in answer came from a different identity provider than this server trusts, so it was refused.",
  token: "The identity provider's answer failed its checks, so it was refused. Start again.",
  no_email: "The identity provider did not share your e-mail address, which this server needs to sign you in.",
  domain: "Your e-mail domain is not allowed to sign in to this server.",
  unverified:
    "An account with your e-mail address already exists, but the identity provider has not verified that address, so it cannot be linked. Sign in with your password.",
  disabled: "This account is disabled. Ask an administrator.",
  setup: "This server has no administrator yet: its first account must be created with the setup link printed in the server log.",
};

/** The message for `?error=`, or null when there is none (an unknown code gets a general one). */
export function ssoErrorMessage(code: string | null): string | null {
  if (!code) return null;
  return Object.hasOwn(SSO_ERRORS, code) ? SSO_ERRORS[code as OidcErrorCode] : "Single sign-on failed. Start again.";
}
