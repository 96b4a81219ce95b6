// Teams in real Chromium against the running app (issue 31): the owner switches between their
// personal and a team workspace and the comparisons page follows; Settings shows the team's members
// and makes a viewer's invitation link; a signed-out browser opens the link, signs in, comes back and
// accepts; the viewer sees the team's comparison and its results (screenshots fetched by cookie
// follow the chosen workspace), and Start and Delete are off with the reason; the viewer's switcher
// takes them back to their own workspace; a used link says so. With E2E_SHOTS=<dir> it saves the
// screens at 1440 and 390 px, as the other end-to-end files do.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { installAxe, seriousViolations } from "#tests/support/a11y";
import { stepsTimeout } from "#tests/support/browser";
import {
  type Account,
  COMPLETED_COMPARISON_MS,
  completedComparison,
  type Lab,
  PASSWORD,
  open,
  startLab,
  waitUntilLoaded,
} from "#tests/support/lab";
import { SERVER_START_MS } from "#tests/support/server";

const SHOTS = process.env.E2E_SHOTS;
const VIEWER_REASON = "Viewers can read results; ask an admin for the editor role";

let lab: Lab;
let owner: Account;
let viewer: Account;
let teamId = "";
let teamComparison = "";
let invitation = "";
const errors: string[] = [];
/** Page errors, and console errors about hydration (a server render the client disagreed with). */
function watch(page: Page) {
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" && /hydrat/i.test(m.text())) errors.push(`${page.url()}: ${m.text().split("\n")[0]}`);
  });
}
/** One browser per account for the whole file: a refresh cookie rotates on first use. */
let ownerCtx: BrowserContext;
let ownerPage: Page;
let viewerCtx: BrowserContext;
let viewerPage: Page;

setDefaultTimeout(stepsTimeout(15));

beforeAll(
  async () => {
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
    lab = await startLab();
    const stamp = Date.now();
    owner = await lab.signup(`ws-owner-${stamp}@example.com`);
    viewer = await lab.signup(`ws-viewer-${stamp}@example.com`);
    await lab.api(owner, "POST", "/api/comparisons", { name: "Personal sketchbook" });
    const team = await lab.api<{ id: string }>(owner, "POST", "/api/workspaces", { name: "Growth team" });
    teamId = team.id;
    // Made in the team's workspace (the one chosen last), and run for real: its results have screenshots.
    await lab.api(owner, "PUT", "/api/me/workspace", { id: teamId });
    teamComparison = await completedComparison(lab, owner, "Team checkout teardown");
    // The owner's browser starts in their personal workspace again.
    const mine = await lab.api<{ id: string; personal: boolean }[]>(owner, "GET", "/api/workspaces");
    await lab.api(owner, "PUT", "/api/me/workspace", { id: mine.find((w) => w.personal)!.id });
  },
  SERVER_START_MS + COMPLETED_COMPARISON_MS + 60_000,
);

afterAll(async () => {
  await ownerCtx?.close();
  await viewerCtx?.close();
  await lab?.close();
});

function report(list: { id: string; impact: string; help: string; nodes: string[] }[]) {
  return list.map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.join("\n    ")}`).join("\n");
}

/** The whole page, or with `at` the screen scrolled to it, or with "screen" the screen as it is (an open menu). */
async function shot(page: Page, name: string, at?: Locator | "screen") {
  if (!SHOTS) return;
  if (at && at !== "screen") await at.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: !at });
}

/** The same screen on a phone (390 px wide), then back at 1440 px. */
async function phoneShot(page: Page, name: string, at?: Locator | "screen") {
  await page.setViewportSize({ width: 390, height: 844 });
  const hide = page.getByRole("button", { name: "Hide activity rail" });
  if (await hide.isVisible()) await hide.click();
  await shot(page, name, at);
  await page.setViewportSize({ width: 1440, height: 900 });
}

const switcher = (page: Page) => page.getByRole("button", { name: /Switch workspace/ });
const listed = (page: Page, name: string) => page.getByRole("button", { name: new RegExp(name) });

async function switchTo(page: Page, label: string) {
  await switcher(page).click();
  const chosen = page.waitForResponse((r) => r.request().method() === "PUT" && r.url().endsWith("/api/me/workspace"));
  await page.getByRole("menuitemradio", { name: new RegExp(`^${label}`) }).click();
  expect((await chosen).status()).toBe(200);
}

describe("workspaces in the app", () => {
  test("the owner's switcher changes what the comparisons page lists, and the choice is remembered", async () => {
    ownerCtx = await lab.context(owner);
    await installAxe(ownerCtx);
    ownerPage = await ownerCtx.newPage();
    watch(ownerPage);
    await open(ownerPage, `${lab.server.url}/comparison`, "light");
    await expect(switcher(ownerPage).textContent()).resolves.toBe("Switch workspace: PPersonal, Just you");
    await listed(ownerPage, "Personal sketchbook").waitFor();
    expect(await listed(ownerPage, "Team checkout teardown").count()).toBe(0);

    await switcher(ownerPage).click();
    const menu = ownerPage.getByRole("menu");
    await expect(menu.getByRole("menuitemradio").count()).resolves.toBe(2);
    await shot(ownerPage, "switcher-menu-1440", "screen");
    await ownerPage.keyboard.press("Escape");
    // In the collapsed sidebar the switcher is the workspace's initial, its name in a tooltip.
    await ownerPage.getByRole("button", { name: "Collapse sidebar" }).click();
    await switcher(ownerPage).hover();
    await ownerPage.getByRole("tooltip").first().waitFor();
    await shot(ownerPage, "switcher-collapsed-1440", "screen");
    await ownerPage.getByRole("button", { name: "Expand sidebar" }).click();

    await switchTo(ownerPage, "Growth team");
    await listed(ownerPage, "Team checkout teardown").waitFor();
    await listed(ownerPage, "Personal sketchbook").waitFor({ state: "detached" });
    await expect(switcher(ownerPage).textContent()).resolves.toBe("Switch workspace: GGrowth team, Team · Owner");
    // Every call named the chosen workspace; a reload (rendered on the server) stays in it.
    await open(ownerPage, `${lab.server.url}/comparison`, "light");
    await listed(ownerPage, "Team checkout teardown").waitFor();
    expect(await listed(ownerPage, "Personal sketchbook").count()).toBe(0);
    await shot(ownerPage, "owner-team-comparisons-1440");
  });

  test("Settings shows the team's members and makes a viewer's invitation link", async () => {
    await open(ownerPage, `${lab.server.url}/settings`, "light");
    const members = ownerPage.getByTestId("members-panel");
    await members.getByRole("row", { name: owner.email }).waitFor();
    const invitations = ownerPage.getByTestId("invitations-panel");
    await expect(invitations.getByRole("combobox", { name: "Role: Viewer" }).textContent()).resolves.toBe("Viewer");
    await invitations.getByRole("button", { name: "Create invitation link" }).click();
    invitation = (await invitations.getByLabel("Invitation link").textContent()) ?? "";
    expect(invitation).toMatch(new RegExp(`^${lab.server.url}/invite/[A-Za-z0-9_-]{43}$`));
    await invitations.getByTestId("invitation-row").first().waitFor();
    expect(report(await seriousViolations(ownerPage))).toBe("");
  });

  test("signed out, the link offers sign-in; after it, the viewer accepts and lands in the team's workspace", async () => {
    expect(invitation).not.toBe("");
    viewerCtx = await lab.context();
    await installAxe(viewerCtx);
    viewerPage = await viewerCtx.newPage();
    watch(viewerPage);
    await open(viewerPage, invitation, "light");
    await viewerPage.getByRole("heading", { name: "You're invited" }).waitFor();
    await shot(viewerPage, "invite-signed-out-1440");
    await phoneShot(viewerPage, "invite-signed-out-390");
    await viewerPage.getByRole("link", { name: "Sign in to accept" }).click();
    await viewerPage.waitForURL(/\/login\?next=/);
    await viewerPage.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await viewerPage.getByLabel("Email").fill(viewer.email);
    await viewerPage.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await viewerPage.getByRole("button", { name: "Sign In", exact: true }).click();
    await viewerPage.waitForURL(invitation);
    const accept = viewerPage.getByRole("button", { name: "Accept invitation" });
    await accept.waitFor();
    expect(report(await seriousViolations(viewerPage))).toBe("");
    await shot(viewerPage, "invite-signed-in-1440");
    await accept.click();
    await viewerPage.waitForURL(/\/comparison$/);
    await listed(viewerPage, "Team checkout teardown").waitFor();
    await expect(switcher(viewerPage).textContent()).resolves.toBe("Switch workspace: GGrowth team, Team · Viewer");
  });

  test("the viewer sees the team's comparison with Start and Delete off, and why", async () => {
    await open(viewerPage, `${lab.server.url}/comparison?id=${teamComparison}`, "light");
    const start = viewerPage.getByRole("button", { name: "Start Analysis" });
    const del = viewerPage.getByRole("button", { name: "Delete Team checkout teardown" });
    await expect(start.isDisabled()).resolves.toBe(true);
    await expect(del.isDisabled()).resolves.toBe(true);
    await expect(viewerPage.getByRole("button", { name: /Add Website/ }).isDisabled()).resolves.toBe(true);
    await expect(viewerPage.getByTestId("disabled-reason").first().textContent()).resolves.toBe(VIEWER_REASON);
    // Hovering the off button shows the reason too.
    await viewerPage.getByRole("group", { name: VIEWER_REASON }).first().hover();
    await expect(viewerPage.getByRole("tooltip").first().textContent()).resolves.toContain(VIEWER_REASON);
    expect(report(await seriousViolations(viewerPage))).toBe("");
    await shot(viewerPage, "viewer-comparison-1440");
    await phoneShot(viewerPage, "viewer-comparison-390", viewerPage.getByRole("button", { name: "Start Analysis" }));
    // The server refuses the same actions (403), whatever the page shows.
    for (const [method, path] of [
      ["POST", `/api/comparisons/${teamComparison}/start`],
      ["DELETE", `/api/comparisons/${teamComparison}`],
    ] as const) {
      const res = await fetch(`${lab.server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${viewer.token}`, "x-workspace-id": teamId },
      });
      expect(res.status).toBe(403);
    }
  });

  test("the viewer reads the team's results, screenshots included (fetched by cookie in the chosen workspace)", async () => {
    await open(viewerPage, `${lab.server.url}/comparison/${teamComparison}/view`, "light");
    await viewerPage.waitForFunction(() => {
      const imgs = [...document.querySelectorAll<HTMLImageElement>('[data-testid="screenshot-panel"] img')];
      return imgs.length === 2 && imgs.every((i) => i.complete && i.naturalWidth > 0);
    });
    // Share links are an editor's: the viewer's Share is off, with the reason.
    await expect(viewerPage.getByRole("button", { name: "Share" }).isDisabled()).resolves.toBe(true);
    await shot(viewerPage, "viewer-results-1440");
    await phoneShot(viewerPage, "viewer-results-390", viewerPage.getByTestId("screenshot-panel").first());
  });

  test("the viewer's switcher takes them back to their own workspace: the team's comparison leaves the list", async () => {
    await open(viewerPage, `${lab.server.url}/comparison`, "light");
    await listed(viewerPage, "Team checkout teardown").waitFor();
    await switchTo(viewerPage, "Personal");
    await listed(viewerPage, "Team checkout teardown").waitFor({ state: "detached" });
    await waitUntilLoaded(viewerPage);
    await expect(viewerPage.getByRole("button", { name: /Create Comparison/ }).isDisabled()).resolves.toBe(false);
    await switchTo(viewerPage, "Growth team");
    await listed(viewerPage, "Team checkout teardown").waitFor();
  });

  test("the owner's members list shows the viewer; screens at 1440 and 390 px", async () => {
    await open(ownerPage, `${lab.server.url}/settings`, "light");
    const members = ownerPage.getByTestId("members-panel");
    const row = members.getByRole("row", { name: viewer.email });
    await row.waitFor();
    await expect(row.getByRole("combobox", { name: `Role of ${viewer.email}: Viewer` }).textContent()).resolves.toBe("Viewer");
    await ownerPage.getByTestId("invitations-panel").getByText("Accepted", { exact: true }).waitFor();
    await shot(ownerPage, "settings-members-1440", members);
    await shot(ownerPage, "settings-invitations-1440", ownerPage.getByTestId("invitations-panel"));
    await phoneShot(ownerPage, "settings-members-390", members);
    await phoneShot(ownerPage, "settings-invitations-390", ownerPage.getByTestId("invitations-panel"));
    // On a phone the switcher sits in the menu drawer.
    await ownerPage.setViewportSize({ width: 390, height: 844 });
    await ownerPage.getByRole("button", { name: "Menu" }).click();
    await switcher(ownerPage).click();
    await ownerPage.getByRole("menu").waitFor();
    await shot(ownerPage, "switcher-menu-390", "screen");
    await ownerPage.keyboard.press("Escape");
    await ownerPage.setViewportSize({ width: 1440, height: 900 });
  });

  test("through sign-up: a newcomer creates an account from the link, comes back, accepts as editor, and may start", async () => {
    const made = await lab.api<{ url: string }>(owner, "POST", `/api/workspaces/${teamId}/invitations`, { role: "editor" });
    const ctx = await lab.context();
    try {
      const page = await ctx.newPage();
      watch(page);
      await open(page, made.url, "light");
      await page.getByRole("link", { name: "Create an account" }).click();
      await page.waitForURL(/\/signup\?next=/);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
      await page.getByLabel("Email").fill(`ws-newcomer-${Date.now()}@example.com`);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Join the Rebellion" }).click();
      await page.waitForURL(made.url);
      await page.getByRole("button", { name: "Accept invitation" }).click();
      await page.waitForURL(/\/comparison$/);
      await expect(switcher(page).textContent()).resolves.toBe("Switch workspace: GGrowth team, Team · Editor");
      await listed(page, "Team checkout teardown").click();
      await expect(page.getByRole("button", { name: "Start Analysis" }).isDisabled()).resolves.toBe(false);
      expect(await page.getByTestId("disabled-reason").count()).toBe(0);
    } finally {
      await ctx.close();
    }
  });

  test("a used invitation link says so", async () => {
    await open(viewerPage, invitation, "light");
    await viewerPage.getByRole("button", { name: "Accept invitation" }).click();
    await expect(viewerPage.getByRole("alert").filter({ hasText: "invitation" }).first().textContent()).resolves.toMatch(
      /already used|already a member/i,
    );
    expect(errors).toEqual([]);
  });

  test("the owner renames the team workspace in Settings and the switcher shows the new name", async () => {
    await open(ownerPage, `${lab.server.url}/settings`, "light");
    await expect(switcher(ownerPage).textContent()).resolves.toBe("Switch workspace: GGrowth team, Team · Owner");
    const card = ownerPage.getByTestId("workspace-card");
    await card.getByRole("textbox", { name: "Workspace name" }).fill("Growth squad");
    const renamed = ownerPage.waitForResponse((r) => r.request().method() === "PATCH" && r.url().endsWith(`/api/workspaces/${teamId}`));
    await card.getByRole("button", { name: "Rename" }).click();
    expect((await renamed).status()).toBe(200);
    await switcher(ownerPage).filter({ hasText: "Growth squad" }).waitFor({ timeout: 5_000 });
    await expect(switcher(ownerPage).textContent()).resolves.toBe("Switch workspace: GGrowth squad, Team · Owner");
    await shot(ownerPage, "settings-workspace-1440", card);
    await phoneShot(ownerPage, "settings-workspace-390", card);
    const audit = ownerPage.getByTestId("audit-panel");
    await audit.getByTestId("audit-table").waitFor();
    await shot(ownerPage, "settings-audit-1440", audit);
    expect(errors).toEqual([]);
  });
});
