// Competitor watch as a user meets it, in real Chromium against the real server: two real runs of
// two fixture sites with the headline and CTA of one rewritten in between, the timeline with the
// change count, the change view with its before/after slider and pixel heat map, a schedule preset
// with its next run time, and a webhook alert rule.
// Each screen is audited with axe-core in both themes; WATCH_SHOTS=<dir> also saves every screen at
// 1440 and 390 px, light and dark.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { seriousViolations } from "#tests/support/a11y";
import { launchBrowser, signUpInto, stepsTimeout, gotoHydrated } from "#tests/support/browser";
import { SITES_DIR, startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { freePort, SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";

let server: RunningServer;
let sites: FixtureServer;
let siteDir: string;
let browser: Browser;
let page: Page;
let comparisonUrl = "";
const errors: string[] = [];
/** Two sites at two viewports under the capture's limits, then scoring and change detection. */
const RUN_MS = 240_000;
const SHOTS = process.env.WATCH_SHOTS;

setDefaultTimeout(stepsTimeout(20));

beforeAll(async () => {
  // The fixture sites from a copy, so a test can rewrite a page between runs.
  siteDir = mkdtempSync(join(tmpdir(), "di-watch-sites-"));
  cpSync(SITES_DIR, siteDir, { recursive: true });
  sites = startFixtureServer(siteDir);
  // The digest goes by e-mail, so the server needs an SMTP_URL to offer it; nothing is due in this test, so nothing is sent.
  server = await startServer({ env: { ALLOW_PRIVATE_TARGETS: "1", SMTP_URL: `smtp://127.0.0.1:${freePort()}` } });
  browser = await launchBrowser({ calm: true });
  // bypassCSP: axe-core is injected as an inline script for the audits.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  // The sign-up form is comparison.e2e's subject; here the account gets its session by the API.
  await signUpInto(context, server.url, `watch-${Date.now()}@example.com`, "a-strong-password");
  page = await context.newPage();
  page.on("pageerror", (e) => errors.push(e.message));
}, SERVER_START_MS + 30_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sites?.close();
  if (siteDir) rmSync(siteDir, { recursive: true, force: true });
});

/** Serious or critical axe findings, per screen and theme. */
const violations: string[] = [];

/**
 * Each screen in both themes: axe-core's serious and critical findings are collected (asserted
 * at the end), and with WATCH_SHOTS every screen is saved at 1440 and 390 px, a viewport at a time.
 * Dark first: the light load the tests go on with is then the last one reviewed, not one more load.
 */
async function review(name: string, ready: string) {
  for (const scheme of ["dark", "light"] as const) {
    // The theme is chosen before first paint from the colour scheme, so a switch needs a load.
    await page.emulateMedia({ colorScheme: scheme });
    await page.reload();
    await page.waitForFunction((s) => document.documentElement.classList.contains(s), scheme);
    await page.getByTestId(ready).first().waitFor();
    // The tests go on clicking this page: a click before React owns it is lost (seen under stress-ng).
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    for (const v of await seriousViolations(page)) violations.push(`${name} (${scheme}): ${v.id}: ${v.help} at ${v.nodes.join("; ")}`);
    if (!SHOTS) continue;
    for (const width of [1440, 390]) {
      const height = width === 390 ? 844 : 900;
      await page.setViewportSize({ width, height });
      // On a phone the shell's activity rail, open from the desktop shots, covers the page.
      const rail = page.getByRole("button", { name: "Hide activity rail" });
      if (width === 390 && (await rail.isVisible())) await rail.click();
      const total = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let part = 0; part * height < total && part < 4; part++) {
        await page.evaluate((y) => window.scrollTo(0, y), part * height);
        await page.waitForFunction(() => document.fonts.status === "loaded");
        await page.screenshot({ path: `${SHOTS}/${name}-${width}-${scheme}-${part + 1}.png` });
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  }
}

async function runOnce() {
  await page.getByRole("button", { name: "Start Analysis" }).click();
  await page.getByText("Analysis in Progress").waitFor();
  await page.getByText("Analysis in Progress").waitFor({ state: "detached", timeout: RUN_MS });
}

describe("competitor watch", () => {
  test(
    "a comparison of two fixture sites, run once",
    async () => {
      await gotoHydrated(page, `${server.url}/comparison`);
      await page.getByLabel("Comparison Name").fill("Orbit watch");
      await page.getByRole("button", { name: "Create Comparison" }).click();
      await page.getByText("Add Competitor Website").waitFor();
      for (const [site, label] of [
        ["alpha", "Orbit"],
        ["beta", "Ember"],
      ] as const) {
        await page.getByLabel("Website URL").fill(sites.url(`/${site}/`));
        await page.getByLabel("Display Label").fill(label);
        await page.getByRole("button", { name: "Add Website" }).click();
        await page.getByRole("button", { name: `Remove ${label}` }).waitFor();
      }
      comparisonUrl = page.url();
      await page.getByText("No runs yet.", { exact: false }).waitFor();
      await runOnce();
      // The watch section's history picks the run up when the status changes.
      await page.getByRole("link", { name: "Open results of run #1" }).waitFor();
      await page.getByText("Baseline: nothing earlier to compare with").waitFor();
    },
    RUN_MS + stepsTimeout(20),
  );

  test(
    "the page changes; a second run finds it and the timeline counts it",
    async () => {
      const file = join(siteDir, "alpha/index.html");
      const html = readFileSync(file, "utf8");
      writeFileSync(
        file,
        html
          // The headline is in the <title> too: both change, as a real rewrite would.
          .replaceAll("Plan launches your whole team can follow", "Launch plans your whole company trusts")
          .replace("Start your free trial", "Book a demo"),
      );
      await runOnce();
      await page.getByRole("link", { name: "Open results of run #2" }).waitFor();

      // Changes are found just after the run completes: the history page shows them once stored.
      const history = comparisonUrl.replace(/\/comparison\?id=(.+)$/, (_m, id) => `/comparison/${id}/history`);
      let counted = false;
      for (let tries = 0; !counted && tries < 30; tries++) {
        await page.goto(history);
        await page.getByTestId("run-timeline").waitFor();
        counted = await page
          .getByTestId("run-change-count")
          .first()
          .waitFor({ timeout: 2_000 })
          .then(
            () => true,
            () => false,
          );
      }
      expect(counted).toBe(true);
      const text = await page.getByTestId("run-change-count").first().innerText();
      expect(Number(text.match(/\d+/)?.[0])).toBeGreaterThan(0);
      expect(await page.getByTestId("run-item").count()).toBe(2);
      await page.getByText("Manual").first().waitFor();
      await review("history", "run-timeline");
    },
    stepsTimeout(130),
  );

  test(
    "a past run opens read-only",
    async () => {
      await page.getByRole("link", { name: "Open results of run #1" }).click();
      await page.waitForURL(/\/runs\//);
      await page.getByRole("heading", { name: /run #1/ }).waitFor();
      expect(await page.getByTestId("screenshot-panel").count()).toBe(2);
      expect(await page.getByRole("button", { name: "Start Analysis" }).count()).toBe(0);
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('[data-testid="screenshot-panel"] img')].every(
          (i) => i.complete && i.naturalWidth > 0,
        ),
      );
      await review("run", "screenshot-panel");
      await page.goBack();
    },
    stepsTimeout(70),
  );

  test(
    "the change view: the headline and CTA changes, filters, slider and heat map",
    async () => {
      await page.getByRole("link", { name: "View changes in run #2" }).click();
      await page.waitForURL(/\/changes\?/);
      await page.getByRole("heading", { name: "Changes", exact: true }).waitFor();
      const body = await page.locator("main, body").first().innerText();
      expect(body).toContain("Book a demo");
      expect(body).toContain("Launch plans your whole company trusts");
      // The h1 rewrite is a copy change of its own, not only the title's meta change.
      expect(body).toMatch(/Headline\W+Plan launches your whole team can follow\W+Launch plans your whole company trusts/);
      await page.getByTestId("evidence-box").first().waitFor();

      // A kind filter keeps only its changes; pressing it again shows all.
      const cta = page.getByRole("group", { name: "Filter by kind" }).getByRole("button", { name: /^CTA/ });
      await cta.click();
      await page.waitForFunction(() => new URL(location.href).searchParams.get("kind") === "cta");
      // The router updates the URL before React commits the filtered view (aria-pressed can still
      // read the previous value in between): wait for the pressed button, then read the list it filtered.
      await page.getByRole("group", { name: "Filter by kind" }).getByRole("button", { name: /^CTA/, pressed: true }).waitFor();
      const kinds = await page.getByTestId("change-item").allInnerTexts();
      expect(kinds.length).toBeGreaterThan(0);
      for (const k of kinds) expect(k).toContain("CTA");
      await cta.click();

      await page.getByRole("button", { name: "Compare Orbit before and after" }).click();
      await page.getByTestId("pixel-compare").waitFor();
      const range = page.getByRole("slider", { name: "Before and after divider" });
      await range.focus();
      await page.keyboard.press("ArrowLeft");
      expect(await range.getAttribute("aria-valuetext")).toBe("49% before, 51% after");
      expect(await page.getByTestId("after-layer").evaluate((el) => (el as HTMLElement).style.clipPath)).toContain("49%");
      await page.getByTestId("heat-map").waitFor({ timeout: 60_000 });
      await page.waitForFunction(() => {
        const imgs = [...document.querySelectorAll<HTMLImageElement>('[data-testid="pixel-compare"] img')];
        return imgs.length === 3 && imgs.every((i) => i.complete && i.naturalWidth > 0);
      });
      // Audited with a filter pressed: the pressed look has colours of its own.
      await page.getByRole("group", { name: "Filter by severity" }).getByRole("button", { name: /^High/ }).click();
      await page.waitForFunction(() => new URL(location.href).searchParams.get("severity") === "high");
      await review("changes", "heat-map");
    },
    stepsTimeout(80),
  );

  test(
    "a schedule preset shows the next run time; a webhook rule is added, a bad one refused inline",
    async () => {
      await gotoHydrated(page, comparisonUrl);
      await page.getByRole("heading", { name: "Watch", exact: true }).waitFor();
      await page.getByRole("radio", { name: "Weekly" }).click();
      await page.getByText("Writes the cron").waitFor();
      await page.getByRole("button", { name: "Save Schedule" }).click();
      const next = page.getByTestId("next-run");
      await next.waitFor();
      expect(await next.innerText()).toMatch(/Next run: .*\d{2}:\d{2}/);
      expect(await page.getByTestId("schedule-current").innerText()).toContain("Every Monday at 09:00");

      // A URL the server refuses gets its words inline.
      await page.getByLabel("Webhook URL").fill("ftp://127.0.0.1/hook");
      await page.getByRole("button", { name: "Add Alert Rule" }).click();
      await page.getByTestId("alert-error").waitFor();

      await page.getByLabel("Webhook URL").fill(sites.url("/hook"));
      await page.getByRole("checkbox", { name: "CTA" }).click();
      await page.getByRole("button", { name: "Add Alert Rule" }).click();
      const rules = page.getByTestId("alert-rules");
      await rules.waitFor();
      expect(await rules.innerText()).toContain(sites.url("/hook"));
      expect(await rules.innerText()).toContain("CTA");
      await page.getByTestId("alert-error").waitFor({ state: "detached" });
      await review("watch", "alert-rules");
    },
    stepsTimeout(80),
  );

  test(
    "settings: the digest turns on with a next send time",
    async () => {
      await gotoHydrated(page, `${server.url}/settings`);
      await page.locator('[role="radio"][aria-checked="true"]', { hasText: "Only the alerts you set" }).waitFor();
      await page.getByRole("radio", { name: /Weekly/ }).click();
      await page.getByText("Next digest:").waitFor();
      await review("settings", "digest-status");
    },
    stepsTimeout(70),
  );

  test("no uncaught errors, no serious accessibility findings", () => {
    expect(errors).toEqual([]);
    expect(violations).toEqual([]);
  });
});
