import "#tests/support/dom";
import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { afterAll, afterEach, beforeEach, describe, expect, mock, test } from "bun:test";
import type { ReactNode } from "react";
// tests/support/dom registers happy-dom once per process and drops it after the first test file
// that imported it; in a multi-file run this file can start without a DOM, so it brings its own.
if (!GlobalRegistrator.isRegistered) {
  GlobalRegistrator.register({ url: "http://localhost:3000/" });
  afterEach(async () => (await import("@testing-library/react")).cleanup());
  afterAll(() => GlobalRegistrator.unregister());
}
// Loaded only now, after happy-dom is registered: Bun evaluates CommonJS dependencies such as
// react-dom before ESM module bodies, and react-dom decides once, at load, whether it has a DOM.
const { act, fireEvent, render, within } = await import("@testing-library/react");
const { Theme } = await import("@radix-ui/themes");
const { RouterProvider, createMemoryRouter } = await import("react-router");
const { Toaster, useToasts } = await import("#web/components/ui/toast");
const { useAuth } = await import("./store");
const { LoginForm } = await import("./components/login-form");
const { SignupForm } = await import("./components/signup-form");

const $ = () => within(document.body);
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/**
 * Fires an event and lets the async work it starts (mocked fetch, toast, navigation) finish
 * inside act, optionally until `done()` holds. In a multi-file run React's scheduler can belong
 * to an earlier, closed happy-dom window, so updates made outside act would never be applied.
 */
async function settle(fire: () => void = () => {}, done: () => boolean = () => true) {
  await act(async () => {
    fire();
    for (let i = 0; i < 10; i++) await tick();
    for (let i = 0; i < 200 && !done(); i++) await tick(10);
  });
}
const press = (name: string, done?: () => boolean) => settle(() => fireEvent.click($().getByRole("button", { name })), done);
const realFetch = globalThis.fetch;
let calls: { url: string; body: unknown }[];

function mockFetch(answer: () => Response, gate?: Promise<void>) {
  calls = [];
  globalThis.fetch = mock(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (gate) await gate;
    return answer();
  }) as unknown as typeof fetch;
}
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const user = { id: "u1", email: "ada@example.com", username: null, role: "user" as const };
const authOk = () => json(200, { accessToken: "token-1", user });

/** The form at `path`, with a stand-in dashboard to land on. */
function renderAt(path: "/login" | "/signup", form: ReactNode, search = "") {
  const router = createMemoryRouter(
    [
      { path, element: form },
      { path: "/dashboard", element: <h1>Mission Control stand-in</h1> },
    ],
    { initialEntries: [path + search] },
  );
  render(
    <Theme>
      <RouterProvider router={router} />
      <Toaster />
    </Theme>,
  );
  return router;
}
const type = (label: string, value: string) => fireEvent.change($().getByLabelText(label), { target: { value } });

beforeEach(() => {
  useToasts.getState().dismiss();
  useAuth.getState().clear();
  mockFetch(authOk);
});
afterEach(async () => {
  globalThis.fetch = realFetch;
  // Let React's scheduler finish the unmount work while the DOM still exists.
  await tick();
});

describe("login form", () => {
  test("submit stays disabled until both e-mail and password are filled", () => {
    renderAt("/login", <LoginForm />);
    const submit = () => $().getByRole("button", { name: "Sign In" }) as HTMLButtonElement;
    expect(submit().disabled).toBe(true);
    type("Email", "   ");
    type("Password", "hunter22");
    expect(submit().disabled).toBe(true);
    type("Email", "ada@example.com");
    expect(submit().disabled).toBe(false);
    type("Password", "");
    expect(submit().disabled).toBe(true);
  });

  test("the password toggle shows and hides the password", () => {
    renderAt("/login", <LoginForm />);
    const input = $().getByLabelText("Password") as HTMLInputElement;
    expect(input.type).toBe("password");
    fireEvent.click($().getByRole("button", { name: "Show password" }));
    expect(input.type).toBe("text");
    fireEvent.click($().getByRole("button", { name: "Hide password" }));
    expect(input.type).toBe("password");
  });

  test("success welcomes the user, stores the session and lands on /dashboard", async () => {
    let release!: () => void;
    mockFetch(authOk, new Promise<void>((r) => (release = r)));
    const router = renderAt("/login", <LoginForm />);
    type("Email", "  ada@example.com ");
    type("Password", "correct-horse");
    await press("Sign In");
    expect(($().getByRole("button", { name: "Signing in..." }) as HTMLButtonElement).disabled).toBe(true);

    // The redirect waits ~100 ms after the welcome toast; settle until the router has moved.
    await settle(release, () => router.state.location.pathname === "/dashboard");
    expect($().getByText("Welcome back!")).toBeTruthy();
    expect(calls[0]).toEqual({ url: "/api/auth/login", body: { email: "ada@example.com", password: "correct-horse" } });
    expect(useAuth.getState().user?.email).toBe("ada@example.com");
    expect($().getByText("Mission Control stand-in")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/dashboard");
  });

  test("failure shows the server's error and stays put", async () => {
    mockFetch(() => json(401, { error: "Invalid email or password" }));
    const router = renderAt("/login", <LoginForm />);
    type("Email", "ada@example.com");
    type("Password", "wrong-password");
    await press("Sign In");
    expect($().getByText("Login Failed")).toBeTruthy();
    expect($().getByText("Invalid email or password")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/login");
    expect(($().getByRole("button", { name: "Sign In" }) as HTMLButtonElement).disabled).toBe(false);
  });

  test("a reply without token or user falls back to the friendly message", async () => {
    mockFetch(() => json(200, { user }));
    renderAt("/login", <LoginForm />);
    type("Email", "ada@example.com");
    type("Password", "whatever1");
    await press("Sign In");
    expect($().getByText("Something went sideways. Double-check those credentials.")).toBeTruthy();
    expect(useAuth.getState().status).toBe("unauthenticated");
  });

  test("links to sign-up", () => {
    renderAt("/login", <LoginForm />);
    expect($().getByRole("link", { name: "Join the Rebellion" }).getAttribute("href")).toBe("/signup");
  });
});

describe("signup form", () => {
  test("a password under 8 characters is refused on the spot, without a request", async () => {
    renderAt("/signup", <SignupForm />);
    type("Email", "ada@example.com");
    type("Password", "short12");
    await press("Join the Rebellion");
    expect($().getByText("Password Too Weak")).toBeTruthy();
    expect($().getByText("Come on, you can do better than that. At least 8 characters, please.")).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  test("the password input carries minLength 8 and a show/hide toggle", () => {
    renderAt("/signup", <SignupForm />);
    const input = $().getByLabelText("Password") as HTMLInputElement;
    expect(input.minLength).toBe(8);
    fireEvent.click($().getByRole("button", { name: "Show password" }));
    expect(input.type).toBe("text");
  });

  test("an empty e-mail sends nothing", async () => {
    renderAt("/signup", <SignupForm />);
    type("Email", "  ");
    type("Password", "long-enough-pass");
    await press("Join the Rebellion");
    expect(calls).toHaveLength(0);
    expect(useToasts.getState().current).toBeNull();
  });

  test("shows 'Creating chaos...' while pending, then welcomes and goes straight to /dashboard", async () => {
    let release!: () => void;
    mockFetch(() => json(201, { accessToken: "t", user }), new Promise<void>((r) => (release = r)));
    const router = renderAt("/signup", <SignupForm />);
    type("Email", "ada@example.com");
    type("Username (optional)", "  ada  ");
    type("Password", "long-enough-pass");
    await press("Join the Rebellion");
    expect(($().getByRole("button", { name: "Creating chaos..." }) as HTMLButtonElement).disabled).toBe(true);

    await settle(release);
    expect($().getByText("Welcome to the Rebellion!")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/dashboard");
    expect(calls[0]).toEqual({
      url: "/api/auth/signup",
      body: { email: "ada@example.com", password: "long-enough-pass", username: "ada" },
    });
  });

  test("an empty username is left out of the request", async () => {
    mockFetch(() => json(201, { accessToken: "t", user }));
    renderAt("/signup", <SignupForm />);
    type("Email", "ada@example.com");
    type("Username (optional)", "   ");
    type("Password", "long-enough-pass");
    await press("Join the Rebellion");
    expect($().getByText("Welcome to the Rebellion!")).toBeTruthy();
    expect(calls[0]!.body).toEqual({ email: "ada@example.com", password: "long-enough-pass" });
  });

  test("a fresh install's sign-up link (?setup=TOKEN) sends the setup token along", async () => {
    mockFetch(() => json(201, { accessToken: "t", user }));
    renderAt("/signup", <SignupForm />, "?setup=tok_123-abc");
    type("Email", "ada@example.com");
    type("Password", "long-enough-pass");
    await press("Join the Rebellion");
    expect(calls[0]!.body).toEqual({ email: "ada@example.com", password: "long-enough-pass", setupToken: "tok_123-abc" });
  });

  test("failure shows the server's message, else the friendly fallback", async () => {
    mockFetch(() => json(409, { error: "That email is already registered" }));
    renderAt("/signup", <SignupForm />);
    type("Email", "ada@example.com");
    type("Password", "long-enough-pass");
    await press("Join the Rebellion");
    expect($().getByText("Signup Failed")).toBeTruthy();
    expect($().getByText("That email is already registered")).toBeTruthy();

    mockFetch(() => new Response("", { status: 500, statusText: "Internal Server Error" }));
    await press("Join the Rebellion");
    expect($().getByText("Something went wrong. Maybe try a different email?")).toBeTruthy();
  });

  test("links to sign-in", () => {
    renderAt("/signup", <SignupForm />);
    expect($().getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/login");
  });
});

describe("before hydration", () => {
  test("the server-rendered forms post, and their submit buttons stay off until React attaches the handler", async () => {
    const { renderToString } = await import("react-dom/server");
    const router = createMemoryRouter(
      [
        {
          path: "*",
          element: (
            <Theme>
              <SignupForm />
              <LoginForm />
            </Theme>
          ),
        },
      ],
      { initialEntries: ["/signup"] },
    );
    const html = renderToString(<RouterProvider router={router} />);
    const forms = [...html.matchAll(/<form[^>]*>/g)].map((m) => m[0]);
    expect(forms).toHaveLength(2);
    for (const form of forms) expect(form).toContain('method="post"');
    const buttons = [...html.matchAll(/<button[^>]*type="submit"[^>]*>/g)].map((m) => m[0]);
    expect(buttons).toHaveLength(2);
    for (const button of buttons) expect(button).toContain("disabled");
  });
});
