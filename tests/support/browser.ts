import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "#server/lib/chromium";

/**
 * How long one Playwright step (a click, a navigation, a waitFor) may take. The condition ends the
 * wait; this only names a step that cannot happen. On 2 cores at load 58 one click took past 15 s.
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

export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium(process.env.CHROMIUM_PATH);
  if (!executablePath) throw new Error("No Chromium found: install Debian's chromium or set CHROMIUM_PATH");
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  // browser.newPage() makes its context through newContext(), so this covers both.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
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
