// Connecting a capture worker to a remote browser: a Playwright browser server (`playwright
// run-server`, `chromium.launchServer`, or a browserless-compatible service) named in
// BROWSER_WS_ENDPOINTS. Runs in the worker thread; the pool's side is remote-endpoints.ts.
import { chromium, type Browser } from "playwright-core";
import { endpointLabel } from "./remote-endpoints";

/** Longer than a browser launch on a busy host: run-server starts one per connection. */
const CONNECT_TIMEOUT_MS = 30_000;

/**
 * Why a connection failed, in one line that never quotes the endpoint itself: its path or query
 * may be what grants access to the browser (launchServer's wsPath, a browserless token).
 */
export function connectFailure(err: unknown, endpoint: string): string {
  const label = endpointLabel(endpoint);
  const first = (err instanceof Error ? err.message : String(err)).split("\n")[0]!;
  const message = first
    .replace(/^(?:[\w.]+: )+/, "")
    .split(endpoint)
    .join(label)
    .replace(/wss?:\/\/\S+/g, label);
  return `could not connect to ${label}: ${message}`;
}

export async function connectRemoteBrowser(endpoint: string): Promise<Browser> {
  try {
    return await chromium.connect(endpoint, { timeout: CONNECT_TIMEOUT_MS });
  } catch (err) {
    throw new Error(connectFailure(err, endpoint));
  }
}
