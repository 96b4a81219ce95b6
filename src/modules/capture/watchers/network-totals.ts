// Counts every request and byte the page pulls, across origins, over the DevTools protocol:
// resource timing can't see cross-origin sizes. When the protocol is unavailable the capture asks
// the page's own resource timing instead (available() says which).

import type { BrowserContext, CDPSession, Page } from "playwright-core";
import type { ResourceTotals } from "../page/types";

export interface NetworkTotals {
  /** Whether the DevTools session opened; when not, the totals stay at zero. */
  available(): boolean;
  totals: { requests: number; bytes: number; largest: ResourceTotals["largestResource"] };
  detach(): Promise<void> | undefined;
}

export async function trackNetwork(context: BrowserContext, page: Page): Promise<NetworkTotals> {
  const totals = { requests: 0, bytes: 0, largest: null as ResourceTotals["largestResource"] };
  const info = new Map<string, { url: string; type: string }>();
  let session: CDPSession | null = null;
  try {
    session = await context.newCDPSession(page);
    session.on("Network.requestWillBeSent", (e) => {
      if (!/^https?:/.test(e.request.url)) return;
      totals.requests++;
      info.set(e.requestId, { url: e.request.url, type: (e.type ?? "other").toLowerCase() });
    });
    session.on("Network.loadingFinished", (e) => {
      const bytes = Math.max(0, Math.round(e.encodedDataLength));
      totals.bytes += bytes;
      const meta = info.get(e.requestId);
      if (meta && (!totals.largest || bytes > totals.largest.bytes)) totals.largest = { url: meta.url, bytes, type: meta.type };
    });
    await session.send("Network.enable");
  } catch {
    session = null;
  }
  return {
    available: () => session !== null,
    totals,
    detach: () => session?.detach().catch(() => {}),
  };
}
