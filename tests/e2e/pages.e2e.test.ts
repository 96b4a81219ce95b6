// Pages per site in real Chromium against the running app (issue 33): finding a site's pages and
// picking them, the step editor refusing a step and then saving one that stops the capture, a
// site's secrets, dark captures, and the results' role switcher with the stopped step, the consent
// record of each snapshot and the dark variants. With E2E_SHOTS=<dir> it saves the screens at 1440
// and 390 px.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { stepsTimeout } from "#tests/support/browser";
import { type DiscoverySite, startDiscoverySite } from "#tests/support/discovery-site";
import { type Account, COMPLETED_COMPARISON_MS, type Lab, open, startLab } from "#tests/support/lab";
import { SERVER_START_MS } from "#tests/support/server";
import { waitFor } from "#tests/support/wait";

let lab: Lab;
let site: DiscoverySite;
let owner: Account;
let ctx: BrowserContext;
let page: Page;
let id = "";
const targets: Record<"roastery" | "orbit", string> = { roastery: "", orbit: "" };
const errors: string[] = [];
const SECRET = "e2e-secret-never-shown-7731";

setDefaultTimeout(stepsTimeout(15));

beforeAll(async () => {
  lab = await startLab();
  site = startDiscoverySite();
  owner = await lab.signup(`pages-${Date.now()}@example.com`);
  const c = await lab.api<{ id: string }>(owner, "POST", "/api/comparisons", { name: "Roasters, page by page" });
  id = c.id;
  const add = (url: string, label: string) => lab.api<{ id: string }>(owner, "POST", `/api/comparisons/${id}/targets`, { url, label });
  targets.roastery = (await add(`${site.origin}/`, "Roastery")).id;
  targets.orbit = (await add(lab.sites.url("/alpha/"), "Orbit")).id;
  ctx = await lab.context(owner);
  page = await ctx.newPage();
  page.on("pageerror", (e) => errors.push(e.message));
}, SERVER_START_MS + 60_000);

afterAll(async () => {
  await lab?.close();
  await site?.close();
});

/** The whole page, or with `at` the screen scrolled to it (a phone's full page is mostly other sections). */
async function shot(name: string, at?: Locator) {
  if (!process.env.E2E_SHOTS) return;
  await at?.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: !at });
}
/** The same screen on a phone (390 px wide), then back at 1440 px. */
async function phoneShot(name: string, at?: Locator) {
  await page.setViewportSize({ width: 390, height: 844 });
  // The activity rail covers a phone's screen: out of the picture.
  const hide = page.getByRole("button", { name: "Hide activity rail" });
  if (await hide.isVisible()) await hide.click();
  await shot(name, at);
  await page.setViewportSize({ width: 1440, height: 900 });
}
const sitePages = (label: string): Locator => page.getByRole("group", { name: `Pages of ${label}` });
const dialog = () => page.getByRole("dialog");

describe("pages per site", () => {
  test("Find pages proposes the site's pages with roles, lists what robots.txt disallows, and adds the picked one", async () => {
    await open(page, `${lab.server.url}/comparison?id=${id}`, "light");
    const roastery = sitePages("Roastery");
    await roastery.getByRole("listitem", { name: "/ (Home)" }).waitFor();
    await roastery.getByRole("button", { name: "Find pages" }).click();
    await dialog().getByTestId("discovered-pages").waitFor();
    const disallowed = await dialog().getByTestId("disallowed-pages").textContent();
    expect(disallowed).toContain("/private/");
    expect(site.paths().some((p) => p.startsWith("/private/"))).toBe(false);
    const pricing = dialog().getByRole("checkbox", { name: /^Add \/pricing\/?$/ });
    await pricing.click();
    await expect(
      dialog()
        .getByRole("combobox", { name: /^Role of \/pricing\/?$/ })
        .textContent(),
    ).resolves.toBe("Pricing");
    // A second page, its suggested role set by hand: both sites get a features page, so the run has two scored roles.
    await dialog().getByRole("checkbox", { name: "Add /product" }).click();
    await dialog().getByRole("combobox", { name: "Role of /product" }).click();
    await page.getByRole("option", { name: "Features" }).click();
    await shot("pages-discovery-1440");
    await phoneShot("pages-discovery-390", dialog());
    await dialog().getByRole("button", { name: "Add 2 pages" }).click();
    await roastery.getByRole("listitem", { name: /^\/pricing\/? \(Pricing\)$/ }).waitFor();
    await roastery.getByRole("listitem", { name: "/product (Features)" }).waitFor();
  });

  test("the step editor names a step that breaks a rule, then saves a step that will stop the capture", async () => {
    const roastery = sitePages("Roastery");
    await roastery.getByRole("button", { name: /^Edit \/pricing\/?$/ }).click();
    await dialog().getByRole("button", { name: "Add step" }).click();
    await dialog().getByRole("combobox", { name: "Step 1 type" }).click();
    await page.getByRole("option", { name: "Go to a page" }).click();
    await dialog().getByLabel("Step 1 url").fill("https://elsewhere.example/pricing");
    await dialog().getByRole("button", { name: "Save page" }).click();
    await expect(dialog().getByTestId("steps-error").textContent()).resolves.toBe(`Step 1: a goto stays on the site (${site.origin})`);
    await shot("pages-step-editor-1440", dialog());
    await phoneShot("pages-step-editor-390", dialog().getByTestId("steps-error"));

    await dialog().getByRole("combobox", { name: "Step 1 type" }).click();
    await page.getByRole("option", { name: "Click" }).click();
    await dialog().getByLabel("Step 1 selector").fill("#no-such-button");
    await dialog().getByRole("button", { name: "Save page" }).click();
    await dialog().waitFor({ state: "detached" });
    await expect(roastery.getByRole("listitem", { name: /^\/pricing\/? \(Pricing\)$/ }).textContent()).resolves.toContain("1 step");
  });

  test("a site's secret is set through a password field and never shown back", async () => {
    await sitePages("Roastery").getByRole("button", { name: "Secrets" }).click();
    await dialog().getByLabel("Name").fill("password");
    await expect(dialog().getByLabel("Value").getAttribute("type")).resolves.toBe("password");
    await dialog().getByLabel("Value").fill(SECRET);
    await dialog().getByRole("button", { name: "Set secret" }).click();
    await dialog().getByTestId("secrets-list").getByText("password", { exact: true }).waitFor();
    await expect(dialog().getByLabel("Value").inputValue()).resolves.toBe("");
    expect(await page.content()).not.toContain(SECRET);
    await dialog().getByRole("button", { name: "Close" }).last().click();
    await dialog().waitFor({ state: "detached" });
  });

  test("dark captures are switched on for the next run", async () => {
    const saved = page.waitForResponse((r) => r.request().method() === "PATCH" && r.url().endsWith(`/api/comparisons/${id}`));
    await page.getByRole("switch", { name: "Dark captures" }).click();
    expect((await saved).status()).toBe(200);
    const c = await lab.api<{ colorSchemes: string[] }>(owner, "GET", `/api/comparisons/${id}`);
    expect(c.colorSchemes).toEqual(["light", "dark"]);
    await shot("pages-comparison-1440", sitePages("Roastery"));
    await phoneShot("pages-comparison-390", sitePages("Roastery"));
  });

  test(
    "results: a role switcher (home by default), the stopped step with its screenshot, consent per snapshot, dark variants, the site roll-up",
    async () => {
      // Orbit's pricing and features pages are other pages of its fixture origin.
      const orbitPage = (path: string, role: string) =>
        lab.api(owner, "POST", `/api/targets/${targets.orbit}/pages`, { path: new URL(lab.sites.url(path)).pathname, role });
      await orbitPage("/beta/", "pricing");
      await orbitPage("/gamma/", "features");
      await lab.api(owner, "POST", `/api/comparisons/${id}/start`);
      await waitFor(
        "the pages comparison to complete",
        async () => {
          const { status } = await lab.api<{ status: string }>(owner, "GET", `/api/comparisons/${id}`);
          if (status === "failed") throw new Error("comparison failed");
          return status === "completed";
        },
        COMPLETED_COMPARISON_MS * 3,
        500,
      );

      await open(page, `${lab.server.url}/comparison/${id}/view`, "light");
      const roles = page.getByRole("group", { name: "Page role" });
      await expect(roles.getByRole("button", { name: "Home" }).getAttribute("aria-pressed")).resolves.toBe("true");
      await expect(roles.getByRole("button").allTextContents()).resolves.toEqual(["Home", "Pricing", "Features"]);
      const desktop = page.getByRole("tabpanel");
      // Every snapshot on screen says what the capture did about a cookie banner (the fixtures have none).
      await expect(desktop.getByTestId("consent-note").allTextContents()).resolves.toEqual(["No cookie banner", "No cookie banner"]);
      // Home and features are scored for both sites; Roastery's pricing page stopped, so pricing is not.
      const rollup = desktop.getByTestId("site-rollup");
      await expect(rollup.getByRole("link", { name: /^Roastery vs Orbit/ }).getAttribute("aria-label")).resolves.toMatch(
        /^Roastery vs Orbit: \d+% overall similarity \(mean of Home, Features\)$/,
      );
      await shot("pages-results-home-1440");

      await roles.getByRole("button", { name: "Pricing" }).click();
      await page.waitForURL(/role=pricing/);
      await expect(desktop.getByTestId("step-stopped").textContent()).resolves.toMatch(/^Stopped at step 1: .+/);
      const stopped = desktop.getByRole("img", { name: "Roastery desktop screenshot where step 1 stopped" });
      await expect(stopped.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).resolves.toBeGreaterThan(0);
      await shot("pages-results-pricing-1440");

      await page.getByRole("radiogroup", { name: "Colour scheme" }).getByRole("radio", { name: "Dark" }).click();
      await page.waitForURL(/scheme=dark/);
      await desktop.getByTestId("step-stopped").waitFor();
      await roles.getByRole("button", { name: "Home" }).click();
      await desktop.getByRole("img", { name: "Orbit desktop screenshot" }).waitFor();
      await shot("pages-results-dark-1440");

      await page.setViewportSize({ width: 390, height: 844 });
      await roles.getByRole("button", { name: "Pricing" }).click();
      await shot("pages-results-pricing-390", desktop.getByTestId("step-stopped"));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
    },
    COMPLETED_COMPARISON_MS * 3 + stepsTimeout(20),
  );
});
