import "#tests/support/dom";
import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { afterAll, afterEach, describe, expect, test } from "bun:test";
// See auth-forms.test.tsx: a multi-file run can start this file without a DOM.
if (!GlobalRegistrator.isRegistered) {
  GlobalRegistrator.register({ url: "http://localhost:3000/" });
  afterEach(async () => (await import("@testing-library/react")).cleanup());
  afterAll(() => GlobalRegistrator.unregister());
}
const { act, render, within } = await import("@testing-library/react");
const { Theme } = await import("@radix-ui/themes");
const { RouterProvider, createMemoryRouter } = await import("react-router");
const { RootDataContext } = await import("./use-session");
const { LoginForm, SSO_START } = await import("./components/login-form");
const { SSO_ERRORS } = await import("./sso-errors");

async function renderLogin(sso: { name: string } | null, search = "") {
  const router = createMemoryRouter([{ path: "/login", element: <LoginForm /> }], { initialEntries: [`/login${search}`] });
  await act(async () => {
    render(
      <Theme>
        <RootDataContext value={{ user: null, maintenance: false, sso }}>
          <RouterProvider router={router} />
        </RootDataContext>
      </Theme>,
    );
  });
  return within(document.body);
}

describe("the login page's single sign-on", () => {
  test("off: no SSO button, the password form as before", async () => {
    const $ = await renderLogin(null);
    expect($.queryByRole("link", { name: /Continue with/ })).toBeNull();
    expect($.getByRole("button", { name: "Sign In" })).toBeTruthy();
    expect($.queryByRole("alert")).toBeNull();
  });

  test("on: a 'Continue with <OIDC_NAME>' link that starts the flow, beside the password form", async () => {
    const $ = await renderLogin({ name: "Acme Okta" });
    const link = $.getByRole("link", { name: "Continue with Acme Okta" });
    expect(link.getAttribute("href")).toBe(SSO_START);
    expect($.getByRole("button", { name: "Sign In" })).toBeTruthy();
  });

  test("?error=<code> shows what went wrong", async () => {
    const $ = await renderLogin({ name: "Single sign-on" }, "?error=domain");
    expect($.getByRole("alert").textContent).toBe(SSO_ERRORS.domain);
  });

  test("an unknown code still says SSO failed, without echoing the code", async () => {
    const $ = await renderLogin(null, "?error=%3Cscript%3E");
    expect($.getByRole("alert").textContent).toBe("Single sign-on failed. Start again.");
  });
});
