import { timingSafeEqual } from "node:crypto";
import type { SqlDb } from "#server/db/sql";
import { StampedCache, changeStamp } from "#server/db/change-stamp";
import { HttpError, conflict, unauthorized } from "#server/http/errors";
import { newId, nowIso, randomToken, sha256 } from "#server/lib/ids";
import type { Principal } from "#server/modules/workspaces/access";
import type { CurrentWorkspace } from "#server/modules/workspaces/model";
import type { AuthAnswer, LoginInput, PublicUser, SignupInput } from "./model";
import { type AuthRepository, type RefreshRow, type UserRow, authRepository, toPublicUser } from "./repository";
import { type AccessClaims, type AccessTokens, REFRESH_TOKEN_TTL_SECONDS } from "./tokens";
import type { DeviceCookies } from "./device-cookie";
import type { LoginThrottle } from "./device-cookie-throttle";

/** OWASP's argon2id floor: 19 MiB, 2 passes, 1 lane. */
const ARGON = { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 } as const;
const INVALID_LOGIN = "Invalid email or password";
export const SETUP_TOKEN_MESSAGE =
  "This new server needs its setup token to create the first account: open the sign-up link printed in the server log at start-up";

export interface Session {
  answer: AuthAnswer;
  refreshToken: string;
  /** A new device cookie for the browser that just signed in (sign-up and login only). */
  deviceCookie?: string;
}

/** How a sign-in was proven: a password here, or an OpenID Connect provider (./oidc). */
export type SignInMethod = "password" | "oidc";

export const PASSWORD_ADMINS_ONLY = (ssoName: string) =>
  `Password sign-in is for administrators on this server; use "Continue with ${ssoName}" instead`;

export interface AuthEvents {
  onSignIn?(user: PublicUser, meta: RequestMeta, method: SignInMethod): Promise<void>;
  onSignInFailed?(email: string, meta: RequestMeta): Promise<void>;
  onSignUp?(user: PublicUser, meta: RequestMeta): Promise<void>;
}

export interface RequestMeta {
  ip: string;
  userAgent?: string;
}

/**
 * For this long after a refresh cookie is rotated, the old one is treated as a browser that has not
 * received the new one yet rather than as a stolen copy: it still identifies its user for rendering
 * (never for refreshing), and presenting it to refresh answers 409 "try again" instead of ending the
 * session. Past it, presenting a used cookie is a replay and ends the whole session.
 */
export const ROTATION_GRACE_MS = 10_000;
export const JUST_ROTATED_MESSAGE = "The session was refreshed a moment ago; try again";

/** Compared as digests: equal lengths whatever was typed, and no early exit on the first wrong character. */
const sameSecret = (given: string | undefined, expected: string) =>
  given !== undefined && timingSafeEqual(Buffer.from(sha256(given), "hex"), Buffer.from(sha256(expected), "hex"));

export function authService(deps: {
  db: SqlDb;
  tokens: AccessTokens;
  adminEmails: string[];
  events?: AuthEvents;
  /**
   * API keys, told apart from JWTs by their format before anything is verified (the api-keys module owns
   * both the format and the lookup; auth only asks).
   */
  apiKeys?: {
    isKey: (token: string) => boolean;
    principalForKey: (key: string) => Promise<{ user: PublicUser; keyWorkspaceId: string } | null>;
  };
  /** The current workspace of a request (the workspaces module owns the rule). */
  workspaces: { current: (who: Principal, requested: string | null) => Promise<CurrentWorkspace | null> };
  /** Signs and checks device cookies; with the throttle, limits guessing without locking owners out. */
  deviceCookies: DeviceCookies;
  loginThrottle: LoginThrottle;
  /**
   * When set, the first account (which becomes the admin) can only be created with this token, so
   * whoever reaches a fresh install first can't take it over. Later sign-ups never need it.
   */
  setupToken?: string;
  /** "admins": a password signs in administrators only (everyone else uses SSO, named by ssoName). */
  passwordLogin?: { mode: "all" | "admins"; ssoName: string };
  /** A session was signed out: whatever else it holds open (live sockets) must end too. */
  onLogout?: (userId: string, sessionId: string) => void;
  now?: () => number;
}) {
  const repo: AuthRepository = authRepository(deps.db);
  const now = deps.now ?? Date.now;
  // Every API call loads its user so that disabling, a role change or ending sessions applies at
  // once. The row is kept until the next write anywhere in the database (any of those is one),
  // so the next request after such a change still reads it fresh.
  const currentStamp = changeStamp(deps.db);
  const liveUsers = new StampedCache<Promise<UserRow | null>>(currentStamp, 10_000);
  // An access token belongs to its sign-in session: logging out (or a replayed refresh token)
  // ends that session's access tokens at once, not when they expire. Cached like the users.
  const endedSessions = new StampedCache<Promise<boolean>>(currentStamp, 10_000);
  /** The user an access token's claims stand for, while the user and the token's session are live. */
  const liveUserFor = async (claims: AccessClaims): Promise<PublicUser | null> => {
    // One stamp for both caches, taken before either read is issued: a write landing while they
    // await changes the stamp, so what they read is dropped at the next look.
    const stamp = currentStamp();
    const sid = claims.sid;
    // Both reads are under way before either is awaited (no Promise.all: on a hit, as most calls
    // are, it only adds allocations); a cached promise that fails is already handled by its cache.
    const userRead = liveUsers.load(claims.sub, () => repo.findUserById(claims.sub), stamp);
    const endedRead = endedSessions.load(sid, () => repo.isSessionEnded(sid), stamp);
    const user = await userRead;
    const ended = await endedRead;
    if (!user || user.disabled || user.token_version !== claims.ver) return null;
    if (ended) return null;
    return toPublicUser(user);
  };
  /** Rotated within the grace, in a session that has not ended. */
  const justRotated = async (row: RefreshRow) =>
    row.used_at !== null && now() - Date.parse(row.used_at) <= ROTATION_GRACE_MS && !(await repo.isSessionEnded(row.family_id));
  /** The live user and session of a refresh cookie, read without rotating it (SSR). */
  async function userOfRefreshCookie(refreshToken: string | undefined): Promise<{ user: UserRow; sessionId: string } | null> {
    if (!refreshToken) return null;
    const row = await repo.findRefresh(sha256(refreshToken));
    if (!row || row.revoked_at || row.expires_at < nowIso(now())) return null;
    if (row.used_at && !(await justRotated(row))) return null;
    const user = await repo.findUserById(row.user_id);
    return user && !user.disabled ? { user, sessionId: row.family_id } : null;
  }
  // Verifying against a real hash when the e-mail is unknown keeps both failures equally slow.
  const dummyHash = Bun.password.hash(randomToken(), ARGON);

  async function issue(user: UserRow, familyId: string = newId()): Promise<Session> {
    const refreshToken = randomToken(32);
    await repo.insertRefresh({
      id: newId(),
      userId: user.id,
      familyId,
      hash: sha256(refreshToken),
      expiresAt: nowIso(now() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    });
    const accessToken = await deps.tokens.issue({ sub: user.id, role: user.role, ver: user.token_version, sid: familyId });
    return { answer: { accessToken, user: toPublicUser(user) }, refreshToken };
  }

  return {
    async signup(input: SignupInput, meta: RequestMeta): Promise<Session> {
      const passwordHash = await Bun.password.hash(input.password, ARGON);
      const email = input.email.toLowerCase();
      const user = await deps.db.tx(async () => {
        if (await repo.findUserByEmail(email)) throw new HttpError(409, "An account with this email already exists");
        const first = (await repo.countUsers()) === 0;
        if (first && deps.setupToken && !sameSecret(input.setupToken, deps.setupToken)) throw new HttpError(403, SETUP_TOKEN_MESSAGE);
        const role = first || deps.adminEmails.includes(email) ? "admin" : "user";
        const id = newId();
        await repo.insertUser({ id, email, username: input.username ?? null, passwordHash, role });
        return (await repo.findUserById(id))!;
      });
      await deps.events?.onSignUp?.(toPublicUser(user), meta);
      return { ...(await issue(user)), deviceCookie: deps.deviceCookies.issue(user.id) };
    },

    /**
     * An account made by the operator on the server's machine (`design-intel users create`): sign-up's
     * rules and hash, without the setup token, since whoever runs it already holds the data.
     */
    async createAccount(input: { email: string; password: string }, opts: { admin: boolean }): Promise<PublicUser> {
      const passwordHash = await Bun.password.hash(input.password, ARGON);
      const email = input.email.toLowerCase();
      const user = await deps.db.tx(async () => {
        if (await repo.findUserByEmail(email)) throw new HttpError(409, "An account with this email already exists");
        const role = opts.admin || (await repo.countUsers()) === 0 || deps.adminEmails.includes(email) ? "admin" : "user";
        const id = newId();
        await repo.insertUser({ id, email, username: null, passwordHash, role });
        return (await repo.findUserById(id))!;
      });
      await deps.events?.onSignUp?.(toPublicUser(user), { ip: "local", userAgent: "design-intel users create" });
      return toPublicUser(user);
    },

    /**
     * Checks the password under the device-cookie throttle (device-cookie-throttle.ts): `deviceCookie`
     * is the browser's di_device cookie, trusted only when it was issued for this account.
     */
    async login(input: LoginInput, meta: RequestMeta, deviceCookie?: string): Promise<Session> {
      const email = input.email.toLowerCase();
      const user = await repo.findUserByEmail(email);
      const deviceId = user ? deps.deviceCookies.deviceFor(deviceCookie, user.id) : null;
      const attempt = await deps.loginThrottle.admit({ ip: meta.ip, account: email, deviceId });
      const ok = await Bun.password.verify(input.password, user?.password_hash ?? (await dummyHash));
      if (!user || !ok || user.disabled) {
        await deps.events?.onSignInFailed?.(email, meta);
        throw unauthorized(INVALID_LOGIN);
      }
      await attempt.succeeded();
      // Told only after the password proved who is asking, so the answer never reveals a role.
      if (deps.passwordLogin?.mode === "admins" && user.role !== "admin") {
        await deps.events?.onSignInFailed?.(email, meta);
        throw new HttpError(403, PASSWORD_ADMINS_ONLY(deps.passwordLogin.ssoName));
      }
      await deps.events?.onSignIn?.(toPublicUser(user), meta, "password");
      return { ...(await issue(user)), deviceCookie: deps.deviceCookies.issue(user.id) };
    },

    /**
     * A session for an account whose owner another party vouched for (an OpenID Connect provider):
     * the same refresh cookie, access token and device cookie as a password sign-in. Null when the
     * account is gone or disabled.
     */
    async signInVouched(userId: string, meta: RequestMeta, method: SignInMethod): Promise<Session | null> {
      const user = await repo.findUserById(userId);
      if (!user || user.disabled) return null;
      await deps.events?.onSignIn?.(toPublicUser(user), meta, method);
      return { ...(await issue(user)), deviceCookie: deps.deviceCookies.issue(user.id) };
    },

    /**
     * An account for someone a provider vouched for, under sign-up's rules (the first account and
     * ADMIN_EMAILS are admins). It has no usable password: the hash is of a random secret nobody
     * keeps. Refused while the server still waits for its setup token, which only a password
     * sign-up can present. `link` runs in the same transaction, so two first sign-ins cannot race.
     */
    async provisionVouched(
      input: { email: string; username: string | null },
      meta: RequestMeta,
      link: (userId: string) => Promise<void>,
    ): Promise<PublicUser> {
      const passwordHash = await Bun.password.hash(randomToken(32), ARGON);
      const email = input.email.toLowerCase();
      const user = await deps.db.tx(async () => {
        if (await repo.findUserByEmail(email)) throw new HttpError(409, "An account with this email already exists");
        const first = (await repo.countUsers()) === 0;
        if (first && deps.setupToken) throw new HttpError(403, SETUP_TOKEN_MESSAGE);
        const role = first || deps.adminEmails.includes(email) ? "admin" : "user";
        const id = newId();
        await repo.insertUser({ id, email, username: input.username, passwordHash, role });
        await link(id);
        return (await repo.findUserById(id))!;
      });
      await deps.events?.onSignUp?.(toPublicUser(user), meta);
      return toPublicUser(user);
    },

    /** The account of an e-mail address, for linking a verified provider identity to it. */
    async userIdByEmail(email: string): Promise<string | null> {
      return (await repo.findUserByEmail(email.toLowerCase()))?.id ?? null;
    },

    /**
     * Rotates the refresh token. One presented again within ROTATION_GRACE_MS of its rotation gets
     * 409 "try again" (a browser still waiting for the new cookie); later, it means the token leaked,
     * and its whole family is revoked.
     */
    async refresh(refreshToken: string | undefined): Promise<Session> {
      if (!refreshToken) throw unauthorized("No session");
      const at = nowIso(now());
      const hash = sha256(refreshToken);
      const row = await repo.findRefresh(hash);
      if (!row) throw unauthorized("Session expired");
      if (row.used_at && !row.revoked_at && (await justRotated(row))) throw conflict(JUST_ROTATED_MESSAGE);
      if (row.used_at || row.revoked_at) {
        await repo.revokeFamily(row.family_id, at);
        throw unauthorized("Session expired");
      }
      if (row.expires_at < at) throw unauthorized("Session expired");
      const user = await repo.findUserById(row.user_id);
      if (!user || user.disabled) throw unauthorized("Session expired");
      const consumed = await deps.db.tx(async () => {
        if (await repo.markUsed(row.id, at)) return "ok";
        // Another request with the same cookie won just now (parallel calls from one browser).
        const current = await repo.findRefresh(hash);
        if (current && !current.revoked_at && (await justRotated(current))) return "raced";
        await repo.revokeFamily(row.family_id, at);
        return "replayed";
      });
      if (consumed === "raced") throw conflict(JUST_ROTATED_MESSAGE);
      if (consumed === "replayed") throw unauthorized("Session expired");
      return issue(user, row.family_id);
    },

    async logout(refreshToken: string | undefined): Promise<void> {
      if (!refreshToken) return;
      const row = await repo.findRefresh(sha256(refreshToken));
      if (!row) return;
      await repo.revokeFamily(row.family_id, nowIso(now()));
      deps.onLogout?.(row.user_id, row.family_id);
    },

    /**
     * The sign-in session a live credential belongs to (the refresh-token family), so a socket
     * opened with it can be closed when that session logs out. Null for anything else.
     */
    async sessionOf(credential: { accessToken?: string; refreshToken?: string }): Promise<string | null> {
      if (credential.accessToken) {
        if (deps.apiKeys?.isKey(credential.accessToken)) return null;
        return deps.tokens.verify(credential.accessToken)?.sid ?? null;
      }
      if (!credential.refreshToken) return null;
      return (await repo.findRefresh(sha256(credential.refreshToken)))?.family_id ?? null;
    },

    /**
     * Who the refresh cookie belongs to, without rotating it: lets SSR render signed-in pages on
     * reload. A cookie rotated in the last few seconds still says who it is (it can no longer be
     * refreshed): a page left right after it started a refresh sends the next page's request with
     * the old cookie while the new one is still on its way to the browser.
     */
    async userForRefreshToken(refreshToken: string | undefined): Promise<PublicUser | null> {
      const user = (await userOfRefreshCookie(refreshToken))?.user;
      return user ? toPublicUser(user) : null;
    },

    /**
     * Resolves a bearer access token to a live user; role and disabled come from the database so
     * changes apply at once. It runs on every API request: the reads behind it are cached until the next write.
     */
    async userForAccessToken(token: string): Promise<PublicUser | null> {
      if (deps.apiKeys?.isKey(token)) return (await deps.apiKeys.principalForKey(token))?.user ?? null;
      const claims = deps.tokens.verify(token);
      return claims && liveUserFor(claims);
    },

    /** As userForAccessToken, with the workspace an API key is bound to (null for a session's token). */
    async principalForAccessToken(token: string): Promise<{ user: PublicUser; keyWorkspaceId: string | null } | null> {
      if (deps.apiKeys?.isKey(token)) return deps.apiKeys.principalForKey(token);
      const claims = deps.tokens.verify(token);
      const user = claims && (await liveUserFor(claims));
      return user ? { user, keyWorkspaceId: null } : null;
    },

    /** The current workspace of a request (see workspaceAccess). */
    workspaceFor: (who: Principal, requested: string | null): Promise<CurrentWorkspace | null> => deps.workspaces.current(who, requested),

    /**
     * A short-lived token for in-process calls made on a user's behalf (server-side loaders), tied to
     * the sign-in session of the page request's refresh cookie so that logging out ends it too. The
     * cookie is read the way userForRefreshToken reads it (never rotated).
     */
    async accessTokenFor(refreshToken: string | undefined): Promise<string | null> {
      const found = await userOfRefreshCookie(refreshToken);
      if (!found) return null;
      const { user: u, sessionId } = found;
      return deps.tokens.issue({ sub: u.id, role: u.role, ver: u.token_version, sid: sessionId });
    },

    /** Ends every session of a user at once: refresh tokens are revoked and outstanding access tokens stop verifying. */
    async endSessions(userId: string): Promise<void> {
      await deps.db.tx(async () => {
        await repo.bumpTokenVersion(userId);
        await repo.revokeUserTokens(userId, nowIso(now()));
      });
    },

    /** The setup token while it is still needed (no account yet), for the boot log; otherwise null. */
    async pendingSetupToken(): Promise<string | null> {
      return deps.setupToken && (await repo.countUsers()) === 0 ? deps.setupToken : null;
    },

    async me(userId: string): Promise<PublicUser | null> {
      const u = await repo.findUserById(userId);
      return u ? toPublicUser(u) : null;
    },
  };
}

export type AuthService = ReturnType<typeof authService>;
