// Capture-time SSRF enforcement, end to end with a real Chromium. Offline there is no public
// host, so the guard is told that "public.test" is public (and lives on 127.0.0.1); every other
// host gets the real rules. The page then reaches for 127.0.0.1 through every channel it has.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { capturePage, CaptureError } from "#server/modules/capture/capture";
import { SSRF_MESSAGES, type HostVerdict } from "#server/modules/capture/browser/ssrf";
import type { CaptureJob } from "#server/modules/capture/worker/protocol";
import { launchBrowser } from "#tests/support/browser";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { publicTestGuard, publicTestUrl } from "#tests/support/public-test-host";

setDefaultTimeout(30_000);

let browser: Browser;
let server: FixtureServer;
let dir: string;
const SECRET = "/_special/secret";

const guard = publicTestGuard;

function job(url: string, overrides: Partial<CaptureJob> = {}): CaptureJob {
  return {
    jobId: crypto.randomUUID(),
    url,
    viewport: "desktop",
    screenshotPath: join(dir, `${crypto.randomUUID()}.png`),
    allowPrivate: false,
    navigationTimeoutMs: 10_000,
    totalTimeoutMs: 20_000,
    maxHeightPx: 4000,
    ...overrides,
  };
}

beforeAll(async () => {
  browser = await launchBrowser();
  server = startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), "capture-guard-"));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const publicUrl = (path: string) => publicTestUrl(server, path);

describe("capture-time SSRF guard", () => {
  test("control: with private targets allowed, the probe page does reach the internal URL", async () => {
    const before = server.hits(SECRET);
    const to = server.url(`${SECRET}?n=control`);
    const result = await capturePage(
      browser,
      job(server.url(`/_special/probe?to=${encodeURIComponent(to)}`), { allowPrivate: true }),
      () => {},
    );
    expect(result.extraction.title).toBe("Probe");
    expect(server.hits(SECRET) - before).toBeGreaterThanOrEqual(3);
  });

  test("control: through the proxy with a guard that allows everything, the redirects do get there", async () => {
    const before = server.hits(SECRET);
    const allowAll = async (host: string): Promise<HostVerdict> => ({ ok: true, addresses: [host === "public.test" ? "127.0.0.1" : host] });
    const hop = publicUrl(`/_special/redirect?to=${encodeURIComponent(server.url(`${SECRET}?n=allowed`))}`);
    await capturePage(browser, job(publicUrl(`/_special/probe?to=${encodeURIComponent(hop)}`)), () => {}, { checkHost: allowAll });
    expect(server.hits(SECRET) - before).toBeGreaterThanOrEqual(2);
  });

  test("subresources, frames, fetch, sockets and workers can't reach a loopback address", async () => {
    const before = server.hits(SECRET);
    const to = server.url(`${SECRET}?n=direct`);
    const result = await capturePage(browser, job(publicUrl(`/_special/probe?to=${encodeURIComponent(to)}`)), () => {}, {
      checkHost: guard,
    });
    expect(result.extraction.title).toBe("Probe");
    expect(server.hits("/_special/probe")).toBeGreaterThan(0);
    expect(server.hits(SECRET) - before).toBe(0);
  });

  test("a redirect from an allowed host to a private one is stopped at the redirect hop", async () => {
    const beforeSecret = server.hits(SECRET);
    const beforeRedirect = server.hits("/_special/redirect");
    const hop = publicUrl(`/_special/redirect?to=${encodeURIComponent(server.url(`${SECRET}?n=redirect`))}`);
    await capturePage(browser, job(publicUrl(`/_special/probe?to=${encodeURIComponent(hop)}`)), () => {}, { checkHost: guard });
    // The browser did follow its redirects (the first hop is public) ...
    expect(server.hits("/_special/redirect") - beforeRedirect).toBeGreaterThanOrEqual(2);
    // ... and not one of them got to the internal address.
    expect(server.hits(SECRET) - beforeSecret).toBe(0);
  });

  test("a page that redirects its navigation to a private address fails with a clear reason", async () => {
    const before = server.hits(SECRET);
    const url = publicUrl(`/_special/redirect?to=${encodeURIComponent(`http://localhost:${server.port}${SECRET}`)}`);
    const err = await capturePage(browser, job(url), () => {}, { checkHost: guard }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CaptureError);
    expect((err as Error).message).toContain(SSRF_MESSAGES.private);
    expect(server.hits(SECRET) - before).toBe(0);
  });

  test("a loopback target is refused before anything is requested", async () => {
    const before = server.hits("/alpha/");
    const err = await capturePage(browser, job(server.url("/alpha/")), () => {}, { checkHost: guard }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CaptureError);
    expect((err as Error).message).toContain(SSRF_MESSAGES.private);
    expect(server.hits("/alpha/") - before).toBe(0);
  });
});

describe("time limits", () => {
  test("the total limit stops a capture even while navigation is still allowed to run", async () => {
    const started = Date.now();
    const err = await capturePage(
      browser,
      job(server.url("/_special/never"), { allowPrivate: true, navigationTimeoutMs: 30_000, totalTimeoutMs: 2_000 }),
      () => {},
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CaptureError);
    expect((err as Error).message).toBe("The capture took longer than 2 s and was stopped");
    expect(Date.now() - started).toBeLessThan(10_000);
    // The browser is still usable afterwards: the context was closed, not the browser.
    expect(browser.isConnected()).toBe(true);
    expect(browser.contexts()).toHaveLength(0);
  });

  test("a page whose `load` never fires is still captured once the DOM is there", async () => {
    const result = await capturePage(
      browser,
      job(server.url("/_special/hanging-asset-page"), { allowPrivate: true, navigationTimeoutMs: 3_000 }),
      () => {},
    );
    expect(result.extraction.title).toBe("Hanging asset");
    expect(result.extraction.timing.loadMs).toBeNull();
    expect(result.extraction.timing.domContentLoadedMs).not.toBeNull();
  });
});
