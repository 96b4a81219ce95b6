// The browser context every load of a capture runs in: the page's own load and the light timing
// loads alike. Same viewport, same user agent, same page script, and the same egress rules.
import type { Browser, BrowserContext, BrowserContextOptions } from "playwright-core";
import type { EgressProxy } from "./egress-proxy";
import { VIEWPORTS, type ColorScheme, type Viewport } from "../model";
import { installPageScript } from "../page-script/page-script";
import { SSRF_MESSAGES, type HostVerdict } from "./ssrf";

export type HostGuard = (host: string) => Promise<HostVerdict>;

export interface Egress {
  /**
   * Enforces the SSRF rule on every hop; null when private targets are allowed and the browser is
   * this machine's (a remote browser always goes through it: capture-egress.ts).
   */
  proxy: EgressProxy | null;
  guard: HostGuard | null;
  /** Hosts refused so far, for the error a blocked navigation reports. */
  blocked: EgressProxy["blocked"];
}

function userAgent(browser: Browser, mobile: boolean): string {
  const major = browser.version().split(".")[0] ?? "130";
  // The headless default announces "HeadlessChrome", which many sites answer with a block page.
  return mobile
    ? `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`
    : `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

/** The page as a capture sees it: viewport, scale, device mode and user agent. Anything that opens a page to match a capture uses these. */
export function captureContextOptions(browser: Browser, viewportName: Viewport): BrowserContextOptions {
  const viewport = VIEWPORTS[viewportName];
  return {
    viewport: { width: viewport.width, height: viewport.height },
    screen: { width: viewport.width, height: viewport.height },
    deviceScaleFactor: 1,
    isMobile: viewport.mobile,
    hasTouch: viewport.mobile,
    userAgent: userAgent(browser, viewport.mobile),
    serviceWorkers: "block",
    acceptDownloads: false,
    locale: "en-US",
  };
}

export async function openCaptureContext(
  browser: Browser,
  viewportName: Viewport,
  { proxy, guard, blocked }: Egress,
  colorScheme?: ColorScheme,
): Promise<BrowserContext> {
  const ctx = await browser.newContext({
    ...captureContextOptions(browser, viewportName),
    // prefers-color-scheme; Playwright's default is light.
    ...(colorScheme ? { colorScheme } : {}),
    ...(proxy ? { proxy: { server: proxy.server, ...proxy.credentials } } : {}),
  });
  await installPageScript(ctx);
  if (guard) {
    // Early, readable refusals; the proxy is what actually enforces the rule on every hop.
    await ctx.route("**/*", async (route) => {
      const url = URL.parse(route.request().url());
      const local = url?.protocol === "data:" || url?.protocol === "blob:"; // never leave the browser
      const verdict: HostVerdict = local
        ? { ok: true, addresses: [] }
        : url && (url.protocol === "http:" || url.protocol === "https:")
          ? await guard(url.hostname)
          : { ok: false, reason: SSRF_MESSAGES.scheme };
      if (!verdict.ok) blocked.push({ host: url?.hostname ?? "", reason: verdict.reason });
      // The context may close (deadline, crash) while we decide; that request is moot then.
      await (verdict.ok ? route.continue() : route.abort("blockedbyclient")).catch(() => {});
    });
    await ctx.routeWebSocket(
      () => true,
      async (ws) => {
        const host = URL.parse(ws.url())?.hostname;
        const verdict: HostVerdict = host ? await guard(host) : { ok: false, reason: SSRF_MESSAGES.invalid };
        if (verdict.ok) ws.connectToServer();
        else await ws.close({ code: 1008, reason: "blocked" });
      },
    );
  }
  return ctx;
}
