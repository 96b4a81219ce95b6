// A new user's first minutes, in real Chromium against the real server:
// signup -> dashboard -> reload stays signed in -> palette -> theme -> logout.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, stepsTimeout, gotoHydrated } from "#tests/support/browser";
import { SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";

let server: RunningServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

// Each test makes up to about 12 Playwright steps; each fails by itself if it cannot happen.
setDefaultTimeout(stepsTimeout(12));

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser({ calm: true });
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" && /hydrat/i.test(m.text())) pageErrors.push(m.text());
  });
}, SERVER_START_MS + 30_000); // the server and a browser

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("platform flow", () => {
  const email = `e2e-${Date.now()}@example.com`;

  test("signup lands on the dashboard", async () => {
    await gotoHydrated(page, `${server.url}/signup`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Join the Rebellion" }).click();
    await page.getByText("Password Too Weak").first().waitFor();

    await page.getByLabel("Password", { exact: true }).fill("a-strong-password");
    await page.getByRole("button", { name: "Show password" }).click();
    expect(await page.getByLabel("Password", { exact: true }).getAttribute("type")).toBe("text");
    await page.getByRole("button", { name: "Join the Rebellion" }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await page.getByText("Welcome to the Rebellion!").first().waitFor();
    await page.getByRole("heading", { name: "Mission Control" }).waitFor();
  });

  test("a reload stays signed in (the server renders the page, not the guard)", async () => {
    const res = await page.reload();
    const html = await res!.text();
    expect(html).not.toContain("Hold Up There, Digital Wanderer");
    await page.getByRole("heading", { name: "Mission Control" }).waitFor();
    await page.getByText(email).first().waitFor();
  });

  test("the command palette opens with Ctrl+K, filters, and navigates with Enter", async () => {
    await page.keyboard.press("Control+k");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await page.keyboard.type("zzzz-nothing");
    await page.getByText('No commands found for "zzzz-nothing"').waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });

    await page.keyboard.press("Control+k");
    await page.keyboard.type("compar");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${server.url}/comparison`);
  });

  test("shortcut keys 1-5 move between the main pages", async () => {
    await page.locator("body").click({ position: { x: 700, y: 5 } });
    await page.keyboard.press("1");
    await page.waitForURL(`${server.url}/dashboard`);
    await page.keyboard.press("5");
    await page.waitForURL(`${server.url}/activity`);
  });

  test("the theme toggles, persists, and applies before first paint", async () => {
    const before = await page.evaluate(() => document.documentElement.classList.contains("dark"));
    await page.getByRole("button", { name: before ? "Switch to light theme" : "Switch to dark theme" }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(!before);
    const stored = await page.evaluate(() => localStorage.getItem("design-intel-theme"));
    expect(stored).toBe(before ? "light" : "dark");
    await page.reload();
    // The boot script in <head> set the class before React ran.
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(!before);
  });

  test("logout clears the session; guarded pages show the guard", async () => {
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.goto(`${server.url}/dashboard`);
    await page.getByText("Hold Up There, Digital Wanderer").waitFor();
    await page.getByRole("link", { name: "Sign In to Continue" }).waitFor();
  });

  test("login goes back to the dashboard", async () => {
    await gotoHydrated(page, `${server.url}/login`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("a-strong-password");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL(`${server.url}/dashboard`);
  });

  test("no hydration errors or uncaught exceptions along the way", () => {
    expect(pageErrors).toEqual([]);
  });
});
