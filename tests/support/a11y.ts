// Accessibility checks run inside a real page: axe-core for WCAG violations, and a Tab walk that
// proves every visible control can be reached from the keyboard.
import type { BrowserContext, Page } from "playwright-core";
import { AXE_PATH } from "./lab";

export interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** Waits for finite CSS animations and transitions (dialogs opening, a theme switch) to end. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => {})),
    ),
  );
}

/**
 * axe-core's serious and critical violations on the page once it settled. axe is injected once per
 * document (or comes from a context's init script, see installAxe). axe 4 gives every result the
 * impact its rule declares, so rules that can only report minor or moderate issues are switched off:
 * their findings were filtered out below anyway, and skipping them makes each run cheaper.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await settle(page);
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    type AxeResult = {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
    };
    const axe = (
      window as unknown as {
        axe: { run(ctx: Document, opts: object): Promise<AxeResult>; _audit?: { rules?: { id: string; impact?: string }[] } };
      }
    ).axe;
    // A rule without a declared impact stays on: its results can be of any impact.
    const rules = Object.fromEntries(
      (axe._audit?.rules ?? []).filter((r) => r.impact === "minor" || r.impact === "moderate").map((r) => [r.id, { enabled: false }]),
    );
    const { violations } = await axe.run(document, { resultTypes: ["violations"], rules });
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({
        id: v.id,
        impact: v.impact ?? "",
        help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(" ")} — ${(n.failureSummary ?? "").split("\n").slice(1).join(" ").trim()}`),
      }));
  });
}

/**
 * Makes axe part of every document the context opens, before the page's own scripts run, so an
 * audit after a navigation does not first send axe's 650 KB over the protocol again.
 */
export async function installAxe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ path: AXE_PATH });
}

export interface Control {
  id: string;
  tag: string;
  role: string | null;
  name: string;
}

/**
 * Tabs through the page from the top and returns the visible controls that never got focus.
 * Composite widgets with roving focus (tabs, radio groups, toolbars) are one Tab stop: reaching any
 * member reaches the group, and arrow keys move inside it.
 */
export async function unreachableByTab(page: Page): Promise<{ controls: number; missed: Control[] }> {
  const controls = await page.evaluate(() => {
    const SEL =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, iframe, [tabindex], [contenteditable=""], [contenteditable="true"]';
    const ROVING = '[role="tablist"], [role="radiogroup"], [role="toolbar"], [role="menubar"], [role="listbox"]';
    const visible = (el: Element) => {
      if (el.getClientRects().length === 0) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
    };
    const out: { id: string; tag: string; role: string | null; name: string }[] = [];
    document.querySelectorAll("[data-kb]").forEach((el) => el.removeAttribute("data-kb"));
    let n = 0;
    for (const el of document.querySelectorAll<HTMLElement>(SEL)) {
      // :disabled also covers controls a disabled <fieldset> switches off.
      if (el.matches(":disabled") || el.closest("[inert], [aria-hidden='true']") || !visible(el)) continue;
      let target: HTMLElement = el;
      if (el.tabIndex < 0) {
        // Programmatic focus targets (<main tabindex=-1>, the toast viewport) are not Tab stops;
        // roving members are reached through their group.
        const group = el.closest<HTMLElement>(ROVING);
        if (!group) continue;
        target = group;
      }
      if (target.hasAttribute("data-kb")) continue;
      target.setAttribute("data-kb", String(n++));
      out.push({
        id: target.getAttribute("data-kb")!,
        tag: target.tagName.toLowerCase(),
        role: target.getAttribute("role"),
        name: (target.getAttribute("aria-label") ?? target.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 60),
      });
    }
    (document.activeElement as HTMLElement | null)?.blur?.();
    const seen = new Set<string>();
    (window as unknown as { __kbSeen: Set<string> }).__kbSeen = seen;
    const record = () => {
      const id = document.activeElement?.closest("[data-kb]")?.getAttribute("data-kb");
      if (id) seen.add(id);
    };
    document.addEventListener("focusin", record);
    // Focus moving into an iframe blurs this window instead of firing focusin here.
    window.addEventListener("blur", record);
    return out;
  });
  const seen = () => page.evaluate(() => [...(window as unknown as { __kbSeen: Set<string> }).__kbSeen]);
  // Real Tab key presses, the key events Playwright's keyboard.press("Tab") sends, but sent as one
  // pipelined batch over the protocol: Chromium handles them one after another, in order, and the
  // batch costs one round trip instead of two per press. The first batch is enough for a page whose
  // Tab order holds nothing but the controls; later ones cover extra stops, up to a bound.
  const cdp = await page.context().newCDPSession(page);
  const KEY = { key: "Tab", code: "Tab", windowsVirtualKeyCode: 9, nativeVirtualKeyCode: 9 };
  const tab = (n: number) =>
    Promise.all(
      Array.from({ length: n }, () => [
        cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...KEY }),
        cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...KEY }),
      ]).flat(),
    );
  const limit = controls.length * 2 + 10;
  let reached: string[] = [];
  try {
    for (let pressed = 0, batch = controls.length + 2; pressed < limit && reached.length < controls.length; pressed += batch, batch = 10) {
      await tab(batch);
      reached = await seen();
    }
  } finally {
    await cdp.detach().catch(() => {});
  }
  return { controls: controls.length, missed: controls.filter((c) => !reached.includes(c.id)) };
}

/** Switches the page to the other theme in place, the way the theme toggle does. */
export async function applyTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.evaluate((t) => {
    const root = document.documentElement;
    root.classList.remove("light", "dark");
    root.classList.add(t);
    root.style.colorScheme = t;
  }, theme);
}
