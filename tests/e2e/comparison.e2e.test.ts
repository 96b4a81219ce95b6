// The heart of the product, as a new user meets it, in real Chromium against the real server and
// real captures of fixture sites served on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, stepsTimeout, gotoHydrated } from "#tests/support/browser";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";

let server: RunningServer;
let sites: FixtureServer;
let browser: Browser;
let page: Page;
const errors: string[] = [];
/** Two sites at two viewports, two pages at a time, each under the capture's limits (60 s at most), then scoring. */
const RUN_MS = 180_000;

// Each test makes up to about 15 Playwright steps; the run itself is counted apart.
setDefaultTimeout(stepsTimeout(20));

beforeAll(async () => {
  sites = startFixtureServer();
  server = await startServer({ env: { ALLOW_PRIVATE_TARGETS: "1" } });
  browser = await launchBrowser({ calm: true });
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on("pageerror", (e) => errors.push(e.message));
}, SERVER_START_MS + 30_000); // the server and a browser

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sites?.close();
});

describe("comparison flow", () => {
  test("sign up and create a comparison", async () => {
    await gotoHydrated(page, `${server.url}/signup`);
    await page.getByLabel("Email").fill(`cmp-${Date.now()}@example.com`);
    await page.getByLabel("Password", { exact: true }).fill("a-strong-password");
    await page.getByRole("button", { name: "Join the Rebellion" }).click();
    await page.waitForURL(`${server.url}/dashboard`);

    await gotoHydrated(page, `${server.url}/comparison`);
    await page.getByText("No comparisons yet. Create your first one above!").waitFor();
    await page.getByText("No Comparison Selected").waitFor();
    await page.getByRole("button", { name: "Create Comparison" }).click();
    await page.getByText("Comparison name is required").waitFor();
    await page.getByLabel("Comparison Name").fill("Orbit vs Ember");
    await page.getByRole("button", { name: "Create Comparison" }).click();
    await page.getByText("Comparison Created").first().waitFor();
    // A new comparison is selected at once.
    await page.getByText("Add Competitor Website").waitFor();
    await page.getByText("No websites added yet. Add your first competitor website above to get started.").waitFor();
    expect(await page.getByRole("button", { name: "Start Analysis" }).isDisabled()).toBe(true);
  });

  test("add two sites; start becomes possible", async () => {
    await page.getByLabel("Website URL").fill("not a url");
    await page.getByLabel("Display Label").fill("Broken");
    await page.getByRole("button", { name: "Add Website" }).click();
    await page.getByText("Please enter a valid URL").first().waitFor();

    for (const [site, label] of [
      ["alpha", "Orbit"],
      ["beta", "Ember"],
    ] as const) {
      await page.getByLabel("Website URL").fill(sites.url(`/${site}/`));
      await page.getByLabel("Display Label").fill(label);
      await page.getByRole("button", { name: "Add Website" }).click();
      await page.getByRole("button", { name: `Remove ${label}` }).waitFor();
    }
    await page.getByText("(Add at least 2 websites to run comparison)").waitFor({ state: "detached" });
    expect(await page.getByRole("button", { name: "Start Analysis" }).isDisabled()).toBe(false);
    expect(await page.getByRole("button", { name: "View Results" }).isDisabled()).toBe(true);
  });

  test(
    "start: real progress shows, then the run completes without a reload",
    async () => {
      await page.getByRole("button", { name: "Start Analysis" }).click();
      await page.getByText("Analysis in Progress").waitFor();
      const progress = page.getByRole("progressbar", { name: "Analysis progress" });
      await progress.waitFor();
      // View Results turns from a disabled button into a link when the run completes.
      await page.getByRole("link", { name: "View Results" }).waitFor({ timeout: RUN_MS });
      await page.getByText("Analysis in Progress").waitFor({ state: "detached" });
    },
    RUN_MS + stepsTimeout(5),
  );

  test("results: both screenshots side by side, summary, findings, overlays and tabs", async () => {
    await page.getByRole("link", { name: "View Results" }).click();
    await page.waitForURL(/\/comparison\/[^/]+\/view/);
    await page.getByText("Analysis Summary").waitFor();
    const panels = page.getByTestId("screenshot-panel");
    expect(await panels.count()).toBe(2);
    expect(await page.locator('[data-testid="screenshot-panel"] img').count()).toBe(2);
    // Screenshots load for their owner.
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('[data-testid="screenshot-panel"] img')].every(
        (i) => i.complete && i.naturalWidth > 0,
      ),
    );
    const summary = await page.locator("body").innerText();
    expect(summary).toMatch(/\d+%/);

    // One overlay at a time (two sets of tags over a capture collide): the last one chosen stays on.
    for (const overlay of ["Layout", "Typography", "Elements", "Colors"]) {
      await page.getByRole("switch", { name: overlay }).click();
    }
    await page.getByLabel("Dominant colours").first().waitFor();
    expect(await page.locator('[role="switch"][aria-checked="true"]').count()).toBe(1);
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/results-desktop.png`, fullPage: true });

    await page.getByRole("tab", { name: "Mobile" }).click();
    await page.waitForFunction(() => document.body.innerText.includes("mobile"));
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/results-mobile.png`, fullPage: true });
  });

  test("scrolling one panel scrolls the other", async () => {
    const scrollers = page.getByTestId("screenshot-panel");
    const first = scrollers.nth(0);
    await first.evaluate((el) => {
      const target = (el.querySelector("[data-radix-scroll-area-viewport]") as HTMLElement | null) ?? el;
      target.scrollTop = 600;
      target.dispatchEvent(new Event("scroll"));
    });
    await page.waitForFunction(() => {
      const panels = [...document.querySelectorAll<HTMLElement>('[data-testid="screenshot-panel"]')];
      const el = panels[1];
      if (!el) return false;
      const target = (el.querySelector("[data-radix-scroll-area-viewport]") as HTMLElement | null) ?? el;
      return target.scrollTop > 0;
    });
  });

  test("no uncaught errors", () => {
    expect(errors).toEqual([]);
  });
});
