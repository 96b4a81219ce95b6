// A real OpenID provider (npm oidc-provider) on 127.0.0.1 for the SSO tests, with one confidential
// client and an interaction that signs in whichever test account the test chose, without any page.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
}

export interface TestProvider {
  issuer: string;
  /** The account the next interaction signs in. */
  signInAs(account: TestAccount): void;
  close(): Promise<void>;
}

export const TEST_CLIENT = { id: "design-intel", secret: "design-intel-client-secret-0123456789" };

export async function startProvider(redirectUri: string): Promise<TestProvider> {
  let current: TestAccount | null = null;
  const accounts = new Map<string, TestAccount>();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["preferred_username"] },
    // The ID token carries the e-mail (as Google's and Entra's do); the app also reads userinfo when it does not.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    cookies: { keys: ["test-provider-cookie-key"] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: () => ({ ...account }) } : undefined;
    },
    // Consent is taken as given: every sign-in gets the scopes it asked for.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  server.on("request", async (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith("/interaction/")) return callback(req, res);
    try {
      await provider.interactionDetails(req, res);
      if (!current) throw new Error("no test account chosen");
      await provider.interactionFinished(req, res, { login: { accountId: current.sub } }, { mergeWithLastSubmission: false });
    } catch (e) {
      res.statusCode = 500;
      res.end(String(e));
    }
  });
  return {
    issuer,
    signInAs(account) {
      accounts.set(account.sub, account);
      current = account;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A browser's cookie jar for one origin, enough for the provider's session cookies. */
export class CookieJar {
  private cookies = new Map<string, string>();
  take(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(c) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/**
 * Follows the provider's redirects as a browser would (its cookies kept) from the authorization URL
 * until it sends the browser back to `redirectUri`; returns that URL (code, state, iss).
 */
export async function signInAtProvider(authorizationUrl: string, redirectUri: string): Promise<URL> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(redirectUri)) return new URL(url);
    const res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(res);
    const location = res.headers.get("location");
    if (!location) throw new Error(`provider stopped at ${url}: ${res.status} ${await res.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error("too many redirects at the provider");
}
