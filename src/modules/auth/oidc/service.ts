import * as client from "openid-client";
import type { SqlDb } from "#server/db/sql";
import { HttpError } from "#server/http/errors";
import { nowIso } from "#server/lib/ids";
import type { AuthService, RequestMeta, Session } from "../service";
import { OidcRefusal, type OidcErrorCode, type OidcSettings } from "./model";
import { oidcRepository } from "./repository";
import { pendingSignIns } from "./state-cookie";

export const OIDC_CALLBACK_PATH = "/api/auth/oidc/callback";
const SCOPE = "openid email profile";

/**
 * The check an openid-client error names. The library wraps the failed check (`unexpected "state"
 * response parameter value`, `unexpected ID Token "nonce" claim value`, `unexpected "iss"…`) in a
 * general error, so the messages of the whole cause chain are read.
 */
function refusalOf(e: unknown): OidcRefusal {
  if (e instanceof OidcRefusal) return e;
  const messages: string[] = [];
  let code: string | undefined;
  for (let at: unknown = e, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth++) {
    messages.push(at.message);
    code ??= (at as { code?: string }).code;
  }
  const text = messages.join(": ");
  const names = (claim: string) => text.includes(`"${claim}"`);
  const reason: OidcErrorCode =
    code === "OAUTH_AUTHORIZATION_RESPONSE_ERROR"
      ? "denied"
      : names("state")
        ? "state"
        : names("nonce")
          ? "nonce"
          : names("iss")
            ? "issuer"
            : "token";
  return new OidcRefusal(reason, text || String(e));
}

/** The part of an address after its last @, lower-cased. */
const domainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1).toLowerCase();

/**
 * OpenID Connect sign-in through openid-client: discovery, the authorization code flow with PKCE
 * (S256), state and nonce, and the ID token's issuer, audience, signature and expiry checked by the
 * library. An identity is its issuer and subject; the first sign-in links a verified e-mail to its
 * account or makes a new one (docs/security.md, "Single sign-on").
 */
export function oidcService(deps: {
  db: SqlDb;
  auth: AuthService;
  settings: OidcSettings;
  secret: Uint8Array;
  /** The origin the provider sends browsers back to (PUBLIC_URL); the request's own when absent. */
  publicUrl?: string;
  now?: () => number;
  log?: (msg: string, err?: unknown) => void;
  /**
   * An identity signs in for the first time (a new account, or one linked by its verified e-mail):
   * it also joins the workspace the super-admin chose for SSO newcomers. Runs in the transaction
   * that links the identity.
   */
  onFirstSignIn?: (userId: string) => Promise<void>;
}) {
  const { settings } = deps;
  const now = deps.now ?? Date.now;
  const repo = oidcRepository(deps.db);
  const pending = pendingSignIns(deps.secret, now);
  // A provider on loopback may speak plain http (env.ts allows http:// only there).
  const insecure = new URL(settings.issuer).protocol === "http:";
  let config: Promise<client.Configuration> | null = null;
  /** Discovered once and kept; a failed discovery is forgotten so the next sign-in tries again. */
  function discover(): Promise<client.Configuration> {
    config ??= client
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        client.ClientSecretBasic(settings.clientSecret),
        insecure ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((e) => {
        config = null;
        throw new OidcRefusal("unavailable", `discovery of ${settings.issuer} failed: ${(e as Error).message}`);
      });
    return config;
  }
  const redirectUri = (origin: string) => (deps.publicUrl ?? origin) + OIDC_CALLBACK_PATH;

  /** The account a vouched-for identity opens: found by issuer and subject, linked by verified e-mail, or made. */
  async function accountFor(issuer: string, claims: Record<string, unknown>, meta: RequestMeta): Promise<string> {
    const subject = String(claims.sub);
    const known = await repo.userIdFor(issuer, subject);
    if (known) return known;
    const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
    if (!email || !email.includes("@")) throw new OidcRefusal("no_email", "the provider told no e-mail address");
    if (settings.allowedDomains.length && !settings.allowedDomains.includes(domainOf(email)))
      throw new OidcRefusal("domain", `${domainOf(email)} is not in OIDC_ALLOWED_DOMAINS`);
    const link = async (userId: string) => {
      await repo.link({ issuer, subject, userId, email }, nowIso(now()));
      await deps.onFirstSignIn?.(userId);
    };
    const existing = await deps.auth.userIdByEmail(email);
    if (existing) {
      // Anyone can claim any address at some providers: only the provider's own word that this
      // person controls it may open an account someone made with a password.
      if (claims.email_verified !== true) throw new OidcRefusal("unverified", `${email} exists and the provider has not verified it`);
      // One transaction, so the identity is never linked without the newcomer's workspace.
      await deps.db.tx(() => link(existing));
      return existing;
    }
    const username = typeof claims.preferred_username === "string" ? claims.preferred_username.slice(0, 50) : null;
    try {
      return (await deps.auth.provisionVouched({ email, username }, meta, link)).id;
    } catch (e) {
      if (e instanceof HttpError && e.status === 403) throw new OidcRefusal("setup", e.message);
      // Another first sign-in of the same person made the account a moment ago.
      const raced = e instanceof HttpError && e.status === 409 ? await repo.userIdFor(issuer, subject) : null;
      if (raced) return raced;
      throw e;
    }
  }

  return {
    settings,

    /** Where to send the browser, and the sealed cookie that remembers this sign-in until it returns. */
    async start(origin: string): Promise<{ location: string; cookie: string }> {
      const cfg = await discover();
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(cfg, {
        redirect_uri: redirectUri(origin),
        scope: SCOPE,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
        nonce,
      });
      return { location: url.href, cookie: pending.seal({ state, nonce, verifier }) };
    },

    /** Finishes a sign-in from the provider's answer; throws OidcRefusal with the reason otherwise. */
    async callback(url: URL, cookie: string | undefined, meta: RequestMeta): Promise<Session> {
      const providerError = url.searchParams.get("error");
      if (providerError) throw new OidcRefusal("denied", `the provider answered ${providerError}`);
      if (!cookie) throw new OidcRefusal("expired", "no sign-in in progress in this browser");
      const p = pending.open(cookie);
      if (!p) throw new OidcRefusal("state", "the sign-in cookie is expired, altered or not ours");
      const cfg = await discover();
      // The provider's answer is read at this server's own callback address, whatever proxy rewrote.
      const current = new URL(redirectUri(url.origin));
      current.search = url.search;
      let claims: Record<string, unknown>;
      let accessToken: string;
      try {
        const tokens = await client.authorizationCodeGrant(
          cfg,
          current,
          { pkceCodeVerifier: p.verifier, expectedState: p.state, expectedNonce: p.nonce, idTokenExpected: true },
          { redirect_uri: redirectUri(url.origin) },
        );
        claims = { ...tokens.claims() };
        accessToken = tokens.access_token;
      } catch (e) {
        throw refusalOf(e);
      }
      const issuer = cfg.serverMetadata().issuer;
      // Some providers put the e-mail in the ID token, others only behind the userinfo endpoint.
      if (typeof claims.email !== "string" && cfg.serverMetadata().userinfo_endpoint) {
        try {
          const info = await client.fetchUserInfo(cfg, accessToken, String(claims.sub));
          claims = { ...info, ...claims };
        } catch (e) {
          deps.log?.("oidc: userinfo failed", e);
        }
      }
      const userId = await accountFor(issuer, claims, meta);
      const session = await deps.auth.signInVouched(userId, meta, "oidc");
      if (!session) throw new OidcRefusal("disabled", "the account is disabled");
      await repo.touch(issuer, String(claims.sub), nowIso(now()));
      return session;
    },
  };
}

export type OidcService = ReturnType<typeof oidcService>;
