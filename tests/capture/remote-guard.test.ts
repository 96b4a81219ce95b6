// The capture-time SSRF guard with a remote browser: a browser server (playwright-core's
// launchServer, on loopback) whose contexts reach the network only through the worker's egress
// proxy, which asks for a password. As in capture-guard.test.ts, "public.test" is public (and lives
// on 127.0.0.1) only in the worker's eyes (tests/support/public-test-host.ts): the browser cannot
// resolve it, so every page that loads from it proves its way went through the proxy.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserServer } from "playwright-core";
import { capturePage, CaptureError } from "#server/modules/capture/capture";
import { startEgressProxy } from "#server/modules/capture/browser/egress-proxy";
import { SSRF_MESSAGES } from "#server/modules/capture/browser/ssrf";
import { timePage } from "#server/modules/capture/timing/time-page";
import type { CaptureJob } from "#server/modules/capture/worker/protocol";
import { startBrowserServer } from "#tests/support/browser-server";
import { testCaptureJob } from "#tests/support/capture-job";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { publicTestGuard, publicTestResolve, publicTestUrl } from "#tests/support/public-test-host";

setDefaultTimeout(60_000);

let browserServer: BrowserServer;
let browser: Browser;
let server: FixtureServer;
let dir: string;
const SECRET = "/_special/secret";
const REMOTE = { listen: "127.0.0.1", advertise: "127.0.0.1" };

beforeAll(async () => {
  browserServer = await startBrowserServer();
  browser = await chromium.connect(browserServer.wsEndpoint(), { timeout: 30_000 });
  server = startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), "remote-guard-"));
});

afterAll(async () => {
  await browser?.close();
  await browserServer?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const publicUrl = (path: string) => publicTestUrl(server, path);
const guard = publicTestGuard;
const resolve = publicTestResolve;
const job = (url: string, overrides: Partial<CaptureJob> = {}) =>
  testCaptureJob(url, dir, { allowPrivate: false, navigationTimeoutMs: 15_000, totalTimeoutMs: 30_000, maxHeightPx: 4000, ...overrides });

describe("a remote browser's captures go through the worker's egress proxy", () => {
  test("private targets allowed: the page, its redirects and its internal requests all get there, by the proxy", async () => {
    const before = server.hits(SECRET);
    const hop = publicUrl(`/_special/redirect?to=${encodeURIComponent(server.url(`${SECRET}?n=allowed`))}`);
    const result = await capturePage(
      browser,
      job(publicUrl(`/_special/probe?to=${encodeURIComponent(hop)}`), { allowPrivate: true }),
      () => {},
      {
        resolve,
        remote: REMOTE,
      },
    );
    expect(result.extraction.title).toBe("Probe");
    expect(server.hits(SECRET) - before).toBeGreaterThanOrEqual(2);
  });

  test("private targets refused: nothing on the page reaches a loopback address", async () => {
    const before = server.hits(SECRET);
    const to = server.url(`${SECRET}?n=direct`);
    const hop = publicUrl(`/_special/redirect?to=${encodeURIComponent(server.url(`${SECRET}?n=redirect`))}`);
    const probe = `/_special/probe?to=${encodeURIComponent(to)}`;
    for (const url of [publicUrl(probe), publicUrl(`/_special/probe?to=${encodeURIComponent(hop)}`)]) {
      const result = await capturePage(browser, job(url), () => {}, { checkHost: guard, remote: REMOTE });
      expect(result.extraction.title).toBe("Probe");
    }
    expect(server.hits(SECRET) - before).toBe(0);
  });

  test("private targets refused: a navigation to a loopback address fails with the guard's reason", async () => {
    const before = server.hits("/alpha/");
    const err = await capturePage(browser, job(server.url("/alpha/")), () => {}, { checkHost: guard, remote: REMOTE }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CaptureError);
    expect((err as Error).message).toContain(SSRF_MESSAGES.private);
    expect(server.hits("/alpha/") - before).toBe(0);
  });

  test("timing loads go through the proxy too", async () => {
    const timing = await timePage(
      browser,
      {
        jobId: "t",
        url: publicUrl("/gamma/"),
        viewport: "desktop",
        allowPrivate: true,
        profile: "unthrottled",
        own: [],
        earlier: [],
        max: 1,
        totalTimeoutMs: 30_000,
      },
      { resolve, remote: REMOTE },
    );
    expect(timing.samples).toHaveLength(1);
    expect(timing.samples[0]!.fcpMs).toBeGreaterThan(0);
  });
});

describe("the proxy a remote browser dials", () => {
  async function ask(port: number, head: string): Promise<string> {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.write(head);
    let answer = "";
    for await (const chunk of socket) answer += String(chunk);
    return answer;
  }

  test("answers nobody without its password, and forwards for whoever has it", async () => {
    const before = server.hits("/gamma/");
    const proxy = await startEgressProxy(async () => ({ ok: true, addresses: ["127.0.0.1"] }), REMOTE);
    try {
      expect(proxy.credentials?.password.length).toBeGreaterThanOrEqual(20);
      const port = Number(new URL(proxy.server).port);
      const target = `http://public.test:${server.port}/gamma/`;
      for (const auth of ["", "proxy-authorization: Basic Y2FwdHVyZTp3cm9uZw==\r\n"]) {
        const answer = await ask(port, `GET ${target} HTTP/1.1\r\nhost: public.test\r\n${auth}\r\n`);
        expect(answer).toStartWith("HTTP/1.1 407");
        expect(answer.toLowerCase()).toContain('proxy-authenticate: basic realm="design-intel capture"');
      }
      expect(await ask(port, `CONNECT public.test:${server.port} HTTP/1.1\r\n\r\n`)).toStartWith("HTTP/1.1 407");
      expect(server.hits("/gamma/")).toBe(before);
      const basic = btoa(`${proxy.credentials!.username}:${proxy.credentials!.password}`);
      const answer = await ask(port, `GET ${target} HTTP/1.1\r\nhost: public.test\r\nproxy-authorization: Basic ${basic}\r\n\r\n`);
      expect(answer).toStartWith("HTTP/1.1 200");
      expect(server.hits("/gamma/")).toBe(before + 1);
    } finally {
      await proxy.close();
    }
  });

  test("a proxy for this machine's own browser listens on loopback and asks for nothing", async () => {
    const proxy = await startEgressProxy(async () => ({ ok: true, addresses: ["127.0.0.1"] }));
    try {
      expect(proxy.server).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(proxy.credentials).toBeNull();
    } finally {
      await proxy.close();
    }
  });
});
