// Playwright browser servers on loopback for the remote-browser tests: playwright-core's
// launchServer with the machine's Chromium (what `playwright run-server` runs on a browser host,
// without the download). Its `process()` is the Chromium a test may kill.
import net from "node:net";
import { chromium, type BrowserServer } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "#server/lib/chromium";

/** A port free right now on 127.0.0.1, so a server can be started on it later (down at boot, then up). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The endpoint a server started with `startBrowserServer({ port, wsPath })` will have. */
export const endpointFor = (port: number, wsPath = "/browser") => `ws://127.0.0.1:${port}${wsPath}`;

export async function startBrowserServer(opts: { port?: number; wsPath?: string } = {}): Promise<BrowserServer> {
  const executablePath = findChromium(process.env.CHROMIUM_PATH);
  if (!executablePath) throw new Error("No Chromium found: install Debian's chromium or set CHROMIUM_PATH");
  return chromium.launchServer({
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    host: "127.0.0.1",
    port: opts.port ?? 0,
    wsPath: opts.wsPath ?? "/browser",
  });
}
