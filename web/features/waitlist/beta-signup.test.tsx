import "#tests/support/dom";
import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { afterAll, afterEach, beforeEach, describe, expect, mock, test } from "bun:test";
import type { ReactNode } from "react";
// tests/support/dom registers happy-dom once per process and drops it after the first test file
// that imported it; in a multi-file run this file can start without a DOM, so it brings its own.
if (!GlobalRegistrator.isRegistered) {
  GlobalRegistrator.register({ url: "http://localhost:3000/" });
  afterEach(async () => (await import("@testing-library/react")).cleanup());
  afterAll(() => GlobalRegistrator.unregister());
}
// Loaded only now, after happy-dom is registered: Bun evaluates CommonJS dependencies such as
// react-dom before ESM module bodies, and react-dom decides once, at load, whether it has a DOM.
const { useLayoutEffect } = await import("react");
// Radix picks useLayoutEffect or a no-op once, when first loaded; a server-render test earlier in
// the same run may have loaded it without a DOM, and dialogs would then never mount their portal.
mock.module("@radix-ui/react-use-layout-effect", () => ({ useLayoutEffect }));
const { act, fireEvent, render, within } = await import("@testing-library/react");
const { Button, Theme } = await import("@radix-ui/themes");
const { Toaster, useToasts } = await import("#web/components/ui/toast");
const { BetaSignupDialog } = await import("./components/beta-signup-dialog");
const { BetaSignupForm } = await import("./components/beta-signup-form");

type Call = { url: string; init: RequestInit };
let calls: Call[];
const realFetch = globalThis.fetch;
// Queries over the whole body, where dialogs and toasts portal to.
const $ = () => within(document.body);
const tick = () => new Promise((r) => setTimeout(r, 0));

/**
 * Fires an event and lets the async work it starts (mocked fetch, toast, dialog close) finish
 * inside act. In a multi-file run React's scheduler can belong to an earlier, closed happy-dom
 * window, so updates made outside act would never be applied.
 */
async function settle(fire: () => void = () => {}) {
  await act(async () => {
    fire();
    for (let i = 0; i < 10; i++) await tick();
  });
}

/** Replaces fetch; each call waits for `gate` (if given) and then answers with `answer()`. */
function mockFetch(answer: () => Response, gate?: Promise<void>) {
  calls = [];
  globalThis.fetch = mock(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    if (gate) await gate;
    return answer();
  }) as unknown as typeof fetch;
}
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const sent = (i = 0) => JSON.parse(String(calls[i]!.init.body)) as { email: string; source: string };
const type = (value: string) => fireEvent.change($().getByLabelText("Email address"), { target: { value } });
const press = (name: string) => settle(() => fireEvent.click($().getByRole("button", { name })));

function renderUi(ui: ReactNode) {
  return render(
    <Theme>
      {ui}
      <Toaster />
    </Theme>,
  );
}

beforeEach(() => {
  useToasts.getState().dismiss();
  mockFetch(() => json(201, { ok: true, message: "You're on the beta waitlist." }));
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

describe("landing beta signup form", () => {
  test("posts the trimmed e-mail with its source, clears the field and welcomes the visitor", async () => {
    renderUi(<BetaSignupForm source="homepage" submitLabel="Crash the Beta" />);
    type("  ada@example.com  ");
    await press("Crash the Beta");

    expect($().getByText("Welcome to the Beta!")).toBeTruthy();
    expect($().getByText("You've been added to our exclusive beta waitlist. We'll notify you when access is available!")).toBeTruthy();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("/api/beta-signups");
    expect(calls[0]!.init.method).toBe("POST");
    expect(sent()).toEqual({ email: "ada@example.com", source: "homepage" });
    expect(($().getByLabelText("Email address") as HTMLInputElement).value).toBe("");
  });

  test("an e-mail that is empty after trimming sends nothing", async () => {
    const { container } = renderUi(<BetaSignupForm source="cta" submitLabel="Get Early Access" />);
    type("   ");
    // Submit the form directly: this is the component's own guard, not the browser's `required`.
    await settle(() => fireEvent.submit(container.querySelector("form")!));
    expect(calls).toHaveLength(0);
    expect(useToasts.getState().current).toBeNull();
  });

  test("shows 'Infiltrating...' and blocks resubmission while the request is pending", async () => {
    let release!: () => void;
    mockFetch(() => json(201, { ok: true, message: "ok" }), new Promise<void>((r) => (release = r)));
    renderUi(<BetaSignupForm source="cta" submitLabel="Get Early Access" />);
    type("grace@example.com");
    await press("Get Early Access");

    const pending = $().getByRole("button", { name: "Infiltrating..." }) as HTMLButtonElement;
    expect(pending.disabled).toBe(true);
    await settle(() => fireEvent.submit(pending.closest("form")!));
    expect(calls).toHaveLength(1);

    await settle(release);
    expect($().getByRole("button", { name: "Get Early Access" })).toBeTruthy();
    expect(sent().source).toBe("cta");
  });

  test("a failure shows the server's message and keeps the typed e-mail", async () => {
    mockFetch(() => json(429, { error: "Too many signups. Try again in a minute." }));
    renderUi(<BetaSignupForm source="homepage" submitLabel="Crash the Beta" />);
    type("ada@example.com");
    await press("Crash the Beta");

    expect($().getByText("Signup Failed")).toBeTruthy();
    expect($().getByText("Too many signups. Try again in a minute.")).toBeTruthy();
    expect(useToasts.getState().current?.variant).toBe("destructive");
    expect(($().getByLabelText("Email address") as HTMLInputElement).value).toBe("ada@example.com");
  });

  test("a failure without a server message falls back to the generic text", async () => {
    mockFetch(() => new Response("upstream exploded", { status: 502 }));
    renderUi(<BetaSignupForm source="homepage" submitLabel="Crash the Beta" />);
    type("ada@example.com");
    await press("Crash the Beta");
    expect($().getByText("Unable to process signup. Please try again later.")).toBeTruthy();
  });
});

describe("beta signup dialog", () => {
  async function openDialog(source: Parameters<typeof BetaSignupDialog>[0]["source"], label: string) {
    renderUi(<BetaSignupDialog source={source} trigger={<Button>{label}</Button>} />);
    await press(label);
    return await $().findByRole("dialog");
  }

  test("asks for the visitor's e-mail and posts it with the button's source, never a placeholder", async () => {
    await openDialog("header", "Crash the Beta");
    expect(calls).toHaveLength(0);
    type(" linus@example.com ");
    await press("Join Beta - Free");

    expect($().getByText("Welcome to the Beta!")).toBeTruthy();
    expect(sent()).toEqual({ email: "linus@example.com", source: "header" });
    expect($().queryByRole("dialog")).toBeNull();
  });

  test.each(["pricing-professional", "pricing-cta", "features-hero", "features-cta"] as const)(
    "keeps the %s source tag",
    async (source) => {
      await openDialog(source, "Open");
      type("x@example.com");
      await press("Join Beta - Free");
      expect($().getByText("Welcome to the Beta!")).toBeTruthy();
      expect(sent().source).toBe(source);
    },
  );

  test("shows 'Joining...' while pending and stays open with the e-mail after a failure", async () => {
    let release!: () => void;
    mockFetch(() => json(429, { error: "Slow down, speed racer" }), new Promise<void>((r) => (release = r)));
    await openDialog("pricing-cta", "Join the Beta");
    type("ada@example.com");
    await press("Join Beta - Free");
    expect($().getByRole("button", { name: "Joining..." })).toBeTruthy();

    await settle(release);
    expect($().getByText("Slow down, speed racer")).toBeTruthy();
    expect($().getByRole("dialog")).toBeTruthy();
    expect(($().getByLabelText("Email address") as HTMLInputElement).value).toBe("ada@example.com");
  });

  test("an empty e-mail sends nothing", async () => {
    const dialog = await openDialog("features-hero", "Start Free Beta");
    type("  ");
    await settle(() => fireEvent.submit(dialog.querySelector("form")!));
    expect(calls).toHaveLength(0);
    expect($().getByRole("dialog")).toBeTruthy();
  });
});
