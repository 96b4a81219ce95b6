import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "#server/lib/chromium";
import { recordToasts } from "./toasts";

/**
 * How long one Playwright step (a click, a navigation, a waitFor) may take. The condition ends the
 * wait; this only names a step that cannot happen. On a loaded 2-core host one click can take past 15 s.
 * A test that times out makes bun kill every process the file started (the browser and server of
 * its beforeAll too), failing every later test in the file, so browser tests size bun's timeout
 * with stepsTimeout below and a stuck step fails first, with its own message.
 */
export const STEP_TIMEOUT_MS = 30_000;

/**
 * Bun's timeout for a browser test of `steps` Playwright steps: a backstop past the sum of their
 * own timeouts, so a step that cannot happen fails first, with its message, and a slow machine
 * (every step slower, none stuck) never fails the test. Count the waits a test makes (navigations,
 * waitFor, clicks) generously; evaluate() has no timeout of its own, so count each as a step too.
 */
export const stepsTimeout = (steps: number) => steps * STEP_TIMEOUT_MS;

/**
 * Launches the test browser. `calm`: every context prefers reduced motion, so the app's endless
 * animations (live pulses, its own spinners, Radix's loaders) stop.
 * In headless Chromium each animated frame is painted and composited in software: the landing
 * page's pulse alone, left open, cost about a tenth of a core for as long as it stayed. For tests
 * of the app's pages, not of motion; the capture's own tests keep the default (what they measure
 * can move). Calm contexts also write down every toast the app shows (./toasts.ts).
 */
export async function launchBrowser(opts: { calm?: boolean } = {}): Promise<Browser> {
  const executablePath = findChromium(process.env.CHROMIUM_PATH);
  if (!executablePath) throw new Error("No Chromium found: install Debian's chromium or set CHROMIUM_PATH");
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  // browser.newPage() makes its context through newContext(), so this covers both.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(opts.calm ? { reducedMotion: "reduce", ...options } : options);
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    if (opts.calm) await recordToasts(context);
    return context;
  };
  return browser;
}

/**
 * Opens `url` and waits until React owns the page (web/root.tsx marks <html data-hydrated>).
 * Route chunks load before hydration, so a key press or click sent earlier reaches a page with
 * no handlers yet.
 */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

/**
 * Signs `email` up through the API and hands its session (the refresh cookie) to `context`, for
 * tests whose subject is not the sign-up form (comparison.e2e goes through the form): two page
 * loads fewer per account. The first account on a server is its admin.
 */
export async function signUpInto(context: BrowserContext, base: string, email: string, password: string): Promise<void> {
  const res = await fetch(`${base}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 201) throw new Error(`signup ${email}: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith("di_refresh="))
    ?.split(";")[0];
  if (!cookie) throw new Error(`signup ${email}: no refresh cookie`);
  const eq = cookie.indexOf("=");
  await context.addCookies([{ name: cookie.slice(0, eq), value: cookie.slice(eq + 1), url: base, httpOnly: true, sameSite: "Strict" }]);
}
