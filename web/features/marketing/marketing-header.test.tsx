import "#tests/support/dom";
import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { afterAll, afterEach, describe, expect, mock, test } from "bun:test";
import type { ReactNode } from "react";
// tests/support/dom registers happy-dom once per process and drops it after the first test file
// that imported it; in a multi-file run this file can start without a DOM, so it brings its own.
if (!GlobalRegistrator.isRegistered) {
  GlobalRegistrator.register({ url: "http://localhost:3000/" });
  afterEach(async () => (await import("@testing-library/react")).cleanup());
  afterAll(() => GlobalRegistrator.unregister());
}
// After happy-dom: Bun loads CommonJS react-dom before ESM bodies run.
const { fireEvent, render, within } = await import("@testing-library/react");
const { Theme } = await import("@radix-ui/themes");
const { MemoryRouter } = await import("react-router");
const { MarketingHeader } = await import("./components/marketing-header");
const { AppHeader } = await import("./components/app-header");
const { SitePathContext } = await import("./components/site-link");

const $ = () => within(document.body);
const banner = () => within($().getByRole("banner"));

function renderHeader(ui: ReactNode) {
  render(
    <Theme>
      {/* The marketing header takes the current path from SitePathContext; the app header from the router. */}
      <SitePathContext value="/features">
        <MemoryRouter initialEntries={["/features"]}>{ui}</MemoryRouter>
      </SitePathContext>
    </Theme>,
  );
}

describe("marketing header", () => {
  test("visitors get Sign In and the beta button, but no Compare Websites", () => {
    renderHeader(<MarketingHeader user={null} onLogout={() => {}} betaCta={<button type="button">Crash the Beta</button>} />);
    expect(banner().getByRole("link", { name: "Sign In" }).getAttribute("href")).toBe("/login");
    expect(banner().getByRole("button", { name: "Crash the Beta" })).toBeTruthy();
    expect(banner().queryByRole("link", { name: "Compare Websites" })).toBeNull();
    expect(banner().queryByRole("button", { name: "Escape" })).toBeNull();
    expect(banner().getByRole("link", { name: "Features" }).getAttribute("aria-current")).toBe("page");
  });

  test("signed-in users get Dashboard, Compare Websites, their username and Escape", () => {
    const onLogout = mock(() => {});
    renderHeader(
      <MarketingHeader
        user={{ email: "ada@example.com", username: "ada" }}
        onLogout={onLogout}
        betaCta={<button type="button">Crash the Beta</button>}
      />,
    );
    expect(banner().getByRole("link", { name: "Dashboard" }).getAttribute("href")).toBe("/dashboard");
    expect(banner().getByRole("link", { name: "Compare Websites" }).getAttribute("href")).toBe("/comparison");
    expect(banner().getByText("ada")).toBeTruthy();
    expect(banner().queryByRole("button", { name: "Crash the Beta" })).toBeNull();
    fireEvent.click(banner().getByRole("button", { name: "Escape" }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  test("without a username the e-mail is shown", () => {
    renderHeader(<MarketingHeader user={{ email: "ada@example.com", username: null }} onLogout={() => {}} betaCta={null} />);
    expect(banner().getByText("ada@example.com")).toBeTruthy();
  });
});

describe("app header", () => {
  test("shows app navigation, the system badge, settings and logout", () => {
    const onLogout = mock(() => {});
    renderHeader(<AppHeader systemActive onLogout={onLogout} />);
    expect(banner().getByRole("link", { name: "Dashboard" })).toBeTruthy();
    expect(banner().getByRole("link", { name: "Compare Websites" })).toBeTruthy();
    expect(banner().getByRole("status").textContent).toBe("System Active");
    expect(banner().getByRole("link", { name: "Settings" }).getAttribute("href")).toBe("/settings");
    fireEvent.click(banner().getByRole("button", { name: "Log out" }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  test("says so when the system is offline", () => {
    renderHeader(<AppHeader systemActive={false} onLogout={() => {}} />);
    expect(banner().getByRole("status").textContent).toBe("System Offline");
  });
});
