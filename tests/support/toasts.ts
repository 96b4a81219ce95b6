import type { BrowserContext, Page } from "playwright-core";

/** What the page keeps on `window` (the functions below run in the page, so they share only types). */
type ToastRecord = { __diToasts?: { title: string; description: string }[] };

/**
 * The app shows one toast at a time and a new one replaces the old (spec §9). A toast a test waits
 * for can be replaced before Playwright's next poll (its polls are up to 500 ms apart): on the
 * admin console an "Alert Threshold Crossed" toast arrives when the busy test machine crosses a
 * threshold. So every toast a page renders is written down as it appears, and tests wait on
 * that record, not on the toast still being on screen.
 */
export async function recordToasts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const record: NonNullable<ToastRecord["__diToasts"]> = [];
    (window as unknown as ToastRecord).__diToasts = record;
    const seen = new WeakSet<Element>();
    new MutationObserver(() => {
      // Each toast is a new element (it is keyed by id), filled in the same render.
      for (const el of document.querySelectorAll('[data-testid="toast"]')) {
        if (seen.has(el)) continue;
        seen.add(el);
        const text = (cls: string) => el.querySelector(`.${cls}`)?.textContent ?? "";
        record.push({ title: text("di-toast-title"), description: text("di-toast-description") });
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/**
 * Waits until the page has shown a toast titled `title` (and, if given, with exactly
 * `description`), then takes it off the record, so the next wait for the same title needs a new
 * toast. A timeout names the toasts the page did show.
 * Calm contexts from launchBrowser record toasts from their first page on.
 */
export async function sawToast(page: Page, title: string, description?: string): Promise<void> {
  try {
    await page.waitForFunction(
      ([t, d]) => {
        const list = (window as unknown as ToastRecord).__diToasts ?? [];
        const i = list.findIndex((x) => x.title === t && (d === null || x.description === d));
        if (i < 0) return false;
        list.splice(i, 1);
        return true;
      },
      [title, description ?? null] as const,
    ); // the context's step timeout (launchBrowser)
  } catch (err) {
    const shown = await page.evaluate(() => (window as unknown as ToastRecord).__diToasts ?? null).catch(() => null);
    const want = description === undefined ? `"${title}"` : `"${title}" / "${description}"`;
    throw new Error(`no toast ${want} appeared; toasts not yet waited for on this page: ${JSON.stringify(shown)}`, { cause: err });
  }
}

/** Clears the page's record, after a test that raised toasts it had no need to wait for. */
export async function forgetToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as ToastRecord).__diToasts?.splice(0);
  });
}
