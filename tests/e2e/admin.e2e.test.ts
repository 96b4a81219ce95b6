// The super-admin console in Chromium against a real server: maintenance, control panel, backups,
// API keys, user management, audit log and alert settings, with a second (non-admin) user watching.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { STEP_TIMEOUT_MS, launchBrowser, signUpInto, stepsTimeout } from "#tests/support/browser";
import { SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";
import { sawToast } from "#tests/support/toasts";
import { waitFor } from "#tests/support/wait";

// Each test here makes up to about 20 Playwright steps; each fails by itself if it cannot happen.
setDefaultTimeout(stepsTimeout(20));

const BANNER = "System is currently in maintenance mode. Users cannot access the application.";
const PASSWORD = "correct-horse-battery";

let server: RunningServer;
let browser: Browser;
let adminCtx: BrowserContext;
let userCtx: BrowserContext;
let admin: Page;
let user: Page;
const userEmail = "rebel@example.com";

beforeAll(
  async () => {
    server = await startServer();
    browser = await launchBrowser({ calm: true });
    adminCtx = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
    userCtx = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    // The sign-up form is comparison.e2e's subject; here each account gets its session by the API.
    await signUpInto(adminCtx, server.url, "boss@example.com", PASSWORD); // the first account is the admin
    await signUpInto(userCtx, server.url, userEmail, PASSWORD);
    admin = await adminCtx.newPage();
    user = await userCtx.newPage();
  },
  SERVER_START_MS + stepsTimeout(10),
); // the server, a browser, two sign-ups

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("super-admin console", () => {
  test("admins get the console with real figures; others get the admins-only screen", async () => {
    await admin.goto(`${server.url}/super-admin`);
    await admin.getByRole("heading", { name: "Super Admin Console" }).waitFor();
    expect(await admin.title()).toBe("Super Admin · Design Intel");
    const health = await admin.getByTestId("health-badge").textContent();
    expect(["Healthy", "Warning", "Critical"]).toContain(health!);
    expect(await admin.locator("[data-placeholder]").count()).toBe(0); // real answers, not the spec's defaults
    expect(await admin.getByTestId("uptime").textContent()).toMatch(/^\d+d \d+h \d+m$/);
    for (const tab of ["Monitoring", "Database", "Security", "Settings"]) await admin.getByRole("tab", { name: tab }).waitFor();

    await user.goto(`${server.url}/super-admin`);
    await user.getByRole("heading", { name: "Admins Only" }).waitFor();
    expect(await user.getByText("Super Admin Console").count()).toBe(0);
  });

  test("SYSTEM_METRICS arrives live over /ws without waiting for the 30 s reload", async () => {
    await admin.getByTestId("admin-connection").filter({ hasText: "Live" }).waitFor();
    const sampled = () => document.querySelector("[data-testid=uptime]")?.getAttribute("data-sampled-at");
    const first = await admin.evaluate(sampled);
    // The sampler pushes every 5 s; the page reloads its figures only every 30 s, so a new sample
    // well inside that came over the socket. Six pushes' worth of waiting, for a busy machine.
    await admin.waitForFunction((prev) => document.querySelector("[data-testid=uptime]")?.getAttribute("data-sampled-at") !== prev, first, {
      timeout: 30_000,
    });
  });

  test("Refresh re-reads the figures: the request counter moves", async () => {
    const total = () => admin.getByText("Total Requests").locator("xpath=../..").textContent();
    const before = Number((await total())!.replace(/\D/g, ""));
    await admin.getByRole("button", { name: "Refresh dashboard data" }).click();
    await waitFor("the request counter to move", async () => Number((await total())!.replace(/\D/g, "")) > before, STEP_TIMEOUT_MS);
  });

  test("maintenance mode locks out the other user and lifts cleanly", async () => {
    await admin.getByTestId("maintenance-switch").click();
    await sawToast(admin, "Maintenance Mode Enabled");
    await admin.getByTestId("maintenance-banner").filter({ hasText: BANNER }).waitFor();

    await user.goto(`${server.url}/dashboard`);
    await user.getByTestId("maintenance-screen").waitFor();
    await user.getByText(BANNER).waitFor();

    await admin.getByTestId("maintenance-switch").click();
    await sawToast(admin, "Maintenance Mode Disabled");
    await admin.getByTestId("maintenance-banner").waitFor({ state: "detached" });
    await user.reload();
    await user.getByTestId("maintenance-screen").waitFor({ state: "detached" });
  });

  test("control panel starts, restarts and stops the agent system", async () => {
    await admin.getByRole("button", { name: "Start System" }).click();
    await sawToast(admin, "System Started");
    await admin.getByTestId("system-badge").filter({ hasText: "System Active" }).waitFor();
    await admin.getByRole("button", { name: "Restart" }).click();
    await sawToast(admin, "System Restarted");
    await admin.getByRole("button", { name: "Stop System" }).click();
    await sawToast(admin, "System Stopped");
    await admin.getByTestId("system-badge").filter({ hasText: "System Offline" }).waitFor();
  });

  test("Backup Now makes a backup that View Backups lists and downloads", async () => {
    await admin.getByRole("tab", { name: "Database" }).click();
    await admin.getByRole("button", { name: "Backup Now" }).click();
    await sawToast(admin, "Backup Complete");
    await admin.getByTestId("backup-status").filter({ hasText: "Healthy" }).waitFor();
    await admin.getByRole("button", { name: "View Backups" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByTestId("backup-list").waitFor();
    expect(await dialog.locator("tbody tr").count()).toBe(1);
    const [download] = await Promise.all([admin.waitForEvent("download"), dialog.getByRole("button", { name: /^Download / }).click()]);
    expect(download.suggestedFilename()).toMatch(/^design-intel-\d{8}T\d{9}Z\.db$/);
    const bytes = await Bun.file((await download.path())!).bytes();
    expect(new TextDecoder().decode(bytes.slice(0, 15))).toBe("SQLite format 3");
    await dialog.getByRole("button", { name: "Close" }).click();
  });

  test("Generate API Key shows the key once, and the key works as a bearer token", async () => {
    await admin.getByRole("tab", { name: "Security" }).click();
    await admin.getByRole("button", { name: "Generate API Key" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByLabel("Key name").fill("CI nightly");
    await dialog.getByRole("button", { name: "Generate API Key" }).click();
    const key = (await dialog.getByTestId("new-api-key-value").textContent())!;
    expect(key).toMatch(/^di_/);
    const res = await fetch(`${server.url}/api/admin/system-metrics`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    await dialog.getByRole("button", { name: "Close" }).click();
    await admin.getByRole("button", { name: "Generate API Key" }).click();
    await admin.getByRole("dialog").getByTestId("api-keys-table").waitFor();
    expect(await admin.getByRole("dialog").getByTestId("new-api-key").count()).toBe(0); // shown once only
    expect(await admin.getByRole("dialog").textContent()).not.toContain(key);
    await admin.getByRole("dialog").getByRole("button", { name: "Close" }).click();
  });

  test("All users lists another user's key with its owner; revoking it there ends the key at once", async () => {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: userEmail, password: PASSWORD }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const made = await fetch(`${server.url}/api/api-keys`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ name: "Rebel CI", scope: "run" }),
    });
    const { key } = (await made.json()) as { key: string };
    const me = () => fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
    expect(await me()).toBe(200);

    await admin.getByRole("button", { name: "Generate API Key" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByTestId("api-keys-table").waitFor();
    await dialog.getByRole("tab", { name: "All users" }).click();
    const row = dialog.getByTestId("all-api-keys-table").getByRole("row").filter({ hasText: "Rebel CI" });
    await row.getByText(userEmail).waitFor();
    expect(await dialog.textContent()).not.toContain(key);
    await row.getByRole("button", { name: `Revoke Rebel CI of ${userEmail}` }).click();
    await admin.getByRole("alertdialog").getByRole("button", { name: "Revoke" }).click();
    await sawToast(admin, "API Key Revoked");
    await row.getByText("Revoked").waitFor();
    expect(await me()).toBe(401);
    await dialog.getByRole("button", { name: "Close" }).click();
  });

  test("disabling a user from Manage Users ends their open session", async () => {
    await user.goto(`${server.url}/dashboard`);
    await user.getByText("Hold Up There, Digital Wanderer").waitFor({ state: "detached" });

    await admin.getByRole("button", { name: "Manage Users" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByRole("button", { name: `Disable ${userEmail}` }).click();
    await admin.getByRole("alertdialog").getByRole("button", { name: "Confirm" }).click();
    await sawToast(admin, "User Updated");
    await dialog.locator(`tr[data-email="${userEmail}"]`).getByText("Disabled").waitFor();
    await dialog.getByRole("button", { name: "Close" }).click();

    await user.reload();
    await user.getByText("Hold Up There, Digital Wanderer").waitFor();
  });

  test("the audit log and the security report tell what happened", async () => {
    await admin.getByRole("button", { name: "View Audit Logs" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByTestId("audit-table").waitFor();
    for (const what of ["Disabled user", "API key created", "API key revoked", "Backup created", "Maintenance on"])
      await dialog.getByText(what).first().waitFor();
    await dialog.getByRole("button", { name: "Close" }).click();

    await admin.getByRole("button", { name: "Security Report" }).click();
    const report = admin.getByRole("dialog").getByTestId("security-report");
    await report.waitFor();
    expect(await report.textContent()).toContain("Disabled accounts1");
    expect(await report.textContent()).toContain("Active API keys1");
    await admin.getByRole("dialog").getByRole("button", { name: "Close" }).click();
  });

  test("alert settings are validated, saved with a toast and kept on the server", async () => {
    await admin.getByRole("tab", { name: "Settings" }).click();
    // This server has no SMTP_URL or webhook: each switch says what would deliver it.
    await admin.getByText("Set SMTP_URL on the server to deliver these", { exact: false }).waitFor();
    await admin.getByText("Set ALERT_WEBHOOK_URL on the server to deliver these.").waitFor();
    const cpu = admin.getByLabel("CPU Threshold");
    await cpu.fill("101");
    await admin.getByRole("button", { name: "Save Alert Settings" }).click();
    await admin.getByText("CPU threshold must be a whole number from 1 to 100").waitFor();
    await cpu.fill("75");
    await admin.getByLabel("Error Rate Threshold").fill("2.5");
    await admin.getByRole("button", { name: "Save Alert Settings" }).click();
    await sawToast(admin, "Alert Settings Saved");
    await admin.reload();
    await admin.getByRole("tab", { name: "Settings" }).click();
    expect(await admin.getByLabel("CPU Threshold").inputValue()).toBe("75");
    expect(await admin.getByLabel("Error Rate Threshold").inputValue()).toBe("2.5");
  });
});
