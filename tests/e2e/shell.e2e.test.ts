// The shell in real Chromium against the real server: every page at 390 px fits the viewport
// (signed in and out), every page loads without a console error or a failed request, the narrow
// sidebar is a drawer (menu button, focus inside, Escape), the status bar fits, the results page
// starts with the rail closed, and shortcut hints are keys. SHELL_SHOTS=<dir> also saves
// screenshots of key pages at 1440 and 390 px in both themes.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { stepsTimeout } from "#tests/support/browser";
import { PASSWORD, open, startLab, waitUntilLoaded, type Account, type Lab, type ThemeName } from "#tests/support/lab";
import { SERVER_START_MS } from "#tests/support/server";
import { APP_PAGES, PUBLIC_PAGES } from "#tests/support/route-js";

let lab: Lab;
let admin: Account;
let comparison = "";
const NOT_FOUND = "/no-such-page";

beforeAll(async () => {
  lab = await startLab();
  admin = await lab.signup("boss@example.com");
  comparison = (await lab.api<{ id: string }>(admin, "POST", "/api/comparisons", { name: "Shell check" })).id;
}, SERVER_START_MS + 30_000);

afterAll(async () => {
  await lab?.close();
});

const url = (path: string) => `${lab.server.url}${path}`;

/**
 * A browser signed in as the admin on a session of its own: refresh cookies rotate, so two
 * contexts holding one cookie would look like a replay and end the session.
 */
async function signedIn(): Promise<BrowserContext> {
  const res = await fetch(url("/api/auth/login"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: admin.email, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith("di_refresh="))!
    .split(";")[0]!;
  return lab.context({ ...admin, cookie });
}
const allPages = () => [
  ...PUBLIC_PAGES,
  ...APP_PAGES,
  `/comparison/${comparison}/view`,
  `/comparison/${comparison}/history`,
  `/comparison/${comparison}/changes`,
];

/** Loads `path` and returns what went wrong: console errors, page errors, failed or refused requests. */
async function load(page: Page, path: string): Promise<string[]> {
  const problems: string[] = [];
  const target = url(path);
  // Leave the previous page first: its late requests, cut off by leaving, are not this load's.
  await page.goto("about:blank");
  // The 404 page's own document is meant to answer 404 (Chromium logs that as a console error).
  const expected = (u: string, status: number) => path === NOT_FOUND && u === target && status === 404;
  const onConsole = (m: { type(): string; text(): string; location(): { url: string } }) => {
    if (m.type() !== "error") return;
    if (path === NOT_FOUND && /status of 404/.test(m.text()) && m.location().url === target) return;
    problems.push(`console: ${m.text()} (${m.location().url})`);
  };
  const onPageError = (e: Error) => problems.push(`page error: ${e.message}`);
  const onFailed = (r: { url(): string; method(): string; failure(): { errorText: string } | null }) =>
    problems.push(`failed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`);
  const onResponse = (r: { url(): string; status(): number; request(): { method(): string } }) => {
    if (r.status() >= 400 && !expected(r.url(), r.status())) problems.push(`${r.status()}: ${r.request().method()} ${r.url()}`);
  };
  page.on("console", onConsole);
  page.on("pageerror", onPageError);
  page.on("requestfailed", onFailed);
  page.on("response", onResponse);
  try {
    await page.goto(target, { waitUntil: "load" });
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await waitUntilLoaded(page);
    await page.waitForLoadState("networkidle");
  } finally {
    page.off("console", onConsole);
    page.off("pageerror", onPageError);
    page.off("requestfailed", onFailed);
    page.off("response", onResponse);
  }
  return problems;
}

async function sweep(context: BrowserContext, width: number, checkOverflow: boolean): Promise<string[]> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 844 });
  const found: string[] = [];
  for (const path of allPages()) {
    for (const p of await load(page, path)) found.push(`${path} @${width}: ${p}`);
    if (!checkOverflow) continue;
    const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    if (scrollWidth > innerWidth) found.push(`${path} @${width}: scrollWidth ${scrollWidth} > ${innerWidth}`);
  }
  await context.close();
  return found;
}

/**
 * Fails with every problem, one a line, each with its page and width (not a diff of an array), and
 * what the server logged as an error or warning meanwhile (a request it reset, an answer it failed).
 */
function expectNone(problems: string[]): void {
  if (!problems.length) return;
  const server = lab.server
    .output()
    .split("\n")
    .filter((l) => /"level":"(warn|error|fatal)"|timed out/i.test(l));
  throw new Error(`${problems.length} problem(s):\n${problems.join("\n")}${server.length ? `\nserver:\n${server.join("\n")}` : ""}`);
}

/**
 * Two sweeps at a time, each on its own page and session: most of a load is waiting on the server
 * and on the network going quiet, so two overlap well; four at once on a loaded machine made single
 * navigations take past the step limit.
 */
let slots = 2;
const queue: (() => void)[] = [];
async function inSlot<T>(work: () => Promise<T>): Promise<T> {
  if (slots > 0) slots--;
  else await new Promise<void>((resolve) => queue.push(resolve));
  try {
    return await work();
  } finally {
    const next = queue.shift();
    if (next) next();
    else slots++;
  }
}

describe.concurrent("every page, signed out and signed in", () => {
  // 16 pages, each a navigation and four waits, per sweep; the backstop covers a sweep waiting for a slot too.
  setDefaultTimeout(stepsTimeout(16 * 5) * 2);

  test("at 390 px no page is wider than the viewport, and none logs an error or fails a request (signed out)", async () => {
    expectNone(await inSlot(async () => sweep(await lab.context(), 390, true)));
  });

  test("at 390 px no page is wider than the viewport, and none logs an error or fails a request (signed in)", async () => {
    expectNone(await inSlot(async () => sweep(await signedIn(), 390, true)));
  });

  test("at 1440 px no page logs an error or fails a request (signed out and in)", async () => {
    const [out, signedInProblems] = await Promise.all([
      inSlot(async () => sweep(await lab.context(), 1440, false)),
      inSlot(async () => sweep(await signedIn(), 1440, false)),
    ]);
    expectNone([...out, ...signedInProblems]);
  });
});

describe("the narrow shell", () => {
  setDefaultTimeout(stepsTimeout(30));

  test("at 390 px the sidebar is a drawer: the menu button opens it, focus moves in and stays, Escape closes it", async () => {
    const page = await (await signedIn()).newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, url("/dashboard"), "light");
    const menu = page.getByRole("button", { name: "Menu" });
    const sidebar = page.getByRole("complementary", { name: "Sidebar" });
    await menu.waitFor();
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    expect(await sidebar.isVisible()).toBe(false);

    await menu.click();
    await sidebar.getByRole("navigation", { name: "Main" }).waitFor();
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.closest("#di-sidebar") !== null)).toBe(true);
    for (let i = 0; i < 25; i++) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("#di-sidebar") !== null)).toBe(true);
    // In place: the calm test browser prefers reduced motion, so the drawer does not slide (it
    // would be read mid-slide otherwise); a drawer that never arrives fails the step.
    await page.waitForFunction(() => document.getElementById("di-sidebar")?.getBoundingClientRect().left === 0);
    const box = (await sidebar.boundingBox())!;
    expect(box.x).toBe(0);
    expect(box.width).toBeLessThanOrEqual(390);

    await page.keyboard.press("Escape");
    await sidebar.waitFor({ state: "hidden" });
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Menu");

    // Choosing a page closes the drawer.
    await menu.click();
    await sidebar.getByRole("link", { name: "Trends" }).click();
    await page.waitForURL(url("/trends"));
    await sidebar.waitFor({ state: "hidden" });
    await page.context().close();
  });

  test("at 390 px the status bar fits: nothing in it is cut off", async () => {
    const page = await (await signedIn()).newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, url("/dashboard"), "dark");
    const fit = await page.evaluate(() => {
      const bar = document.querySelector(".di-statusbar")!;
      const right = bar.getBoundingClientRect().right;
      const controls = [...bar.querySelectorAll("button, a")].filter((el) => (el as HTMLElement).offsetParent !== null);
      return {
        overflow: bar.scrollWidth - bar.clientWidth,
        outside: controls.filter((el) => el.getBoundingClientRect().right > right + 0.5).length,
        controls: controls.length,
      };
    });
    expect(fit).toMatchObject({ overflow: 0, outside: 0 });
    expect(fit.controls).toBeGreaterThanOrEqual(5);
    await page.context().close();
  });
});

describe("the wide shell", () => {
  setDefaultTimeout(stepsTimeout(20));

  test("the results page starts with the activity rail closed; other pages keep the saved preference", async () => {
    const page = await (await signedIn()).newPage();
    const rail = page.getByRole("complementary", { name: "Activity" });
    await open(page, url("/dashboard"), "light");
    await rail.waitFor(); // open by default at 1440 px
    await open(page, url(`/comparison/${comparison}/view`), "light");
    expect(await rail.count()).toBe(0);
    await page.getByRole("button", { name: "Activity rail" }).click();
    await rail.waitFor();
    await open(page, url("/dashboard"), "light");
    await rail.waitFor();
    await page.context().close();
  });

  test("shortcut hints are keys (<kbd>), not badges", async () => {
    const page = await (await signedIn()).newPage();
    await open(page, url("/dashboard"), "light");
    const hints = page.locator(".di-nav kbd");
    expect(await hints.count()).toBe(5);
    const style = await hints.first().evaluate((el) => {
      const s = getComputedStyle(el);
      return { border: s.borderTopStyle, background: s.backgroundColor };
    });
    expect(style.border).toBe("solid");
    expect(style.background).toBe("rgba(0, 0, 0, 0)");
    await page.context().close();
  });

  test("the 404 page and the sign-in guard carry the site header and a way back", async () => {
    const page = await (await lab.context()).newPage();
    for (const path of [NOT_FOUND, "/dashboard"]) {
      await open(page, url(path), "light");
      await page
        .getByRole("banner")
        .getByRole("link", { name: /Design Intel/ })
        .waitFor();
      await page.getByRole("main").getByRole("link", { name: "Back to the homepage" }).waitFor();
    }
    await page.context().close();
  });
});

const shots = process.env.SHELL_SHOTS;
describe.skipIf(!shots)("screenshots", () => {
  setDefaultTimeout(stepsTimeout(60));

  test("key pages at 1440 and 390 px, light and dark", async () => {
    mkdirSync(shots!, { recursive: true });
    const pages = ["/", "/dashboard", "/analytics", `/comparison/${comparison}/view`, NOT_FOUND];
    for (const width of [1440, 390])
      for (const theme of ["light", "dark"] as ThemeName[]) {
        const page = await (await signedIn()).newPage();
        await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
        for (const path of pages) {
          await open(page, url(path), theme);
          const name = path === "/" ? "landing" : path.split("/")[1]!;
          await page.screenshot({ path: join(shots!, `${name}-${width}-${theme}.png`) });
        }
        if (width === 390) {
          await open(page, url("/dashboard"), theme);
          await page.getByRole("button", { name: "Menu" }).click();
          await page.getByRole("complementary", { name: "Sidebar" }).getByRole("navigation", { name: "Main" }).waitFor();
          await page.screenshot({ path: join(shots!, `drawer-${width}-${theme}.png`) });
        }
        await page.context().close();
      }
  });
});
