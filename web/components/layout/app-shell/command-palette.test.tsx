import "#tests/support/dom";
import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { afterAll, afterEach, describe, expect, mock, test } from "bun:test";
// tests/support/dom.ts registers happy-dom once per process and hands it back after the first file
// that imported it, so in a multi-file run this file brings its own DOM and cleanup.
if (!GlobalRegistrator.isRegistered) {
  GlobalRegistrator.register({ url: "http://localhost:3000/" });
  afterAll(() => GlobalRegistrator.unregister());
}
import type { RecentPage } from "./commands";
// Loaded after happy-dom registers: Bun evaluates CommonJS dependencies (react-dom, testing-library)
// before ESM bodies, and they decide at load time whether there is a DOM.
const { act, cleanup, fireEvent, render, within } = await import("@testing-library/react");
const { useState } = await import("react");
const { CommandPalette } = await import("./command-palette");
afterEach(cleanup);
// Not testing-library's `screen`: it keeps the document.body of whichever DOM existed when it loaded.
const screen = () => within(document.body);

function Harness({ onNavigate, recent = null }: { onNavigate: (path: string) => void; recent?: RecentPage | null }) {
  const [open, setOpen] = useState(false);
  return <CommandPalette open={open} onOpenChange={setOpen} onNavigate={onNavigate} recent={recent} />;
}

const setup = (recent: RecentPage | null = null) => {
  const onNavigate = mock((_path: string) => {});
  render(<Harness onNavigate={onNavigate} recent={recent} />);
  return { onNavigate };
};

const press = (key: string, init: KeyboardEventInit = {}) => act(() => void fireEvent.keyDown(window, { key, ...init }));
const input = () => screen().getByRole("combobox", { name: "Search commands" }) as HTMLInputElement;
const type = (value: string) => act(() => void fireEvent.change(input(), { target: { value } }));
const optionLabels = () =>
  screen()
    .queryAllByRole("option")
    .map((o) => o.querySelector(".rt-Text")?.textContent);
const activeOption = () => {
  const id = input().getAttribute("aria-activedescendant");
  return id ? document.getElementById(id) : null;
};

describe("command palette", () => {
  test("Ctrl+K opens it", () => {
    setup();
    expect(screen().queryByRole("dialog")).toBeNull();
    press("k", { ctrlKey: true });
    expect(screen().getByRole("dialog")).toBeTruthy();
    expect(input()).toBeTruthy();
  });

  test("Cmd+K (Meta) opens it, also with caps lock", () => {
    setup();
    press("K", { metaKey: true });
    expect(screen().getByRole("dialog")).toBeTruthy();
  });

  test("plain K and Ctrl+Shift+K do not open it", () => {
    setup();
    press("k");
    press("K", { ctrlKey: true, shiftKey: true });
    expect(screen().queryByRole("dialog")).toBeNull();
  });

  test("Escape closes it", () => {
    setup();
    press("k", { ctrlKey: true });
    act(() => void fireEvent.keyDown(input(), { key: "Escape" }));
    expect(screen().queryByRole("dialog")).toBeNull();
  });

  test("Escape takes it out of the DOM at once, even where the theme animates a dialog's exit", () => {
    // Radix Themes' rule for a closing dialog (styles.css): Radix then keeps the dialog mounted
    // until the animation reports its end, which on a busy machine took most of a second.
    const style = document.createElement("style");
    // (longhands: happy-dom does not expand the `animation` shorthand).
    style.textContent = [
      ".rt-BaseDialogContent[data-state='open'] { animation-name: rt-dialog-content-show; animation-duration: 200ms; }",
      ".rt-BaseDialogContent[data-state='closed'] { animation-name: rt-dialog-content-hide; animation-duration: 100ms; }",
      ".rt-BaseDialogOverlay[data-state='closed'] { animation-name: rt-dialog-overlay-no-op; animation-duration: 160ms; }",
    ].join("\n");
    document.head.appendChild(style);
    // A browser's computed style is live, happy-dom's a snapshot: Radix reads it once on mount and
    // again when the dialog closes, so each read here asks again.
    const snapshot = window.getComputedStyle;
    window.getComputedStyle = ((el: Element) =>
      new Proxy({}, { get: (_, key) => Reflect.get(snapshot.call(window, el), key) })) as typeof window.getComputedStyle;
    try {
      setup();
      press("k", { ctrlKey: true });
      expect(screen().getByRole("dialog")).toBeTruthy();
      act(() => void fireEvent.keyDown(input(), { key: "Escape" }));
      // Booleans, not elements: a failure here would print the whole dialog.
      expect(screen().queryByRole("dialog") === null).toBe(true);
      expect(document.querySelector(".rt-BaseDialogOverlay") === null).toBe(true);
    } finally {
      window.getComputedStyle = snapshot;
      style.remove();
    }
  });

  test("lists navigation and action commands with listbox semantics", () => {
    setup();
    press("k", { ctrlKey: true });
    expect(optionLabels()).toEqual([
      "Dashboard",
      "Compare Websites",
      "Trends",
      "Analytics",
      "Activity",
      "A/B Tests",
      "Generated Components",
      "New Comparison",
      "Settings",
    ]);
    expect(input().getAttribute("aria-controls")).toBe(screen().getByRole("listbox").id);
    expect(screen().getByRole("group", { name: "Navigation" })).toBeTruthy();
    expect(screen().getByRole("group", { name: "Actions" })).toBeTruthy();
  });

  test("filters by label", () => {
    setup();
    press("k", { ctrlKey: true });
    type("trends");
    expect(optionLabels()).toEqual(["Trends"]);
  });

  test("filters by description", () => {
    setup();
    press("k", { ctrlKey: true });
    type("side by side");
    expect(optionLabels()).toEqual(["Compare Websites"]);
  });

  test("filters by category", () => {
    setup();
    press("k", { ctrlKey: true });
    type("ACTIONS");
    expect(optionLabels()).toEqual(["New Comparison", "Settings"]);
  });

  test("arrow keys move the selection, wrapping, and Enter runs it", () => {
    const { onNavigate } = setup();
    press("k", { ctrlKey: true });
    expect(activeOption()?.textContent).toContain("Dashboard");
    expect(activeOption()?.getAttribute("aria-selected")).toBe("true");
    act(() => void fireEvent.keyDown(input(), { key: "ArrowDown" }));
    expect(activeOption()?.textContent).toContain("Compare Websites");
    act(() => void fireEvent.keyDown(input(), { key: "ArrowUp" }));
    act(() => void fireEvent.keyDown(input(), { key: "ArrowUp" }));
    expect(activeOption()?.textContent).toContain("Settings");
    act(() => void fireEvent.keyDown(input(), { key: "Enter" }));
    expect(onNavigate).toHaveBeenCalledTimes(1);
    expect(onNavigate).toHaveBeenCalledWith("/settings");
    expect(screen().queryByRole("dialog")).toBeNull();
  });

  test("Enter on a filtered list runs the first match", () => {
    const { onNavigate } = setup();
    press("k", { ctrlKey: true });
    type("new comp");
    act(() => void fireEvent.keyDown(input(), { key: "Enter" }));
    expect(onNavigate).toHaveBeenCalledWith("/comparison");
  });

  test("clicking a command runs it", () => {
    const { onNavigate } = setup();
    press("k", { ctrlKey: true });
    act(() => void fireEvent.click(screen().getByRole("option", { name: /Activity/ })));
    expect(onNavigate).toHaveBeenCalledWith("/activity");
  });

  test("with an empty query the Recent page comes first; typing hides it", () => {
    const { onNavigate } = setup({ path: "/comparison/c1/view", title: "Homepage shootout" });
    press("k", { ctrlKey: true });
    expect(screen().getByRole("group", { name: "Recent" })).toBeTruthy();
    expect(optionLabels()[0]).toBe("Homepage shootout");
    expect(activeOption()?.textContent).toContain("/comparison/c1/view");
    type("dash");
    expect(screen().queryByRole("group", { name: "Recent" })).toBeNull();
    type("");
    act(() => void fireEvent.keyDown(input(), { key: "Enter" }));
    expect(onNavigate).toHaveBeenCalledWith("/comparison/c1/view");
  });

  test("no Recent group when nothing was visited before", () => {
    setup(null);
    press("k", { ctrlKey: true });
    expect(screen().queryByRole("group", { name: "Recent" })).toBeNull();
  });

  test("shows the exact empty message", () => {
    const { onNavigate } = setup();
    press("k", { ctrlKey: true });
    type("zzz");
    expect(screen().queryAllByRole("option")).toHaveLength(0);
    expect(screen().getByText('No commands found for "zzz"')).toBeTruthy();
    expect(input().hasAttribute("aria-activedescendant")).toBe(false);
    act(() => void fireEvent.keyDown(input(), { key: "Enter" }));
    expect(onNavigate).not.toHaveBeenCalled();
  });

  test("reopening starts from an empty query", () => {
    setup();
    press("k", { ctrlKey: true });
    type("zzz");
    act(() => void fireEvent.keyDown(input(), { key: "Escape" }));
    press("k", { ctrlKey: true });
    expect(input().value).toBe("");
    expect(screen().queryAllByRole("option").length).toBe(9);
  });
});
