// A share link in real Chromium: the owner makes one in the results screen's Share dialog, from the
// keyboard; a signed-out browser opens it and sees the run's results, served with noindex, loading
// nothing but the link's own URLs and linking nowhere else, with no serious axe finding; the owner
// sees the view counted and revokes it, and the link is the not-found page. Screenshots of
// the shared page at 1440 and 390 px go to SHARE_SHOTS (default /tmp/di/share-shots).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { installAxe, seriousViolations, unreachableByTab } from "#tests/support/a11y";
import { stepsTimeout } from "#tests/support/browser";
import { type Account, COMPLETED_COMPARISON_MS, completedComparison, type Lab, open, startLab } from "#tests/support/lab";
import { SERVER_START_MS } from "#tests/support/server";

const SHOTS = process.env.SHARE_SHOTS ?? "/tmp/di/share-shots";

let lab: Lab;
let owner: Account;
let id = "";
let link = "";
const errors: string[] = [];
/**
 * The owner's browser, kept for the whole file: a refresh cookie is rotated on first use, and a
 * second context presenting the original again would read as a stolen token and end the session.
 */
let ownerCtx: BrowserContext;

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
  await ownerCtx?.close();
  await lab?.close();
});

function report(list: { id: string; impact: string; help: string; nodes: string[] }[]) {
  return list.map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.join("\n    ")}`).join("\n");
}

async function imagesLoaded(page: Page) {
  await page.waitForFunction(() => {
    const imgs = [...document.querySelectorAll<HTMLImageElement>('[data-testid="screenshot-panel"] img')];
    return imgs.length === 2 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  });
}

describe("share links", () => {
  test("the owner makes a link in the results screen's Share dialog, from the keyboard", async () => {
    ownerCtx = await lab.context(owner);
    await installAxe(ownerCtx);
    await ownerCtx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: lab.server.url });
    const page = await ownerCtx.newPage();
    await open(page, `${lab.server.url}/comparison/${id}/view`, "light");
    await page.getByRole("button", { name: "Share" }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Share results" });
    await dialog.getByText("No links yet.").waitFor();
    // 7 days is chosen; the arrow moves to 30 days, Space takes it, Tab goes on to Create link.
    await dialog.getByRole("radio", { name: "7 days" }).focus();
    await page.keyboard.press("ArrowRight");
    // Radix moves the focus a tick after the key.
    await page.waitForFunction(() => document.activeElement?.textContent?.includes("30 days"));
    await page.keyboard.press("Space");
    await expect(dialog.getByRole("radio", { name: "30 days" }).getAttribute("aria-checked")).resolves.toBe("true");
    await page.keyboard.press("Tab");
    await expect(page.evaluate(() => document.activeElement?.textContent?.trim())).resolves.toBe("Create link");
    const before = Date.now();
    await page.keyboard.press("Enter");
    link = await dialog.getByRole("textbox", { name: "Share link" }).inputValue();
    expect(link).toMatch(new RegExp(`^${lab.server.url}/share/[A-Za-z0-9_-]{43}$`));
    await dialog.getByRole("button", { name: "Copy link" }).focus();
    await page.keyboard.press("Enter");
    await page.getByText("Link Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await dialog.getByTestId("share-link-row").first().waitFor();
    const [made] = await lab.api<{ expiresAt: string }[]>(owner, "GET", `/api/comparisons/${id}/shares`);
    const days = (Date.parse(made!.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThan(30.01);
    expect(report(await seriousViolations(page))).toBe("");
    await page.screenshot({ path: `${SHOTS}/dialog-1440.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/dialog-390.png` });
    // The dialog fits the phone: nothing sticks out of the screen.
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.close();
  });

  test("signed out, the link shows the run's results with noindex, loads only its own URLs and links nowhere else", async () => {
    expect(link).not.toBe("");
    const token = new URL(link).pathname.split("/").pop()!;
    const ctx: BrowserContext = await lab.context();
    await installAxe(ctx);
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
    // No serious accessibility problem, and Tab reaches every control.
    expect(report(await seriousViolations(page))).toBe("");
    const walk = await unreachableByTab(page);
    expect(walk.controls).toBeGreaterThan(5);
    expect(walk.missed).toEqual([]);
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

  test("the owner sees the view and revokes the link; it is then the not-found page, still noindex", async () => {
    const mine = await ownerCtx.newPage();
    await open(mine, `${lab.server.url}/comparison/${id}/view`, "light");
    await mine.getByRole("button", { name: "Share" }).click();
    const dialog = mine.getByRole("dialog", { name: "Share results" });
    const row = dialog.getByTestId("share-link-row");
    await row.first().waitFor();
    // One visit, one view: switching tabs and modes on the shared page reloaded nothing.
    const cells = await row.first().getByRole("cell").allTextContents();
    expect(cells[2]).toBe("1");
    await row
      .first()
      .getByRole("button", { name: /^Revoke the link/ })
      .focus();
    await mine.keyboard.press("Enter");
    await dialog.getByText("Revoked", { exact: true }).waitFor();
    await mine.close();

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
