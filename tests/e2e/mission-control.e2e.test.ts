// Mission Control in Chromium against the real server (agents in their worker, the /ws feed):
// launch the system, watch the KPIs and the stream move without reloading, visit the agents'
// pages, see a non-admin refused, stop the system.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { openDatabase } from "#server/db/connection";
import { insertComparison } from "#tests/agents/fixtures";
import { gotoHydrated, launchBrowser, signUpInto, stepsTimeout } from "#tests/support/browser";
import { SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";
import { sawToast } from "#tests/support/toasts";

const PASSWORD = "correct-horse-battery";
/** The agents' work shows up within a few of their cycles (DesignNinja's is 5 s), slower on a busy machine. */
const AGENTS_WAIT_MS = 30_000;

// Each test makes up to about 20 Playwright steps; those waiting on the agents are counted apart.
setDefaultTimeout(stepsTimeout(20));
let server: RunningServer;
let browser: Browser;
let admin: Page;
let user: Page;

const num = async (page: Page, id: string) => Number((await page.getByTestId(id).textContent())?.replace(/,/g, ""));

beforeAll(
  async () => {
    server = await startServer();
    browser = await launchBrowser({ calm: true });
    const adminCtx = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    const userCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // The sign-up form is comparison.e2e's subject; here each account gets its session by the API.
    await signUpInto(adminCtx, server.url, "boss@example.com", PASSWORD); // the first account is the admin
    await signUpInto(userCtx, server.url, "rebel@example.com", PASSWORD);
    admin = await adminCtx.newPage();
    user = await userCtx.newPage();
    // Captures the agents can work on, written the way a comparison run stores them.
    const db = openDatabase(join(server.dataDir, "design-intel.db"));
    const owner = db.query<{ id: string }, [string]>("SELECT id FROM users WHERE email = ?").get("boss@example.com")!.id;
    insertComparison(
      db,
      owner,
      Array.from({ length: 8 }, (_, i) => ({
        url: `https://site${i}.example/`,
        isDark: i < 7,
        accent: ["#dc2626", "#2563eb", "#16a34a", "#7c3aed", "#ea7a0c", "#db2777", "#0d9488", "#d4b106"][i],
      })),
    );
    db.close();
  },
  SERVER_START_MS + stepsTimeout(10),
); // the server, a browser, two sign-ups in it

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("Mission Control end to end", () => {
  test("the dashboard starts offline with real zeros and a live socket", async () => {
    await admin.goto(`${server.url}/dashboard`);
    await admin.getByRole("heading", { name: "Mission Control" }).waitFor();
    await admin.getByTestId("stream-badge").filter({ hasText: "Live" }).waitFor();
    expect(await admin.getByTestId("system-badge").textContent()).toBe("Offline");
    expect(await admin.getByTestId("agents-header-badge").textContent()).toBe("System Offline");
    expect(await admin.getByTestId("kpi-components").textContent()).toBe("0");
    expect(await admin.getByTestId("kpi-accuracy").textContent()).toBe("—");
    await admin.getByText("Connected", { exact: true }).first().waitFor();
  });

  test("a non-admin's Launch is refused with the spec's error toast", async () => {
    await gotoHydrated(user, `${server.url}/dashboard`);
    await user.getByRole("button", { name: "Launch System" }).click();
    await sawToast(user, "Error", "Only admins can start, stop or restart the agent system");
    expect(await user.getByTestId("system-badge").textContent()).toBe("Offline");
  });

  test(
    "Launch: the system goes Active and the KPIs and the stream move without a reload",
    async () => {
      await admin.getByRole("button", { name: "Launch System" }).click();
      await sawToast(admin, "System Started", "AI Design Intelligence System activated");
      expect(await admin.getByTestId("system-badge").textContent()).toBe("Active");
      await admin
        .getByTestId("agents-header-badge")
        .filter({ hasText: /^\d Active$/ })
        .waitFor();

      await admin.waitForFunction(() => Number(document.querySelector('[data-testid="kpi-components"]')?.textContent) >= 2, null, {
        timeout: AGENTS_WAIT_MS,
      });
      await admin.waitForFunction(() => Number(document.querySelector('[data-testid="kpi-trends"]')?.textContent) >= 1, null, {
        timeout: AGENTS_WAIT_MS,
      });
      await admin
        .getByTestId("activity-stream")
        .getByText(/^Trend discovered: Dark pages/)
        .waitFor();
      await admin
        .getByTestId("activity-stream")
        .getByText(/^Generated .*\.tsx$/)
        .first()
        .waitFor();
      await admin
        .getByTestId("agent-design-ninja")
        .getByTestId("agent-status")
        .filter({ hasText: /Active|Idle/ })
        .waitFor();

      // Someone else's dashboard follows along too: trends are shared aggregates, while components
      // built from the admin's captures are the admin's own.
      await user.waitForFunction(() => Number(document.querySelector('[data-testid="kpi-trends"]')?.textContent) >= 1, null, {
        timeout: AGENTS_WAIT_MS,
      });
      expect(await user.getByTestId("kpi-components").textContent()).toBe("0");
      expect(await user.getByTestId("system-badge").textContent()).toBe("Active");
    },
    3 * AGENTS_WAIT_MS + stepsTimeout(12),
  );

  test(
    "the agents' pages show their real output",
    async () => {
      await admin.goto(`${server.url}/trends`);
      const dark = admin.getByTestId("trend-card").filter({ hasText: "Dark pages" });
      await dark.waitFor();
      await dark.getByText("7 of 8 sites (88%)").waitFor();
      await dark.getByText("site0.example").waitFor(); // the admin sees the evidence

      await user.goto(`${server.url}/trends`);
      const theirs = user.getByTestId("trend-card").filter({ hasText: "Dark pages" });
      await theirs.waitFor();
      await theirs.getByText(/other users' sites are counted, never named/).waitFor();
      expect(await theirs.getByText("site0.example").count()).toBe(0);

      await admin.goto(`${server.url}/generate`);
      await admin.getByTestId("component-viewer").waitFor();
      const frame = admin.frameLocator("iframe.ag-preview");
      await frame.locator("button").first().waitFor();
      await admin.getByRole("tab", { name: "Source" }).click();
      await admin.getByText("export default", { exact: false }).waitFor();

      await admin.goto(`${server.url}/tests`);
      await admin.getByTestId("experiment-card").first().waitFor({ timeout: AGENTS_WAIT_MS });

      await admin.goto(`${server.url}/activity?type=trend`);
      await admin
        .getByTestId("activity-table")
        .getByText(/^Trend discovered:/)
        .first()
        .waitFor();
      expect(
        await admin
          .getByTestId("activity-table")
          .getByText(/^Generated /)
          .count(),
      ).toBe(0);
    },
    AGENTS_WAIT_MS + stepsTimeout(20),
  );

  test(
    "Stop: Offline at once, and the agents stop working",
    async () => {
      await gotoHydrated(admin, `${server.url}/dashboard`);
      await admin.getByTestId("system-badge").filter({ hasText: "Active" }).waitFor();
      await admin.getByRole("button", { name: "Stop System" }).click();
      await sawToast(admin, "System Stopped", "System deactivated");
      expect(await admin.getByTestId("system-badge").textContent()).toBe("Offline");
      await admin.getByTestId("agents-header-badge").filter({ hasText: "System Offline" }).waitFor();
      const before = await num(admin, "kpi-components");
      await admin.waitForTimeout(7000); // longer than DesignNinja's 5 s cadence
      await admin.reload();
      await admin.getByRole("heading", { name: "Mission Control" }).waitFor();
      expect(await num(admin, "kpi-components")).toBe(before);
      for (const id of ["trend-hunter", "design-ninja", "test-commander", "insight-oracle"])
        expect(await admin.getByTestId(`agent-${id}`).getByTestId("agent-status").textContent()).toBe("Stopped");
    },
    7000 + stepsTimeout(12),
  );
});
