// What went wrong on a page, as real Chromium reports it: failed and error-status requests with
// their type, console errors and uncaught exceptions — bounded, deduplicated, the page's own
// document and Chromium's echo of failed loads left out.
import { describe, expect, test } from "bun:test";
import { MAX_CONSOLE, MAX_FAILED, MAX_URL, watchPageProblems } from "#server/modules/capture/watchers/page-problems";
import { html, useHarness } from "./gatherers/harness";

// A port nothing listens on: a request to it is refused at once, like an unreachable CDN offline.
const closedPort = (() => {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = s.port;
  s.stop(true);
  return port;
})();
const refused = (path: string) => `http://127.0.0.1:${closedPort}${path}`;
const longQuery = "x".repeat(MAX_URL + 50);

const h = useHarness({
  "/broken": html(
    `<p style="font-family: Brand">Hello</p><img src="/missing.png" alt="gone"><script src="${refused("/lib.js")}"></script>
     <script>console.error("widget failed", 42); console.error("widget failed", 42); console.warn("just a warning"); setTimeout(() => { throw new TypeError("x is undefined"); });</script>`,
    `<link rel="icon" href="data:,"><link rel="stylesheet" href="/missing.css?${longQuery}">
     <style>@font-face { font-family: Brand; src: url(${refused("/brand.woff2")}) format("woff2"); }</style>`,
  ),
  "/noisy": html(
    `<script>for (let i = 0; i < ${MAX_CONSOLE + 10}; i++) console.error("error " + i);
      for (let i = 0; i < ${MAX_FAILED + 5}; i++) fetch("/gone/" + i).catch(() => {});</script>`,
    `<link rel="icon" href="data:,">`,
  ),
  "/clean": html(`<p>All good</p>`, `<link rel="icon" href="data:,">`),
});

async function openWatched(path: string, until: (p: ReturnType<ReturnType<typeof watchPageProblems>["read"]>) => boolean) {
  const context = await h.browser.newContext();
  const page = await context.newPage();
  const problems = watchPageProblems(page);
  await page.goto(h.url(path), { waitUntil: "load" });
  // Page events arrive asynchronously after load; wait for the condition, not for time.
  for (let i = 0; i < 200 && !until(problems.read()); i++) await page.waitForTimeout(25);
  return { page, problems, context };
}

describe("page problems", () => {
  test("names failed requests with their type and reason, and console errors", async () => {
    const { problems, context } = await openWatched("/broken", (p) => p.network.failedCount >= 4 && p.console.length >= 2);
    const { network, console: entries } = problems.read();
    const byType = Object.fromEntries(network.failed.map((f) => [f.type, f]));
    expect(byType.image).toEqual({ url: h.url("/missing.png"), type: "image", reason: "HTTP 404 Not Found" });
    expect(byType.stylesheet!.reason).toBe("HTTP 404 Not Found");
    expect(byType.stylesheet!.url.length).toBe(MAX_URL);
    expect(byType.stylesheet!.url.endsWith("…")).toBe(true);
    expect(byType.script).toEqual({ url: refused("/lib.js"), type: "script", reason: "ERR_CONNECTION_REFUSED" });
    expect(byType.font).toEqual({ url: refused("/brand.woff2"), type: "font", reason: "ERR_CONNECTION_REFUSED" });
    expect(network.failedCount).toBe(4);
    // One entry per distinct message; warnings and Chromium's "Failed to load resource" echoes are left out.
    expect(entries).toEqual([
      { level: "error", text: "widget failed 42" },
      { level: "exception", text: "TypeError: x is undefined" },
    ]);
    await context.close();
  });

  test("keeps a bounded list but counts every failure", async () => {
    const { problems, context } = await openWatched(
      "/noisy",
      (p) => p.network.failedCount >= MAX_FAILED + 5 && p.console.length >= MAX_CONSOLE,
    );
    const { network, console: entries } = problems.read();
    expect(network.failedCount).toBe(MAX_FAILED + 5);
    expect(network.failed).toHaveLength(MAX_FAILED);
    expect(network.failed[0]).toMatchObject({ type: "fetch", reason: "HTTP 404 Not Found" });
    expect(entries).toHaveLength(MAX_CONSOLE);
    await context.close();
  });

  test("a clean page reports nothing, and stop() stops listening", async () => {
    const { page, problems, context } = await openWatched("/clean", () => true);
    expect(problems.read()).toEqual({ network: { failed: [], failedCount: 0 }, console: [] });
    problems.stop();
    await page.evaluate(() => console.error("after stop"));
    expect(problems.read().console).toEqual([]);
    await context.close();
  });
});
