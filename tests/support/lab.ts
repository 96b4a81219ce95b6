// Shared by the screens and accessibility suites: one real server, fixture sites, an admin with a
// completed comparison, and helpers to open a page in a given theme and wait until it hydrated.
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser } from "./browser";
import { startFixtureServer, type FixtureServer } from "./fixture-server";
import { startServer, type RunningServer } from "./server";
import { waitFor } from "./wait";

export type ThemeName = "light" | "dark";

export const AXE_PATH = join(import.meta.dir, "../../node_modules/axe-core/axe.min.js");
export const PASSWORD = "correct-horse-battery";

export interface Account {
  email: string;
  token: string;
  /** "name=value" of the refresh cookie. */
  cookie: string;
}

export interface Lab {
  server: RunningServer;
  sites: FixtureServer;
  browser: Browser;
  api<T = unknown>(account: Account, method: string, path: string, body?: unknown): Promise<T>;
  signup(email: string): Promise<Account>;
  /** A context signed in as `account` (refresh cookie set), or signed out without one. */
  context(account?: Account): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function startLab(): Promise<Lab> {
  const sites = startFixtureServer();
  const server = await startServer({ env: { ALLOW_PRIVATE_TARGETS: "1" } });
  const browser = await launchBrowser({ calm: true });

  async function api<T>(account: Account, method: string, path: string, body?: unknown): Promise<T> {
    const send = () =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${account.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    let res = await send();
    // Access tokens live 15 minutes, and a file can run longer than that on a busy machine. A new
    // sign-in, not a refresh: rotating the refresh cookie would end the session the account's
    // browser contexts hold (a replayed refresh token revokes it).
    if (res.status === 401) {
      account.token = await signIn(account.email);
      res = await send();
    }
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (res.status === 204 ? undefined : await res.json()) as T;
  }

  async function signIn(email: string): Promise<string> {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    if (!res.ok) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { accessToken: string }).accessToken;
  }

  async function signup(email: string): Promise<Account> {
    const res = await fetch(`${server.url}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    if (res.status !== 201) throw new Error(`signup ${email}: ${res.status} ${await res.text()}`);
    const { accessToken } = (await res.json()) as { accessToken: string };
    return { email, token: accessToken, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0]! };
  }

  async function context(account?: Account): Promise<BrowserContext> {
    // axe is injected as an inline script, which the page's nonce'd CSP would (rightly) refuse.
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
    if (account) {
      const eq = account.cookie.indexOf("=");
      await ctx.addCookies([
        { name: account.cookie.slice(0, eq), value: account.cookie.slice(eq + 1), url: server.url, httpOnly: true, sameSite: "Strict" },
      ]);
    }
    return ctx;
  }

  return {
    server,
    sites,
    browser,
    api,
    signup,
    context,
    async close() {
      await browser.close().catch(() => {});
      await server.stop();
      await sites.close();
    },
  };
}

/** Creates a comparison of two fixture sites, runs it for real and waits until it completed. */
export async function completedComparison(lab: Lab, owner: Account, name = "Orbit vs Orbit Edited"): Promise<string> {
  const c = await lab.api<{ id: string }>(owner, "POST", "/api/comparisons", { name, description: "Fixture sites on 127.0.0.1" });
  await lab.api(owner, "POST", `/api/comparisons/${c.id}/targets`, { url: lab.sites.url("/alpha/"), label: "Orbit" });
  await lab.api(owner, "POST", `/api/comparisons/${c.id}/targets`, { url: lab.sites.url("/alpha-edited/"), label: "Orbit Edited" });
  await lab.api(owner, "POST", `/api/comparisons/${c.id}/start`);
  // Four pages at two at a time, each under the capture's own limits (60 s at most), then scoring.
  await waitFor(
    "the fixture comparison to complete",
    async () => {
      const { status } = await lab.api<{ status: string }>(owner, "GET", `/api/comparisons/${c.id}`);
      if (status === "failed") throw new Error("fixture comparison failed");
      return status === "completed";
    },
    COMPLETED_COMPARISON_MS,
    250,
  );
  return c.id;
}

export const COMPLETED_COMPARISON_MS = 180_000;

/** Opens `path` in `theme` and waits for the client to take over the server-rendered page. */
export async function open(page: Page, url: string, theme: ThemeName): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  await waitUntilLoaded(page);
  const applied = await page.evaluate(() => (document.documentElement.classList.contains("dark") ? "dark" : "light"));
  if (applied !== theme) throw new Error(`${url}: expected the ${theme} theme, got ${applied}`);
}

/** Waits until nothing on the page says it is loading (skeletons, aria-busy regions). */
export async function waitUntilLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .rt-Skeleton'));
}
