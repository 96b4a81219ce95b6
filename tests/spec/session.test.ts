// Spec §4 (authentication states), §5 (login response check), §7 (how calls are made) and §8/§9
// (auth helper fallbacks, the 8-minute refresh) against the browser's session and HTTP client.
import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { ApiError, api, call } from "#web/lib/api";
import { REFRESH_INTERVAL_MS, login, logout, signup, startSession } from "#web/features/auth/session";
import { useAuth } from "#web/features/auth/store";

interface Call {
  method: string;
  path: string;
  credentials: RequestCredentials | undefined;
  authorization: string | null;
  body: unknown;
  keepalive: boolean | undefined;
}

const realFetch = globalThis.fetch;
let calls: Call[];
const user = { id: "u1", email: "ada@example.com", username: null, role: "user" as const };
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

function serve(handler: (c: Call) => Response | Promise<Response>) {
  calls = [];
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const c: Call = {
      method: init?.method ?? "GET",
      path: String(input),
      credentials: init?.credentials,
      authorization: new Headers(init?.headers).get("authorization"),
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
      keepalive: init?.keepalive,
    };
    calls.push(c);
    return handler(c);
  }) as typeof fetch;
}

/** Lets the fetch stand-ins and the promise chains behind them settle (microtasks only, so it works under fake timers too). */
const flush = async () => {
  for (let i = 0; i < 100; i++) await Promise.resolve();
};

beforeEach(() => useAuth.setState({ status: "loading", user: null, accessToken: null }));
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.useRealTimers();
});

describe("§4 authentication states", () => {
  test("on start a refresh is attempted: refresh, then /me with the Bearer token; loading becomes authenticated", async () => {
    serve((c) => (c.path === "/api/auth/refresh" ? json(200, { accessToken: "fresh" }) : json(200, { user })));
    expect(useAuth.getState().status).toBe("loading");
    const stop = startSession();
    await flush();
    stop();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["POST /api/auth/refresh", "GET /api/auth/me"]);
    expect(calls[1]!.authorization).toBe("Bearer fresh");
    // Leaving the page must not cut the refresh off (the rotated cookie would be lost).
    expect(calls[0]!.keepalive).toBe(true);
    expect(useAuth.getState()).toMatchObject({ status: "authenticated", accessToken: "fresh", user });
  });

  test("a failed refresh clears the user: loading becomes unauthenticated", async () => {
    useAuth.setState({ status: "authenticated", user, accessToken: "old" });
    serve(() => json(401, { error: "No session" }));
    const stop = startSession();
    await flush();
    stop();
    expect(useAuth.getState()).toMatchObject({ status: "unauthenticated", accessToken: null, user: null });
  });

  test("a refresh told 409 (the cookie was rotated a moment ago) waits and tries again; the session goes on", async () => {
    let refreshes = 0;
    serve((c) => {
      if (c.path !== "/api/auth/refresh") return json(200, { user });
      refreshes++;
      return refreshes === 1
        ? json(409, { error: "The session was refreshed a moment ago; try again" })
        : json(200, { accessToken: "second" });
    });
    const stop = startSession();
    // Until the retry lands (300 ms later); the bound is for a busy machine.
    for (let i = 0; i < 500 && useAuth.getState().status !== "authenticated"; i++) await Bun.sleep(20);
    stop();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["POST /api/auth/refresh", "POST /api/auth/refresh", "GET /api/auth/me"]);
    expect(useAuth.getState()).toMatchObject({ status: "authenticated", accessToken: "second", user });
  });

  test("a refresh still told 409 after its retries fails like any other", async () => {
    serve((c) =>
      c.path === "/api/auth/refresh" ? json(409, { error: "The session was refreshed a moment ago; try again" }) : json(200, { user }),
    );
    const stop = startSession();
    // Until the last retry (1.8 s of back-off) gives up; the bound is for a busy machine.
    for (let i = 0; i < 750 && useAuth.getState().status === "loading"; i++) await Bun.sleep(20);
    stop();
    expect(calls.filter((c) => c.path === "/api/auth/refresh")).toHaveLength(4);
    expect(useAuth.getState()).toMatchObject({ status: "unauthenticated", accessToken: null });
  });

  test("the session is refreshed every 8 minutes while signed in", async () => {
    expect(REFRESH_INTERVAL_MS).toBe(8 * 60 * 1000);
    jest.useFakeTimers();
    serve((c) => (c.path === "/api/auth/refresh" ? json(200, { accessToken: `t${calls.length}` }) : json(200, { user })));
    const stop = startSession();
    await flush();
    const refreshes = () => calls.filter((c) => c.path === "/api/auth/refresh").length;
    expect(refreshes()).toBe(1);
    jest.advanceTimersByTime(REFRESH_INTERVAL_MS - 1000);
    await flush();
    expect(refreshes()).toBe(1);
    jest.advanceTimersByTime(1000);
    await flush();
    expect(refreshes()).toBe(2);
    // Signed out: the timer keeps ticking but asks nothing.
    useAuth.getState().clear();
    jest.advanceTimersByTime(REFRESH_INTERVAL_MS);
    await flush();
    expect(refreshes()).toBe(2);
    stop();
  });

  test("login sets the token and the user, with the e-mail trimmed", async () => {
    serve(() => json(200, { accessToken: "tok", user }));
    await login("  ada@example.com ", "correct-horse");
    expect(calls[0]!.body).toEqual({ email: "ada@example.com", password: "correct-horse" });
    expect(useAuth.getState()).toMatchObject({ status: "authenticated", accessToken: "tok", user });
  });

  test("signup sets the token and the user; an empty username is omitted, a real one trimmed", async () => {
    serve(() => json(201, { accessToken: "tok", user }));
    await signup("ada@example.com", "correct-horse", "   ");
    await signup("ada@example.com", "correct-horse", "  ada ");
    expect(calls.map((c) => c.body)).toEqual([
      { email: "ada@example.com", password: "correct-horse" },
      { email: "ada@example.com", password: "correct-horse", username: "ada" },
    ]);
    expect(useAuth.getState().status).toBe("authenticated");
  });

  test("logout always clears token and user, even when the call fails", async () => {
    for (const failure of [() => json(500, { error: "boom" }), () => Promise.reject(new TypeError("offline"))]) {
      useAuth.setState({ status: "authenticated", user, accessToken: "tok" });
      serve(failure);
      await logout();
      expect(calls[0]).toMatchObject({ method: "POST", path: "/api/auth/logout" });
      expect(useAuth.getState()).toMatchObject({ status: "unauthenticated", accessToken: null, user: null });
    }
  });
});

describe("§5/§8 login and signup answers", () => {
  test("an OK answer without accessToken or user fails with the spec's message and signs nobody in", async () => {
    for (const body of [{ user }, { accessToken: "tok" }, {}]) {
      serve(() => json(200, body));
      await expect(login("ada@example.com", "pw-123456")).rejects.toThrow("Invalid response from server - missing token or user data");
    }
    expect(useAuth.getState().status).toBe("loading");
  });

  test("a refusal carries the server's message; without one the helpers say 'Login failed' / 'Signup failed'", async () => {
    serve(() => json(401, { error: "Invalid email or password" }));
    const refused = await login("ada@example.com", "wrong-pass").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).serverMessage).toBe("Invalid email or password");

    serve(() => new Response("", { status: 500, statusText: "Internal Server Error" }));
    await expect(login("ada@example.com", "pw-123456")).rejects.toThrow(/^Login failed$/);
    await expect(signup("ada@example.com", "pw-123456")).rejects.toThrow(/^Signup failed$/);
  });
});

describe("§7 the HTTP client", () => {
  test("every call sends cookies; reads are GETs and bodies are JSON POSTs", async () => {
    serve(() => json(200, { ok: true }));
    await call(api.agents.get());
    await call(api["beta-signups"].post({ email: "a@b.co", source: "header" }));
    await call(api.targets({ id: "t1" }).delete());
    expect(calls.map((c) => [c.method, c.credentials])).toEqual([
      ["GET", "include"],
      ["POST", "include"],
      ["DELETE", "include"],
    ]);
    expect(calls[1]!.body).toEqual({ email: "a@b.co", source: "header" });
  });

  test("a non-OK answer becomes an error 'status: body', or 'status: status text' when the body is empty", async () => {
    serve(() => json(409, { error: "Already running" }));
    const withBody = (await call(api.comparisons({ id: "c1" }).start.post()).catch((e: unknown) => e)) as ApiError;
    expect(withBody.message).toBe('409: {"error":"Already running"}');
    expect(withBody.serverMessage).toBe("Already running");

    serve(() => new Response("", { status: 503, statusText: "Service Unavailable" }));
    const empty = (await call(api.metrics.get()).catch((e: unknown) => e)) as ApiError;
    expect(empty.message).toBe("503: Service Unavailable");
  });

  test("401 raises by default; a read can ask for null instead", async () => {
    serve(() => json(401, { error: "Sign in first" }));
    await expect(call(api.agents.get())).rejects.toThrow("401: ");
    expect(await call(api.agents.get(), { nullOn401: true })).toBeNull();
  });

  test("no retries: a failing call is made once; only a 401 gets one retry after a successful refresh", async () => {
    serve(() => json(500, { error: "boom" }));
    await expect(call(api.metrics.get())).rejects.toThrow("500: ");
    expect(calls).toHaveLength(1);

    useAuth.setState({ status: "authenticated", user, accessToken: "expired" });
    serve((c) => {
      if (c.path === "/api/auth/refresh") return json(200, { accessToken: "renewed" });
      if (c.path === "/api/auth/me") return json(200, { user });
      return c.authorization === "Bearer renewed" ? json(200, { tests: 2 }) : json(401, { error: "Token expired" });
    });
    expect((await call(api.metrics.get())) as unknown).toEqual({ tests: 2 });
    expect(calls.map((c) => `${c.method} ${c.path} ${c.authorization ?? "-"}`)).toEqual([
      "GET /api/metrics Bearer expired",
      "POST /api/auth/refresh Bearer expired",
      "GET /api/auth/me Bearer renewed",
      "GET /api/metrics Bearer renewed",
    ]);
  });
});

describe("§4 explicit sign-in and sign-out win over a refresh already under way", () => {
  /** A stand-in server whose refresh answer the test releases when it wants. */
  function slowRefresh(answer: () => Response) {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    serve(async (c) => {
      if (c.path === "/api/auth/refresh") {
        await gate;
        return answer();
      }
      if (c.path === "/api/auth/me") return json(200, { user });
      if (c.path === "/api/auth/logout") return json(200, { ok: true });
      return json(200, { accessToken: "from-login", user: { ...user, email: "new@example.com" } });
    });
    return release;
  }

  test("logging out while the start-up refresh is in flight stays logged out", async () => {
    useAuth.setState({ status: "authenticated", user, accessToken: "tok" });
    const release = slowRefresh(() => json(200, { accessToken: "late" }));
    const stop = startSession();
    await flush();
    await logout();
    release();
    await flush();
    stop();
    expect(useAuth.getState()).toMatchObject({ status: "unauthenticated", user: null, accessToken: null });
  });

  test("a start-up refresh that fails after a login does not sign the new session out", async () => {
    const release = slowRefresh(() => json(401, { error: "No session" }));
    const stop = startSession();
    await flush();
    await login("new@example.com", "correct-horse");
    release();
    await flush();
    stop();
    expect(useAuth.getState()).toMatchObject({ status: "authenticated", accessToken: "from-login" });
    expect(useAuth.getState().user?.email).toBe("new@example.com");
  });
});
