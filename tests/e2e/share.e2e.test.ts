// A share link in real Chromium: the owner makes one in the results screen's Share dialog; a
// signed-out browser opens it and sees the run's results, served with noindex, loading nothing but
// the link's own URLs and linking nowhere else; revoked, it is the not-found page. Screenshots of
// the shared page at 1440 and 390 px go to SHARE_SHOTS (default /tmp/di/share-shots).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { stepsTimeout } from "#tests/support/browser";
import { type Account, COMPLETED_COMPARISON_MS, completedComparison, type Lab, open, startLab } from "#tests/support/lab";
import { SERVER_START_MS } from "#tests/support/server";

const SHOTS = process.env.SHARE_SHOTS ?? "/tmp/di/share-shots";

let lab: Lab;
let owner: Account;
let id = "";
let link = "";
const errors: string[] = [];

setDefaultTimeout(stepsTimeout(12));

beforeAll(
  async () => {
    mkdirSync(SHOTS, { recursive: true });
    lab = await startLab();
    owner = await lab.signup(`share-${Date.now()}@example.com`);
    id = await completedComparison(lab, owner, "Orbit against its redesign");
  },
  SERVER_START_MS + COMPLETED_COMPARISON_MS + 60_000,
);

afterAll(async () => {
  await lab?.close();
});

async function imagesLoaded(page: Page) {
  await page.waitForFunction(() => {
    const imgs = [...document.querySelectorAll<HTMLImageElement>('[data-testid="screenshot-panel"] img')];
    return imgs.length === 2 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  });
}

describe("share links", () => {
  test("the owner makes a link in the results screen's Share dialog", async () => {
    const ctx = await lab.context(owner);
    const page = await ctx.newPage();
    await open(page, `${lab.server.url}/comparison/${id}/view`, "light");
    await page.getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share results" });
    await dialog.getByRole("radio", { name: "7 days" }).click();
    await dialog.getByRole("button", { name: "Create link" }).click();
    link = await dialog.getByRole("textbox", { name: "Share link" }).inputValue();
    expect(link).toMatch(new RegExp(`^${lab.server.url}/share/[A-Za-z0-9_-]{43}$`));
    await dialog.getByTestId("share-link-row").first().waitFor();
    await expect(dialog.getByTestId("share-link-row").count()).resolves.toBe(1);
    await page.screenshot({ path: `${SHOTS}/dialog-1440.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/dialog-390.png` });
    await ctx.close();
  });

  test("signed out, the link shows the run's results with noindex, loads only its own URLs and links nowhere else", async () => {
    expect(link).not.toBe("");
    const token = new URL(link).pathname.split("/").pop()!;
    const ctx: BrowserContext = await lab.context();
    const page = await ctx.newPage();
    page.on("pageerror", (e) => errors.push(e.message));
    const apiPaths: string[] = [];
    page.on("request", (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith("/api/")) apiPaths.push(u.pathname);
    });
    const answer = await page.goto(link, { waitUntil: "load" });
    expect(answer!.status()).toBe(200);
    const headers = answer!.headers();
    expect(headers["x-robots-tag"]).toBe("noindex, nofollow");
    expect(headers["referrer-policy"]).toBe("no-referrer");
    expect(headers["cache-control"]).toBe("private, no-store");
    expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex, nofollow");
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");

    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Orbit against its redesign");
    await expect(page.getByText("Shared read-only view").isVisible()).resolves.toBe(true);
    await expect(page.getByTestId("share-expiry").textContent()).resolves.toMatch(/^Expires \d/);
    await imagesLoaded(page);
    await expect(page.getByText("Analysis Summary").isVisible()).resolves.toBe(true);
    // No app shell, no actions.
    for (const name of ["Sidebar", "Main navigation"]) expect(await page.getByRole("complementary", { name }).count()).toBe(0);
    for (const name of ["Share", "Export", "Back", "Start Analysis"]) expect(await page.getByRole("button", { name }).count()).toBe(0);

    // Switching viewport, mode and zoom stays on the page and loads nothing but the link's own URLs.
    await page.getByRole("tab", { name: /Mobile/ }).click();
    await page.waitForFunction(() => location.search.includes("viewport=mobile"));
    await imagesLoaded(page);
    await page.getByRole("radio", { name: "Slider" }).click();
    await page.getByTestId("compare-stage").waitFor();
    await page.getByRole("radio", { name: "Side by side" }).click();
    await page.getByRole("tab", { name: /Desktop/ }).click();
    await imagesLoaded(page);
    expect(apiPaths.length).toBeGreaterThan(0);
    for (const p of apiPaths) expect(p.startsWith(`/api/share/${token}/`), p).toBe(true);

    // Every link on the page is this page.
    const hrefs = await page.$$eval("a[href]", (as) => as.map((a) => (a as HTMLAnchorElement).href));
    for (const href of hrefs) expect(new URL(href).pathname, href).toBe(`/share/${token}`);

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: `${SHOTS}/shared-1440.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await imagesLoaded(page);
    await page.screenshot({ path: `${SHOTS}/shared-390.png`, fullPage: true });
    // At phone width nothing is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test("revoked, the link is the not-found page, still noindex", async () => {
    const [share] = await lab.api<{ id: string; views: number }[]>(owner, "GET", `/api/comparisons/${id}/shares`);
    // One visit, one view: switching tabs and modes on the page reloaded nothing.
    expect(share!.views).toBe(1);
    await lab.api(owner, "DELETE", `/api/shares/${share!.id}`);
    const ctx = await lab.context();
    const page = await ctx.newPage();
    const answer = await page.goto(link, { waitUntil: "load" });
    expect(answer!.status()).toBe(404);
    expect(answer!.headers()["x-robots-tag"]).toBe("noindex, nofollow");
    await expect(page.getByRole("heading", { name: "404 Page Not Found" }).isVisible()).resolves.toBe(true);
    await page.screenshot({ path: `${SHOTS}/revoked-1440.png`, fullPage: true });
    await ctx.close();
  });
});
