// Accessibility checks run inside a real page: axe-core for WCAG violations, and a Tab walk that
// proves every visible control can be reached from the keyboard.
import type { Page } from "playwright-core";
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

/** axe-core's serious and critical violations on the page once it settled. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await settle(page);
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    type AxeResult = {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
    };
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<AxeResult> } }).axe;
    const { violations } = await axe.run(document, { resultTypes: ["violations"] });
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
  // Tab in batches (one round trip per batch), stopping once everything was reached.
  let reached: string[] = [];
  for (let pressed = 0; pressed < controls.length * 2 + 10 && reached.length < controls.length; pressed += 10) {
    for (let i = 0; i < 10; i++) await page.keyboard.press("Tab");
    reached = await seen();
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
