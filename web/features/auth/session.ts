import type { AuthAnswer } from "#server/modules/auth/model";
import { ApiError, api, call, setTokenSource } from "#web/lib/api";
import { useWorkspaceStore } from "#web/lib/workspace";
import { useAuth } from "./store";

export const REFRESH_INTERVAL_MS = 8 * 60 * 1000;

let inFlight: Promise<string | null> | null = null;
/**
 * Bumped by every explicit sign-in and sign-out. A refresh that started before one of them must
 * not undo it: its answer would sign a logged-out user back in, or its failure sign a fresh login out.
 */
let epoch = 0;

/** Tries again this many times when the server says the cookie was rotated a moment ago. */
const ROTATION_RETRIES = 3;
const ROTATION_RETRY_MS = 300;

/**
 * POST /api/auth/refresh. A 409 means another request (the page before this one, its answer still
 * on the way to the browser) rotated this cookie a moment ago: wait for the new cookie and go again.
 */
async function rotate() {
  for (let attempt = 0; ; attempt++) {
    try {
      // keepalive: a page left while this is in flight (a quick click to another page) must not
      // cancel it. The server has rotated the cookie by then; with the answer dropped the browser
      // would keep the old one, and presenting that again reads as a stolen token and ends the session.
      return await call(api.auth.refresh.post(undefined, { fetch: { keepalive: true } }));
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 409) || attempt >= ROTATION_RETRIES) throw e;
      await new Promise((resolve) => setTimeout(resolve, ROTATION_RETRY_MS * (attempt + 1)));
    }
  }
}

async function doRefresh(): Promise<string | null> {
  const started = epoch;
  try {
    const { accessToken } = await rotate();
    const { user } = await call(api.auth.me.get({ headers: { authorization: `Bearer ${accessToken}` } }));
    if (started !== epoch) return useAuth.getState().accessToken;
    useAuth.getState().setSession(accessToken, user);
    return accessToken;
  } catch {
    if (started !== epoch) return useAuth.getState().accessToken;
    useAuth.getState().clear();
    return null;
  }
}

/**
 * One refresh at a time, across tabs too: refresh tokens rotate, so two tabs presenting the
 * same cookie at once would look like a replay and end the session.
 */
export function refreshSession(): Promise<string | null> {
  if (inFlight) return inFlight;
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  inFlight = (locks ? locks.request("design-intel-refresh", doRefresh) : doRefresh()).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

setTokenSource({
  getToken: () => useAuth.getState().accessToken,
  refresh: refreshSession,
  // Signed in (the server rendered the page for this user) but no token yet: the start-up refresh
  // is due or under way, and calls wait for it rather than each bouncing off a 401 first.
  pending: () => {
    const s = useAuth.getState();
    return s.status === "authenticated" && !s.accessToken ? refreshSession() : null;
  },
});

function validate(answer: Partial<AuthAnswer> | null): AuthAnswer {
  if (!answer?.accessToken || !answer.user) throw new Error("Invalid response from server - missing token or user data");
  return answer as AuthAnswer;
}

/** Spec §8: the server's own words when it gave some; otherwise the helper's fallback. */
async function authCall(send: () => Promise<Partial<AuthAnswer> | null>, fallback: string): Promise<AuthAnswer> {
  let answer: Partial<AuthAnswer> | null;
  try {
    answer = await send();
  } catch (err) {
    if (err instanceof ApiError && !err.serverMessage) throw new Error(fallback, { cause: err });
    throw err;
  }
  const valid = validate(answer);
  epoch++;
  // Another account may have been signed in here: its workspace is not this one's.
  useWorkspaceStore.getState().set(null);
  useAuth.getState().setSession(valid.accessToken, valid.user);
  return valid;
}

export function login(email: string, password: string): Promise<AuthAnswer> {
  return authCall(() => call(api.auth.login.post({ email: email.trim(), password })), "Login failed");
}

/** `setupToken`: the one-time token a fresh install prints at boot (its sign-up link carries it as ?setup=). */
export function signup(email: string, password: string, username?: string, setupToken?: string): Promise<AuthAnswer> {
  const name = username?.trim();
  // Empty values are left out (undefined is not serialised).
  const body = { email: email.trim(), password, username: name || undefined, setupToken: setupToken || undefined };
  return authCall(() => call(api.auth.signup.post(body)), "Signup failed");
}

/** Clears local state whatever the server says. */
export async function logout(): Promise<void> {
  epoch++;
  try {
    await call(api.auth.logout.post());
  } catch {
    /* the local session ends regardless */
  } finally {
    useAuth.getState().clear();
    useWorkspaceStore.getState().set(null);
  }
}

/**
 * Refresh on start, then every 8 minutes while signed in. Returns a stop function.
 * When the server rendered the page for nobody, its cookie (if any) is already known dead: a start
 * probe could only fail, so none is sent (an anonymous page load makes no failing request).
 */
export function startSession(): () => void {
  if (useAuth.getState().status !== "unauthenticated") void refreshSession();
  const timer = setInterval(() => {
    if (useAuth.getState().status === "authenticated") void refreshSession();
  }, REFRESH_INTERVAL_MS);
  return () => clearInterval(timer);
}
