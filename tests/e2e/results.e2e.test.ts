// The results screen of a real three-site comparison, in real Chromium: focus mode, zoom with
// synced scroll, the all-pairs matrix, findings counts against the export, and the filmstrip.
// With E2E_SHOTS=<dir> it also saves the screenshots the design review looks at.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { stepsTimeout } from "#tests/support/browser";
import { type Account, COMPLETED_COMPARISON_MS, type Lab, open, startLab, type ThemeName } from "#tests/support/lab";
import { SERVER_START_MS } from "#tests/support/server";
import { waitFor } from "#tests/support/wait";

let lab: Lab;
let owner: Account;
let ctx: BrowserContext;
let page: Page;
let id = "";
const errors: string[] = [];
const SITES = [
  ["/alpha/", "Orbit"],
  ["/beta/", "Ember"],
  ["/gamma/", "Gamma"],
] as const;

setDefaultTimeout(stepsTimeout(15));

beforeAll(
  async () => {
    lab = await startLab();
    owner = await lab.signup(`results-${Date.now()}@example.com`);
    const c = await lab.api<{ id: string }>(owner, "POST", "/api/comparisons", {
      name: "Three roasters",
      description: "Fixture sites on 127.0.0.1",
    });
    id = c.id;
    for (const [path, label] of SITES) await lab.api(owner, "POST", `/api/comparisons/${id}/targets`, { url: lab.sites.url(path), label });
    await lab.api(owner, "POST", `/api/comparisons/${id}/start`);
    await waitFor(
      "the three-site comparison to complete",
      async () => {
        const { status } = await lab.api<{ status: string }>(owner, "GET", `/api/comparisons/${id}`);
        if (status === "failed") throw new Error("comparison failed");
        return status === "completed";
      },
      COMPLETED_COMPARISON_MS * 2,
      250,
    );
    ctx = await lab.context(owner);
    page = await ctx.newPage();
    page.on("pageerror", (e) => errors.push(e.message));
    // The shell's own requests are another suite's; every request this page makes must succeed.
    page.on("response", (r) => {
      if (r.status() >= 400 && /\/api\/(comparisons|snapshots)\//.test(r.url())) errors.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    page.on("requestfailed", (r) => {
      if (/\/api\/(comparisons|snapshots)\//.test(r.url())) errors.push(`failed ${new URL(r.url()).pathname}`);
    });
  },
  SERVER_START_MS + COMPLETED_COMPARISON_MS * 2 + 60_000,
);

afterAll(async () => {
  await lab?.close();
});

const viewUrl = (query = "") => `${lab.server.url}/comparison/${id}/view${query}`;
const panels = () => page.getByTestId("screenshot-panel");
async function imagesLoaded(selector: string) {
  await page.waitForFunction((sel) => {
    const imgs = [...document.querySelectorAll<HTMLImageElement>(sel)];
    return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  }, selector);
}
async function shot(name: string) {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: true });
}

describe("results", () => {
  test("focus mode at 1440 px gives each panel of the pair at least 600 px", async () => {
    await open(page, viewUrl(), "light");
    await imagesLoaded('[data-testid="screenshot-panel"] img');
    await page.getByRole("button", { name: "Focus" }).click();
    await page.waitForFunction(() => document.documentElement.getAttribute("data-focus") === "on");
    expect(await page.locator(".di-sidebar").isVisible()).toBe(false);
    const widths = await panels().evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
    expect(widths).toHaveLength(2);
    for (const w of widths) expect(w).toBeGreaterThanOrEqual(600);
    // Escape gives the shell back.
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !document.documentElement.hasAttribute("data-focus"));
  });

  test("100 % shows the screenshot at its natural width and both panels scroll together", async () => {
    await page.getByRole("radio", { name: "100 %" }).click();
    await page.waitForURL(/zoom=100/);
    await page.locator('[data-testid="screenshot-panel"][data-zoom="100"]').nth(1).waitFor();
    await imagesLoaded('[data-testid="screenshot-panel"] img');
    // The layout follows the re-render a frame later on a busy machine.
    await page
      .waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('[data-testid="screenshot-panel"] img')].every(
          (i) => Math.abs(i.getBoundingClientRect().width - i.naturalWidth) <= 1,
        ),
      )
      .catch(() => {}); // the check below says by how much
    const sizes = await page
      .locator('[data-testid="screenshot-panel"] img')
      .evaluateAll((imgs) =>
        (imgs as HTMLImageElement[]).map((i) => ({ shown: i.getBoundingClientRect().width, natural: i.naturalWidth })),
      );
    for (const s of sizes) expect(Math.abs(s.shown - s.natural)).toBeLessThanOrEqual(1);
    await panels()
      .nth(0)
      .evaluate((el) => {
        el.scrollTop = 500;
        el.scrollLeft = 300;
        el.dispatchEvent(new Event("scroll"));
      });
    await page.waitForFunction(() => {
      const other = document.querySelectorAll<HTMLElement>('[data-testid="screenshot-panel"]')[1];
      return !!other && other.scrollTop > 0 && other.scrollLeft > 0;
    });
    // And the other way round, once the first panel's echo lock has passed (re-scrolled until it follows).
    await page.waitForFunction(() => {
      const [first, other] = document.querySelectorAll<HTMLElement>('[data-testid="screenshot-panel"]');
      if (!first || !other) return false;
      other.scrollTop = 0;
      other.scrollLeft = 0;
      other.dispatchEvent(new Event("scroll"));
      return first.scrollTop === 0 && first.scrollLeft === 0;
    });
  });

  test("the matrix shows every pair of the three sites and opens a pair", async () => {
    const matrix = page.getByTestId("similarity-matrix");
    expect(await matrix.locator("thead th[scope=col]").allInnerTexts()).toEqual(SITES.map(([, l]) => l));
    expect(await matrix.locator("tbody th[scope=row]").allInnerTexts()).toEqual(SITES.map(([, l]) => l));
    for (const [, a] of SITES)
      for (const [, b] of SITES) {
        if (a === b) continue;
        await matrix.getByRole("link", { name: new RegExp(`^${a} vs ${b}: \\d+% overall similarity$`) }).waitFor();
      }
    await matrix.getByRole("link", { name: /^Ember vs Gamma:/ }).click();
    await page.waitForURL(/a=.*&b=|b=.*&a=/);
    await page.getByRole("img", { name: "Ember desktop screenshot" }).waitFor();
    await page.getByRole("img", { name: "Gamma desktop screenshot" }).waitFor();
    await page.getByText("Ember vs Gamma").first().waitFor();
  });

  test("findings counts match the export", async () => {
    const report = await lab.api<{ findings: unknown[] }>(owner, "GET", `/api/comparisons/${id}/export?format=json`);
    const total = report.findings.length;
    const count = page.getByTestId("findings-count");
    expect(await count.innerText()).toMatch(new RegExp(`^\\d+ of ${total}( — .+)?$`));
    const showAll = page.getByRole("button", { name: `Show all ${total}` });
    if (await showAll.count()) await showAll.click();
    await page.waitForFunction((t) => document.querySelector('[data-testid="findings-count"]')?.textContent === `${t} of ${t}`, total);
  });

  test("the filmstrip shows frames for every site", async () => {
    const strip = page.getByRole("region", { name: "Filmstrip" });
    await strip.scrollIntoViewIfNeeded();
    const rows = strip.getByTestId("filmstrip-row");
    expect(await rows.count()).toBe(3);
    for (const [, label] of SITES) {
      const row = rows.filter({ hasText: label });
      expect(await row.locator("img").count()).toBeGreaterThan(0);
    }
    await imagesLoaded('section[aria-label="Filmstrip"] img');
    expect(await strip.getByText("FCP", { exact: true }).count()).toBeGreaterThan(0);
  });

  test("at 390 px no results page of this real comparison is wider than the viewport", async () => {
    const [run] = await lab.api<{ id: string; status: string }[]>(owner, "GET", `/api/comparisons/${id}/runs`);
    expect(run?.status).toBe("completed");
    const base = `${lab.server.url}/comparison/${id}`;
    const pages: [string, string][] = [
      [`${base}/view`, '[data-testid="screenshot-panel"] img'],
      [`${base}/view?mode=slider`, '[data-testid="compare-stage"] img'],
      [`${base}/view?zoom=100`, '[data-testid="screenshot-panel"] img'],
      [`${base}/runs/${run!.id}`, '[data-testid="screenshot-panel"] img'],
      [`${base}/history`, ""],
      [`${base}/changes`, ""],
    ];
    await page.setViewportSize({ width: 390, height: 844 });
    const wide: string[] = [];
    try {
      for (const [url, images] of pages) {
        await open(page, url, "light");
        // Overflow comes from the content: measured once the captures have their real size.
        if (images) await imagesLoaded(images);
        const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        if (scrollWidth > innerWidth)
          wide.push(`${new URL(url).pathname}${new URL(url).search}: scrollWidth ${scrollWidth} > ${innerWidth}`);
      }
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
    expect(wide).toEqual([]);
  });

  test("screenshots: fit, 100 %, slider, matrix and filmstrip at 1440 and 390 px, light and dark", async () => {
    if (!process.env.E2E_SHOTS) return;
    for (const theme of ["light", "dark"] as ThemeName[])
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
        const tag = `${width}-${theme}`;
        await open(page, viewUrl("?zoom=fit"), theme);
        await imagesLoaded('[data-testid="screenshot-panel"] img');
        await shot(`results-fit-${tag}`);
        if (width > 500) {
          await page.getByRole("button", { name: "Focus" }).click();
          await shot(`results-fit-focus-${tag}`);
        }
        await open(page, viewUrl("?zoom=100"), theme);
        await imagesLoaded('[data-testid="screenshot-panel"] img');
        await page.getByRole("switch", { name: "Typography" }).click();
        await shot(`results-100-typography-${tag}`);
        await page.getByRole("switch", { name: "Layout" }).click();
        await page.locator("[data-overlay-box]").first().hover();
        await shot(`results-100-layout-hover-${tag}`);
        await open(page, viewUrl("?mode=slider"), theme);
        await imagesLoaded('[data-testid="compare-stage"] img');
        await shot(`results-slider-${tag}`);
        await page.getByTestId("similarity-matrix").screenshot({ path: `${process.env.E2E_SHOTS}/results-matrix-${tag}.png` });
        await page.getByRole("region", { name: "Filmstrip" }).screenshot({ path: `${process.env.E2E_SHOTS}/results-filmstrip-${tag}.png` });
        // The results content never pushes the page sideways (the shell around it is another suite's).
        const overflow = await page.evaluate(() => {
          const main = document.getElementById("main-content")!;
          return main.scrollWidth - main.clientWidth;
        });
        expect(overflow).toBeLessThanOrEqual(0);
      }
  });

  test("no uncaught exceptions and no failed results request", () => {
    expect(errors).toEqual([]);
  });
});
