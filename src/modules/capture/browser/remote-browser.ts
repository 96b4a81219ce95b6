// Connecting a capture worker to a remote browser: a Playwright browser server (`playwright
// run-server`, `chromium.launchServer`, or a browserless-compatible service) named in
// BROWSER_WS_ENDPOINTS. Runs in the worker thread; the pool's side is remote-endpoints.ts.
import { chromium, type Browser } from "playwright-core";
import { endpointLabel } from "./remote-endpoints";

/** Longer than a browser launch on a busy host: run-server starts one per connection. */
const CONNECT_TIMEOUT_MS = 30_000;

/**
 * Why a connection failed, short (the log line and the health answer name the endpoint beside it):
 * the socket error's code when there is one (as a probe reports it), else the first line of the
 * message, which never quotes the endpoint itself: its path or query may be what grants access to
 * the browser (launchServer's wsPath, a browserless token).
 */
export function connectFailure(err: unknown, endpoint: string): string {
  const label = endpointLabel(endpoint);
  const first = (err instanceof Error ? err.message : String(err)).split("\n")[0]!;
  const code = /\b(E[A-Z]{4,})\b/.exec(first)?.[1];
  if (code) return code;
  return first
    .replace(/^(?:[\w.]+: )+/, "")
    .split(endpoint)
    .join(label)
    .replace(/wss?:\/\/\S+/g, label);
}

/** A round trip to the browser itself, not only to its server. */
async function browserAnswers(browser: Browser): Promise<void> {
  const session = await browser.newBrowserCDPSession();
  try {
    await session.send("Browser.getVersion");
  } finally {
    await session.detach().catch(() => {});
  }
}

export async function connectRemoteBrowser(endpoint: string): Promise<Browser> {
  let browser: Browser | null = null;
  try {
    browser = await chromium.connect(endpoint, { timeout: CONNECT_TIMEOUT_MS });
    // A server whose browser just died still accepts connections for a moment (it stops listening
    // a few hundred ms later) and hands out the dead browser: such a connection is a failure too.
    await Promise.race([
      browserAnswers(browser),
      Bun.sleep(CONNECT_TIMEOUT_MS).then(() => Promise.reject(new Error("the browser does not answer"))),
    ]);
    return browser;
  } catch (err) {
    await browser?.close().catch(() => {});
    throw new Error(connectFailure(err, endpoint));
  }
}
