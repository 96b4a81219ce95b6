// How the capture puts the page script into a page and calls it. Its early part is installed as an
// init script, so it runs in every document before the page's own scripts (web-vitals then sees
// the whole load); the rest is evaluated into the page when first called, after that load.
// page.evaluate calls its functions through one global.

import type { BrowserContext, Page } from "playwright-core";
import { pageBundles } from "./page-bundle";
import type { PageApi } from "../page/entry";
import { PAGE_GLOBAL } from "../page/global";

export type { DomMeasurement, ResourceTotals, Vitals } from "../page/types";

export async function installPageScript(context: BrowserContext): Promise<void> {
  // Init scripts run in every frame; only the top document is measured, so frames (ads, embeds)
  // don't even parse it.
  await context.addInitScript({ content: `if (window === window.top) {\n${(await pageBundles()).early}\n}` });
}

type Call<K extends keyof PageApi> = { installed: true; value: Awaited<ReturnType<PageApi[K]>> } | { installed: false };

/**
 * Calls one function of the page script in the page's main frame. The first call of a gatherer
 * evaluates the whole script into the page; so does any call in a document the init script did not
 * reach (one a page wrote itself, say).
 */
export async function callPage<K extends keyof PageApi>(
  page: Page,
  name: K,
  arg: Parameters<PageApi[K]>[0],
): Promise<Awaited<ReturnType<PageApi[K]>>> {
  const call = () =>
    page.evaluate(
      async ([global, fn, a]): Promise<Call<K>> => {
        const api = (globalThis as unknown as Record<string, PageApi | undefined>)[global];
        if (typeof api?.[fn] !== "function") return { installed: false };
        return {
          installed: true,
          value: await (api[fn] as (x: unknown) => ReturnType<PageApi[K]> | Promise<Awaited<ReturnType<PageApi[K]>>>)(a),
        };
      },
      [PAGE_GLOBAL, name, arg] as const,
    );
  let result = await call();
  if (!result.installed) {
    await page.evaluate((await pageBundles()).full);
    result = await call();
    if (!result.installed) throw new Error("the page script could not be installed in this page");
  }
  return result.value;
}
