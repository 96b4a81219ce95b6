// The SSRF canary under every spelling: a captured page (tests/fixtures/sites/hostile/canary.html)
// reaches for the fixture server's /_special/secret through odd IPv4 spellings, IPv6 forms and
// local names, each directly and behind a redirect from its own allowed host, over images, frames,
// stylesheets, prefetch, media, objects, CSS backgrounds, fonts, fetch, XHR, beacons, EventSource,
// WebSocket, a worker and a service worker. tests/capture/capture-guard.test.ts covers one plain
// address per channel; this covers the spellings. A control run without the guard shows which
// spellings really reach the canary, so the guarded run's zero is not vacuous.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM_ARGS, findFullChromium } from "#server/lib/chromium";
import { capturePage } from "#server/modules/capture/capture";
import { checkHost, systemResolver, type HostVerdict } from "#server/modules/capture/browser/ssrf";
import type { CaptureJob } from "#server/modules/capture/worker/protocol";
import { launchBrowser } from "#tests/support/browser";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { waitFor } from "#tests/support/wait";

const SECRET = "/_special/secret";
let browser: Browser;
let server: FixtureServer;
let dir: string;

function job(url: string): CaptureJob {
  return {
    jobId: crypto.randomUUID(),
    url,
    viewport: "desktop",
    screenshotPath: join(dir, `${crypto.randomUUID()}.png`),
    allowPrivate: false,
    // `load` never fires with this many refused requests; the capture goes on without it once the
    // navigation limit is spent, so the limit is the price of each capture. It also bounds reaching
    // DOMContentLoaded, which can take up to 4 s on a busy machine, so 4 s is not enough. The total
    // limit is not what these tests are about: a hundred-odd requests through the egress proxy can
    // take past 45 s on a heavily loaded machine, so it only stops a capture that is stuck.
    navigationTimeoutMs: 10_000,
    totalTimeoutMs: 120_000,
    maxHeightPx: 2000,
  };
}

/** Offline there is no public host: "public.test" stands for one and lives on 127.0.0.1. */
const guard = async (host: string): Promise<HostVerdict> =>
  host === "public.test" ? { ok: true, addresses: ["127.0.0.1"] } : checkHost(host, systemResolver);
/** The control: every host allowed, connecting where it names. */
const allowAll = async (host: string): Promise<HostVerdict> => ({
  ok: true,
  addresses: [host === "public.test" ? "127.0.0.1" : host.replace(/^\[|\]$/g, "")],
});

/** Which "spelling|route-channel" tags of one capture (`run`) reached the canary. */
const reached = (run: string) =>
  server
    .queries(SECRET)
    .map((q) => new URLSearchParams(q))
    .filter((q) => q.get("run") === run)
    .map((q) => q.get("n") ?? "(untagged)");

beforeAll(async () => {
  browser = await launchBrowser();
  server = startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), "ssrf-canary-"));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Spellings of the fixture server's address (127.0.0.1) that Chromium, unguarded, really connects to. */
const REACHABLE = [
  "127.0.0.1",
  "localhost",
  "127.1",
  "127.0.1",
  "127.000.000.001",
  "2130706433",
  "0x7f000001",
  "0x7f.1",
  "0177.0.0.1",
  "017700000001",
  "0",
  "0.0.0.0",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[0:0:0:0:0:ffff:7f00:1]",
];

const page = (run: string) => `http://public.test:${server.port}/hostile/canary.html?run=${run}`;

/** Redirects served for capture `run`: the redirect's target names its run. */
const redirectsOf = (run: string) =>
  server
    .queries("/_special/redirect")
    .filter((q) => new URLSearchParams(new URLSearchParams(q).get("to")?.split("?")[1] ?? "").get("run") === run).length;

// Each capture mostly waits out its navigation limit (its page never fires `load`), and every
// capture tags its requests with its own run, so the three cases run side by side.
describe.concurrent("SSRF canary, every spelling", () => {
  test("control: unguarded, odd spellings and redirects do reach the canary", async () => {
    const result = await capturePage(browser, job(page("control")), () => {}, { checkHost: allowAll });
    expect(result.extraction.title).toBe("Canary probe");
    const tags = new Set(reached("control"));
    if (process.env.CANARY_DEBUG) console.log([...tags].sort().join("\n"));
    // Each of these spellings got through, directly and through the redirect, when nothing guarded it.
    for (const s of REACHABLE)
      for (const route of ["direct", "redirect"]) for (const ch of ["img", "fetch"]) expect(tags).toContain(`${s}|${route}-${ch}`);
    // And every channel did, for the two spellings the page tries on all of them.
    for (const s of ["2130706433", "[::ffff:127.0.0.1]"])
      for (const ch of ["frame", "css", "prefetch", "video", "object", "bg", "xhr", "sse", "worker"]) {
        expect(tags).toContain(`${s}|direct-${ch}`);
        expect(tags).toContain(`${s}|redirect-${ch}`);
      }
    for (const ch of ["beacon", "ws"]) expect(tags).toContain(`2130706433|direct-${ch}`);
  }, 150_000); // one capture (120 s limit at most) and the checks

  test("guarded: not one request, in any spelling, over any channel or redirect, reaches it", async () => {
    const result = await capturePage(browser, job(page("guarded")), () => {}, { checkHost: guard });
    expect(result.extraction.title).toBe("Canary probe");
    // The page did run and did try: its redirects (on the allowed host) were requested ...
    expect(redirectsOf("guarded")).toBeGreaterThan(0);
    // ... and nothing arrived at the canary.
    expect(reached("guarded")).toEqual([]);
    // Requests sent late (beacons are fire-and-forget) would show up after the capture; give them time.
    await Bun.sleep(1000);
    expect(reached("guarded")).toEqual([]);
  }, 150_000); // one capture (120 s limit at most) and the checks
});

// A service worker needs a secure context, which http://public.test is not, so above neither run
// could register one and the channel proves nothing there. Here the browser is told to treat
// public.test as secure: a plain browser context shows the worker really does reach the canary,
// and our capture, even with every host allowed, never lets one register. The desktop Chromium: the
// headless shell the product prefers ignores that switch, so there no page is ever secure enough to
// register a worker and the control could not show the channel open.
describe.concurrent("the service-worker channel", () => {
  test("open in a plain context, shut in a capture even with the address guard off", async () => {
    const secure = await chromium.launch({
      executablePath: findFullChromium(process.env.CHROMIUM_PATH) ?? "no desktop Chromium (Debian: apt install chromium)",
      args: [
        ...CHROMIUM_ARGS,
        `--unsafely-treat-insecure-origin-as-secure=http://public.test:${server.port}`,
        "--host-resolver-rules=MAP public.test 127.0.0.1",
      ],
    });
    try {
      const plain = await secure.newContext();
      const tab = await plain.newPage();
      await tab.goto(page("sw-plain"));
      expect(await tab.evaluate(() => window.isSecureContext)).toBe(true);
      await waitFor(
        "the plain context's service worker to reach the canary",
        () => reached("sw-plain").includes("127.0.0.1|direct-sw"),
        30_000,
        50,
      );
      await plain.close();

      await capturePage(secure, job(page("sw-capture")), () => {}, { checkHost: allowAll });
      await Bun.sleep(1000);
      expect(reached("sw-capture").filter((tag) => tag.endsWith("-sw"))).toEqual([]);
      expect(reached("sw-capture").length).toBeGreaterThan(0); // the unguarded page did reach it otherwise
    } finally {
      await secure.close();
    }
  }, 180_000); // the plain context's worker (30 s at most), one capture (120 s at most), the checks
});
