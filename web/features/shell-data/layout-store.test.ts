import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { useMemoryStorage } from "#tests/support/memory-storage";
import { NARROW_QUERY, SHELL_LAYOUT_KEY, restoreShellLayout, useShellLayout } from "./layout-store";

useMemoryStorage("localStorage");

beforeEach(() => {
  useShellLayout.setState({ sidebarCollapsed: false, railOpen: true });
  localStorage.clear(); // after: setState itself writes to storage
});

describe("shell layout store", () => {
  test("starts expanded with the rail open and does not read storage until asked", async () => {
    localStorage.setItem(SHELL_LAYOUT_KEY, JSON.stringify({ state: { sidebarCollapsed: true, railOpen: false }, version: 0 }));
    expect(useShellLayout.getState()).toMatchObject({ sidebarCollapsed: false, railOpen: true });
    await useShellLayout.persist.rehydrate();
    expect(useShellLayout.getState()).toMatchObject({ sidebarCollapsed: true, railOpen: false });
  });

  test("toggles persist to localStorage", () => {
    useShellLayout.getState().toggleSidebar();
    useShellLayout.getState().toggleRail();
    const saved = JSON.parse(localStorage.getItem(SHELL_LAYOUT_KEY) ?? "{}");
    expect(saved.state).toEqual({ sidebarCollapsed: true, railOpen: false });
  });

  test("non-boolean stored values fall back to defaults", async () => {
    localStorage.setItem(SHELL_LAYOUT_KEY, JSON.stringify({ state: { sidebarCollapsed: "yes", railOpen: null }, version: 0 }));
    await useShellLayout.persist.rehydrate();
    expect(useShellLayout.getState()).toMatchObject({ sidebarCollapsed: false, railOpen: true });
  });

  describe("first visit", () => {
    const realMatchMedia = globalThis.matchMedia;
    const screenIs = (narrow: boolean) =>
      (globalThis.matchMedia = ((q: string) => ({ matches: q === NARROW_QUERY && narrow })) as unknown as typeof matchMedia);
    afterAll(() => {
      globalThis.matchMedia = realMatchMedia;
    });

    test("a narrow screen with nothing saved starts with the rail closed", async () => {
      screenIs(true);
      await restoreShellLayout();
      expect(useShellLayout.getState().railOpen).toBe(false);
    });

    test("a wide screen keeps the rail open", async () => {
      screenIs(false);
      await restoreShellLayout();
      expect(useShellLayout.getState().railOpen).toBe(true);
    });

    test("a saved choice wins on a narrow screen", async () => {
      screenIs(true);
      localStorage.setItem(SHELL_LAYOUT_KEY, JSON.stringify({ state: { sidebarCollapsed: false, railOpen: true }, version: 0 }));
      await restoreShellLayout();
      expect(useShellLayout.getState().railOpen).toBe(true);
    });
  });
});
