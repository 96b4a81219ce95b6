// Every page, signed out, as a user and as the admin, in real Chromium against the real server, in
// the light and the dark theme: no serious or critical axe-core violations, and every visible
// control reachable with Tab. The results page shows a real run of two fixture sites.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { applyTheme, installAxe, seriousViolations, unreachableByTab } from "#tests/support/a11y";
import { stepsTimeout } from "#tests/support/browser";
import { COMPLETED_COMPARISON_MS, completedComparison, open, startLab, waitUntilLoaded, type Account, type Lab } from "#tests/support/lab";
import { SERVER_START_MS } from "#tests/support/server";
import { waitFor } from "#tests/support/wait";

// A page's audit is about 20 steps: open it (navigation, hydration, loading), axe in each theme, and
// the Tab walk in batches.
setDefaultTimeout(stepsTimeout(20));

let lab: Lab;
let admin: Account;
let rebel: Account;
let visitor: Page;
let boss: Page;
let user: Page;
let completedId = "";
let emptyId = "";
const errors: string[] = [];

beforeAll(
  async () => {
    lab = await startLab();
    admin = await lab.signup("boss@example.com"); // the first account is the admin
    rebel = await lab.signup("rebel@example.com");
    // A key, so key lists (Settings, the console's) are audited as tables; the plain user keeps none.
    await lab.api(admin, "POST", "/api/api-keys", { name: "Boss CI", scope: "run" });
    emptyId = (await lab.api<{ id: string }>(admin, "POST", "/api/comparisons", { name: "Nothing here yet" })).id;
    completedId = await completedComparison(lab, admin);
    // Let the agents work on that capture for a moment, so Mission Control and the agents' pages
    // show real items; stopped again so the pages are quiet while they are audited.
    await lab.api(admin, "POST", "/api/system/start");
    await waitFor(
      "the agents' first component",
      async () => (await lab.api<{ totalComponents: number }>(admin, "GET", "/api/metrics")).totalComponents >= 1,
      60_000,
      250,
    );
    await lab.api(admin, "POST", "/api/system/stop");
    const contexts = await Promise.all([lab.context(), lab.context(admin), lab.context(rebel)]);
    await Promise.all(contexts.map(installAxe));
    const pages = await Promise.all(contexts.map((c) => c.newPage()));
    [visitor, boss, user] = [pages[0]!, pages[1]!, pages[2]!];
    for (const p of [visitor, boss, user]) p.on("pageerror", (e) => errors.push(`${p.url()}: ${e.message}`));
  },
  SERVER_START_MS + COMPLETED_COMPARISON_MS + 60_000 + 30_000,
); // the server, a real two-site run, the agents' first component, a browser

afterAll(async () => {
  await lab?.close();
});

type Who = "visitor" | "user" | "admin";
/**
 * The page of `who`, with the other two sent to about:blank: an app page left open still paints
 * its ticking clock and live figures every second, which in software cost 0.04-0.08 CPU-s a
 * second per page (measured idle on /dashboard), for the rest of the file. Every test opens its
 * own page anew, except the console's and the overlays' runs, which stay on the admin's.
 */
async function pageFor(who: Who): Promise<Page> {
  const page = who === "visitor" ? visitor : who === "user" ? user : boss;
  for (const other of [visitor, user, boss]) if (other !== page && other.url() !== "about:blank") await other.goto("about:blank");
  return page;
}

function report(list: { id: string; impact: string; help: string; nodes: string[] }[]) {
  return list.map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.join("\n    ")}`).join("\n");
}

async function expectClean(page: Page) {
  expect(report(await seriousViolations(page))).toBe("");
}

/**
 * Opens the page (light), optionally acts on it, checks it, then checks it again in the dark theme
 * (switched in place, as the theme toggle does) and hands the page back for more checks.
 */
async function audit(who: Who, path: string, opts: { then?: (p: Page) => Promise<void>; beforeDark?: (p: Page) => Promise<void> } = {}) {
  const page = await pageFor(who);
  await open(page, `${lab.server.url}${path}`, "light");
  if (opts.then) await opts.then(page);
  await expectClean(page);
  if (opts.beforeDark) await opts.beforeDark(page);
  await applyTheme(page, "dark");
  await expectClean(page);
  return page;
}

const PAGES: { who: Who; path: () => string; label: string }[] = [
  { who: "visitor", label: "/", path: () => "/" },
  { who: "visitor", label: "/features", path: () => "/features" },
  { who: "visitor", label: "/pricing", path: () => "/pricing" },
  { who: "visitor", label: "/login", path: () => "/login" },
  { who: "visitor", label: "/signup", path: () => "/signup" },
  { who: "visitor", label: "404", path: () => "/no-such-page" },
  { who: "visitor", label: "guard (/dashboard signed out)", path: () => "/dashboard" },
  { who: "admin", label: "/dashboard", path: () => "/dashboard" },
  { who: "admin", label: "/comparison (none selected)", path: () => "/comparison" },
  { who: "admin", label: "/comparison (empty comparison selected)", path: () => `/comparison?id=${emptyId}` },
  { who: "admin", label: "/comparison (completed comparison selected)", path: () => `/comparison?id=${completedId}` },
  { who: "admin", label: "/comparison/:id/view (completed run)", path: () => `/comparison/${completedId}/view` },
  { who: "admin", label: "/comparison/:id/view (not found)", path: () => "/comparison/nope/view" },
  { who: "admin", label: "/trends", path: () => "/trends" },
  { who: "admin", label: "/analytics", path: () => "/analytics" },
  { who: "admin", label: "/activity", path: () => "/activity" },
  { who: "admin", label: "/tests", path: () => "/tests" },
  { who: "admin", label: "/generate", path: () => "/generate" },
  { who: "admin", label: "/settings", path: () => "/settings" },
  { who: "admin", label: "/super-admin", path: () => "/super-admin" },
  { who: "user", label: "/super-admin (not an admin)", path: () => "/super-admin" },
  // A plain user with nothing of their own yet: the shell without admin items, and the empty states.
  ...["/dashboard", "/comparison", "/trends", "/analytics", "/activity", "/tests", "/generate", "/settings"].map((path) => ({
    who: "user" as const,
    label: `${path} (no data of their own)`,
    path: () => path,
  })),
];

describe("every page: axe in both themes, and Tab reaches every control", () => {
  for (const p of PAGES) {
    test(`${p.who} ${p.label}`, async () => {
      await audit(p.who, p.path(), {
        beforeDark: async (page) => {
          const { controls, missed } = await unreachableByTab(page);
          expect(controls).toBeGreaterThan(0);
          expect(missed).toEqual([]);
        },
      });
    });
  }
});

describe("states that only appear after an action", () => {
  test("the command palette (Ctrl+K)", async () => {
    await audit("admin", "/dashboard", {
      then: async (page) => {
        await page.keyboard.press("Control+k");
        await page.getByRole("dialog").waitFor();
      },
    });
    await boss.keyboard.press("Escape");
  });

  test("the notifications popover", async () => {
    await audit("admin", "/activity", {
      then: async (page) => {
        await page.getByRole("button", { name: "Notifications" }).click();
        await page.getByRole("dialog").waitFor();
      },
    });
    await boss.keyboard.press("Escape");
  });

  test("the waitlist dialog on /pricing", async () => {
    await audit("visitor", "/pricing", {
      then: async (page) => {
        await page.getByRole("button", { name: "Join Beta - Free" }).click();
        await page.getByRole("dialog").getByLabel("Email").waitFor();
      },
    });
  });

  // Overlays show one at a time, so each is audited on its own: on one load of the mobile tab,
  // each switched on, audited in both themes and switched off again (a load of the results page
  // per overlay was CPU that proved nothing more). A test that did not finish leaves the page as
  // it was, so the next one starts from a fresh load.
  let overlaysReady = false;
  for (const overlay of ["Colors", "Layout", "Typography", "Elements"])
    test(`results with the ${overlay} overlay on, on the mobile tab`, async () => {
      const ready = overlaysReady;
      overlaysReady = false;
      if (!ready) {
        await open(await pageFor("admin"), `${lab.server.url}/comparison/${completedId}/view`, "light");
        await boss.getByRole("tab", { name: "Mobile" }).click();
        await boss.getByRole("tab", { name: "Mobile", selected: true }).waitFor();
      } else await applyTheme(boss, "light");
      const toggle = boss.getByRole("switch", { name: overlay });
      await toggle.click();
      if (overlay === "Colors") await boss.getByLabel("Dominant colours").first().waitFor();
      else await boss.locator("[data-overlay-box]").first().waitFor();
      await expectClean(boss);
      await applyTheme(boss, "dark");
      await expectClean(boss);
      await toggle.click();
      await boss.getByRole("switch", { name: overlay, checked: false }).waitFor();
      if (overlay === "Colors") await boss.getByLabel("Dominant colours").first().waitFor({ state: "detached" });
      else await boss.locator("[data-overlay-box]").first().waitFor({ state: "detached" });
      overlaysReady = true;
    });

  test("results in slider mode at 100 %", async () => {
    await audit("admin", `/comparison/${completedId}/view?mode=slider&zoom=100`, {
      then: async (page) => {
        await page.getByTestId("compare-stage").waitFor();
      },
    });
  });

  // One test per state of the console, each from a fresh load: eight states in one test ran past
  // any fixed budget on a busy machine, and a failure here names the state.
  const CONSOLE_STATES: { tab: string; dialog?: string; dialogTab?: string }[] = [
    { tab: "Database" },
    { tab: "Security" },
    { tab: "Settings" },
    { tab: "Database", dialog: "View Backups" },
    { tab: "Security", dialog: "Generate API Key" },
    { tab: "Security", dialog: "Generate API Key", dialogTab: "All users" },
    { tab: "Security", dialog: "Manage Users" },
    { tab: "Security", dialog: "View Audit Logs" },
    { tab: "Security", dialog: "Security Report" },
  ];
  // The console is loaded once for all its states: each test that finishes leaves it with no
  // dialog open, and the next one picks its tab; one that did not finish makes the next load it.
  let consoleReady = false;
  for (const state of CONSOLE_STATES) {
    test(`the console's ${state.tab} tab${state.dialog ? `, its ${state.dialog} dialog` : ""}${state.dialogTab ? ` (${state.dialogTab})` : ""}`, async () => {
      const ready = consoleReady;
      consoleReady = false;
      if (!ready) await open(await pageFor("admin"), `${lab.server.url}/super-admin`, "light");
      await boss.getByRole("tab", { name: state.tab }).click();
      await boss.getByRole("tabpanel", { name: state.tab }).waitFor();
      if (state.dialog) {
        await boss.getByRole("button", { name: state.dialog }).click();
        await boss.getByRole("dialog").waitFor();
      }
      if (state.dialogTab) {
        await boss.getByRole("dialog").getByRole("tab", { name: state.dialogTab }).click();
        // Its list loads on opening (no aria-busy to wait on): the table is the sign it is there.
        await boss.getByRole("dialog").getByRole("tabpanel", { name: state.dialogTab }).getByRole("table").waitFor();
      }
      await waitUntilLoaded(boss);
      await applyTheme(boss, "light");
      await expectClean(boss);
      await applyTheme(boss, "dark");
      await expectClean(boss);
      if (state.dialog) {
        await boss.keyboard.press("Escape");
        await boss.getByRole("dialog").waitFor({ state: "detached" });
      }
      consoleReady = true;
    });
  }

  test("the maintenance screen a user gets while maintenance is on", async () => {
    await lab.api(admin, "POST", "/api/admin/maintenance", { enabled: true });
    try {
      await audit("user", "/dashboard", { then: (page) => page.getByTestId("maintenance-screen").waitFor() });
    } finally {
      await lab.api(admin, "POST", "/api/admin/maintenance", { enabled: false });
    }
  });

  test("no uncaught errors on any page", () => {
    expect(errors).toEqual([]);
  });
});
