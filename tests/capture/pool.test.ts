// The capture pool end to end: real workers, real Chromium, fixture sites on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { deltaE2000, hexToRgb, rgbToLab } from "#server/lib/image/color";
import type { Extraction, Viewport } from "#server/modules/capture/model";
import type { Vitals } from "#server/modules/capture/page/types";
import { CapturePool, NO_CHROMIUM_REASON, type CaptureResult } from "#server/modules/capture/browser/pool";
import { SSRF_MESSAGES } from "#server/modules/capture/browser/ssrf";
import { findChromium, isHeadlessShell } from "#server/lib/chromium";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { waitFor } from "#tests/support/wait";

// Several captures per test at most, one or two at a time, each under its pool's limits (60 s at most).
setDefaultTimeout(300_000);

const MAX_HEIGHT = 8000;
let server: FixtureServer;
let pool: CapturePool;
let dir: string;

beforeAll(() => {
  server = startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), "capture-pool-"));
  pool = new CapturePool({
    concurrency: 2,
    chromiumPath: findChromium(process.env.CHROMIUM_PATH),
    allowPrivate: true,
    // The product's defaults: these pages must load, and a short limit is a budget a busy machine
    // exhausts (the beta fixture on a phone ran past 20 s there). The page that never loads gets
    // its short limits from a pool of its own below.
    navigationTimeoutMs: 30_000,
    totalTimeoutMs: 60_000,
    maxHeightPx: MAX_HEIGHT,
    // Two loads at most: the timing job below still loads a deferred page once more (its subject),
    // and no test here is about a third load (capture/timing-samples tests are); each capture of a
    // page slow on a busy machine took three.
    timingSamples: 2,
  });
});

afterAll(async () => {
  await pool?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const shot = (name: string) => join(dir, `${name}-${crypto.randomUUID()}.png`);

async function capture(path: string, viewport: Viewport, onStage?: (s: string) => void): Promise<CaptureResult> {
  return pool.submit("owner-a", { url: server.url(path), viewport, screenshotPath: shot(path.replace(/\W+/g, "_")) }, onStage);
}

function ok(outcome: CaptureResult): { extraction: Extraction; screenshotPath: string } {
  if (!outcome.ok) throw new Error(`capture failed: ${outcome.reason}`);
  return outcome;
}

const closeTo = (hex: string, target: string) => deltaE2000(rgbToLab(...hexToRgb(hex)!), rgbToLab(...hexToRgb(target)!)) < 6;

describe("capturing the alpha fixture", () => {
  let desktop: Extraction;
  let mobile: Extraction;
  let desktopPng: PNG;
  let mobilePng: PNG;

  beforeAll(async () => {
    const stages: string[] = [];
    // The phone's timing is left to a timing job (as a comparison run does), tested below.
    const [d, m] = await Promise.all([
      capture("/alpha/", "desktop", (s) => stages.push(s)),
      pool.submit("owner-a", { url: server.url("/alpha/"), viewport: "mobile", screenshotPath: shot("alpha_mobile"), deferTiming: true }),
    ]);
    desktop = ok(d).extraction;
    mobile = ok(m).extraction;
    desktopPng = PNG.sync.read(readFileSync(ok(d).screenshotPath));
    mobilePng = PNG.sync.read(readFileSync(ok(m).screenshotPath));
    expect(stages).toEqual(["navigating", "settling", "measuring", "screenshot"]);
  });

  test("title, description and headline", () => {
    for (const e of [desktop, mobile]) {
      expect(e.title).toBe("Orbit — Plan launches your whole team can follow");
      expect(e.metaDescription).toStartWith("Orbit turns launch plans into one shared timeline");
      expect(e.copy.headline).toBe("Plan launches your whole team can follow");
      expect(e.finalUrl).toBe(server.url("/alpha/"));
    }
    expect(desktop.viewport).toBe("desktop");
    expect(mobile.viewport).toBe("mobile");
  });

  test("screenshots are full page at the viewport width, matching the captured height", () => {
    expect(desktopPng.width).toBe(1440);
    expect(desktopPng.height).toBe(desktop.capturedHeight);
    expect(desktop.capturedHeight).toBe(desktop.pageHeight);
    expect(desktop.pageHeight).toBeGreaterThan(900);
    expect(mobilePng.width).toBe(390);
    expect(mobilePng.height).toBe(mobile.capturedHeight);
    expect(mobile.pageHeight).toBeGreaterThan(desktop.pageHeight);
  });

  test("the brand purple is among the dominant pixel colours and the button colours", () => {
    for (const e of [desktop, mobile]) {
      expect(e.palette.dominant.some((c) => closeTo(c.hex, "#6d28d9"))).toBe(true);
      expect(e.palette.dominant[0]!.hex).toBe("#ffffff");
      expect(e.palette.buttons[0]!.hex).toBe("#6d28d9");
      expect(e.palette.isDark).toBe(false);
      const shares = e.palette.dominant.reduce((a, c) => a + c.share, 0);
      expect(shares).toBeCloseTo(1, 3);
    }
    expect(desktop.palette.text[0]!.hex).toBe("#111827");
    expect(desktop.palette.background[0]!.hex).toBe("#ffffff");
  });

  test("calls to action, with the ones above the fold flagged", () => {
    const labels = [
      "Start free",
      "Start your free trial",
      "Watch the 2-minute demo",
      "Choose Starter",
      "Choose Team",
      "Talk to sales",
      "Send me the checklist",
    ];
    for (const e of [desktop, mobile]) {
      expect(e.elements.ctas.map((c) => c.text)).toEqual(labels);
      expect(e.elements.ctas.filter((c) => c.aboveFold).map((c) => c.text)).toEqual(labels.slice(0, 3));
    }
    const trial = desktop.elements.ctas[1]!;
    expect(trial).toMatchObject({ bg: "#6d28d9", fg: "#ffffff", aboveFold: true });
    expect(trial.href).toBe(server.url("/alpha/signup"));
    expect(trial.box.y).toBeLessThan(900);
    // The menu toggle is an icon-only button: a control, not a call to action.
    expect(mobile.elements.ctas.some((c) => /menu/i.test(c.text))).toBe(false);
  });

  test("headings, forms and inputs", () => {
    const h = desktop.elements.headings;
    expect(h.filter((x) => x.level === 1).map((x) => x.text)).toEqual(["Plan launches your whole team can follow"]);
    expect(h.filter((x) => x.level === 2).map((x) => x.text)).toEqual([
      "Everything your launch needs",
      "Teams ship calmer launches",
      "Simple pricing",
      "Get the launch checklist",
    ]);
    expect(h.filter((x) => x.level === 3)).toHaveLength(9);
    expect(h.filter((x) => x.aboveFold).map((x) => x.level)).toEqual([1]);
    expect(desktop.elements.forms).toHaveLength(1);
    expect(desktop.elements.forms[0]).toMatchObject({ inputs: 2, aboveFold: false });
    expect(desktop.elements.inputs).toBe(2);
    expect(desktop.accessibility).toMatchObject({ imagesWithoutAlt: 0, inputsWithoutLabel: 0, lowContrast: [] });
    expect(desktop.accessibility.audit!.error).toBeUndefined();
    expect(desktop.accessibility.audit!.violations.map((r) => r.id)).not.toContain("image-alt");
    // A page is audited once, on its desktop capture.
    expect(mobile.accessibility.audit).toBeUndefined();
    expect(desktop.accessibility.bodyContrast).toBeGreaterThan(7);
  });

  test("typography and layout", () => {
    expect(desktop.typography.families[0]).toEqual({ family: "Inter", share: 1 });
    expect(desktop.typography.headings.find((x) => x.level === 1)).toMatchObject({ sizePx: 56, weight: 800 });
    expect(mobile.typography.headings.find((x) => x.level === 1)).toMatchObject({ sizePx: 36, weight: 800 });
    expect(desktop.typography.body).toMatchObject({ family: "Inter", sizePx: 17, weight: 400 });
    expect(desktop.layout.columns).toBe(3);
    expect(mobile.layout.columns).toBe(1);
    const kinds = desktop.layout.regions.map((r) => r.kind);
    for (const kind of ["header", "nav", "hero", "section", "footer", "main"] as const) expect(kinds).toContain(kind);
    // On a phone the nav is collapsed behind the menu button.
    expect(mobile.layout.regions.map((r) => r.kind)).not.toContain("nav");
    const hero = desktop.layout.regions.find((r) => r.kind === "hero")!;
    expect(hero.box.y).toBeLessThan(100);
    expect(hero.box.width).toBe(1440);
    expect(desktop.layout.radiusPx).toBeGreaterThanOrEqual(10);
    expect(desktop.layout.spacingPx).toBeGreaterThan(40);
  });

  test("copy and timing", () => {
    expect(desktop.copy.wordCount).toBeGreaterThan(250);
    expect(desktop.copy.visibleText).toContain("Trusted by launch teams at");
    expect(desktop.copy.readability).toBeGreaterThan(40);
    expect(desktop.copy.readability).toBeLessThanOrEqual(100);
    const t = desktop.timing;
    for (const field of ["ttfbMs", "fcpMs", "lcpMs", "domContentLoadedMs", "loadMs"] as const) {
      expect(t[field]).toBeNumber();
      expect(t[field]!).toBeGreaterThanOrEqual(0);
    }
    expect(t.cls).toBeNumber();
    // Document, stylesheet, hero art and 5 logos; the desktop browser also fetches the favicon for
    // its tab, the headless shell has no tab to show it in.
    const favicon = isHeadlessShell(findChromium(process.env.CHROMIUM_PATH)!) ? 0 : 1;
    expect(t.requests).toBe(8 + favicon);
    expect(t.bytes).toBeGreaterThan(10_000);
    expect(t.largestResource?.url).toStartWith(server.origin);
  });

  test("a deferred capture keeps its own load; a timing job loads the page again in the worker's browser", async () => {
    expect(mobile.timing.samples).toHaveLength(1);
    const own: Vitals = { ...mobile.timing, lcpElement: mobile.timing.lcpElement ?? null };
    const timed = await pool.submitTiming("owner-a", {
      url: mobile.finalUrl,
      viewport: "mobile",
      profile: "unthrottled",
      own: [own],
      earlier: [],
    });
    if (!timed.ok) throw new Error(timed.reason);
    expect(timed.timing.samples.length).toBeGreaterThanOrEqual(2);
    expect(timed.timing.samples[0]!.fcpMs).toBe(mobile.timing.fcpMs);
    expect(timed.timing.samples.slice(1).every((s) => s.fcpMs !== null && s.fcpMs > 0)).toBe(true);
    expect(timed.timing.profile).toBe("unthrottled");
  });
});

describe("capturing the beta fixture on a phone", () => {
  test("dark page, no call to action above the fold, heavy hero, accessibility problems", async () => {
    const [phone, desk] = await Promise.all([capture("/beta/", "mobile"), capture("/beta/", "desktop")]);
    const e = ok(phone).extraction;
    expect(e.palette.isDark).toBe(true);
    expect(e.palette.dominant[0]!.hex).toBe("#0b0f19");
    expect(e.palette.dominant.some((c) => closeTo(c.hex, "#f97316"))).toBe(true);
    expect(e.elements.ctas.map((c) => c.text)).toEqual(["SHOP THE ROASTS", "SUBSCRIBE"]);
    expect(e.elements.ctas.some((c) => c.aboveFold)).toBe(false);
    expect(e.typography.families[0]!.family).toBe("Georgia");
    expect(e.typography.headings[0]).toMatchObject({ level: 1, family: "Ember Display" });
    // The page is audited once, on its desktop capture: the phone's has no audit and no counts, and
    // its contrast is what CSS and the pixels find (the grey body text on navy among it).
    expect(e.accessibility.audit).toBeUndefined();
    expect(e.accessibility).toMatchObject({ imagesWithoutAlt: null, inputsWithoutLabel: null });
    expect(e.accessibility.bodyContrast).toBeLessThan(4.5);
    expect(e.accessibility.lowContrast.length).toBeGreaterThan(3);
    expect(e.accessibility.lowContrast[0]!.required).toBe(4.5);
    expect(e.timing.largestResource).toMatchObject({ url: server.url("/beta/img/hero.png"), type: "image" });
    expect(e.timing.largestResource!.bytes).toBeGreaterThan(1_500_000);
    expect(e.timing.bytes).toBeGreaterThan(2_000_000);
    // No <header>/<footer> tags on this site: the regions come from position.
    const kinds = e.layout.regions.map((r) => r.kind);
    expect(kinds[0]).toBe("header");
    expect(kinds).toContain("hero");
    expect(kinds[kinds.length - 1]).toBe("footer");

    // axe-core's audit of the desktop capture: the four roasts and the story image have no alt. The
    // newsletter field is named only by its placeholder, which axe accepts as a name (decision 0015).
    const d = ok(desk).extraction.accessibility;
    const failed = new Map(d.audit!.violations.map((r) => [r.id, r]));
    expect(failed.get("image-alt")).toMatchObject({ count: 5, level: "A" });
    expect(d.imagesWithoutAlt).toBe(5);
    expect(d.inputsWithoutLabel).toBe(0);
    // The grey body text on navy is axe's to report; the pixels only judge what axe could not decide.
    expect(failed.get("color-contrast")!.count).toBeGreaterThan(3);
    expect(failed.get("color-contrast")!.examples[0]!.contrast!.required).toBe(4.5);
  });
});

describe("pages that misbehave", () => {
  test("an infinite feed is cut at the height cap", async () => {
    const { extraction, screenshotPath } = ok(await capture("/_special/infinite", "mobile"));
    expect(extraction.capturedHeight).toBe(MAX_HEIGHT);
    expect(extraction.pageHeight).toBeGreaterThanOrEqual(MAX_HEIGHT);
    const png = PNG.sync.read(readFileSync(screenshotPath));
    expect(png.height).toBe(MAX_HEIGHT);
    // Headings past the cap are not reported as page content.
    expect(extraction.elements.headings.every((h) => h.box.y < MAX_HEIGHT)).toBe(true);
  });

  test("a page that never finishes loading fails with a timeout reason, within the limits", async () => {
    const short = new CapturePool({
      concurrency: 1,
      chromiumPath: findChromium(process.env.CHROMIUM_PATH),
      allowPrivate: true,
      navigationTimeoutMs: 4000,
      totalTimeoutMs: 20_000,
      timingSamples: 1,
    });
    try {
      // Timed from a running browser: launching one is not the capture's to bound.
      short.warm();
      await waitFor("the browser to start", () => short.stats().workers.every((w) => w.pid !== null), 40_000, 50);
      const started = Date.now();
      const outcome = await short.submit("owner-a", {
        url: server.url("/_special/never"),
        viewport: "desktop",
        screenshotPath: shot("never"),
      });
      expect(outcome).toEqual({ ok: false, reason: "The page did not finish loading within 4 s" });
      // The navigation limit ended it, not the total limit (which would say so) nor the watchdog.
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await short.close();
    }
  });

  test("a 404 page fails with the status", async () => {
    const path = shot("missing");
    const outcome = await pool.submit("owner-a", { url: server.url("/no-such-page"), viewport: "desktop", screenshotPath: path });
    expect(outcome).toEqual({ ok: false, reason: "The site answered HTTP 404 Not Found" });
    expect(existsSync(path)).toBe(false);
  });

  test("a killed browser fails only the page in hand; the next capture succeeds", async () => {
    let killed = false;
    const victim = capture("/_special/slow?ms=3000", "desktop", (stage) => {
      if (stage !== "navigating" || killed) return;
      const busy = pool.stats().workers.find((w) => w.busy);
      expect(busy?.pid).toBeNumber();
      process.kill(busy!.pid!, "SIGKILL");
      killed = true;
    });
    const bystander = capture("/gamma/", "desktop");
    const [lost, fine] = await Promise.all([victim, bystander]);
    expect(killed).toBe(true);
    expect(lost).toEqual({ ok: false, reason: "The browser crashed while capturing this page" });
    expect(ok(fine).extraction.title).toBe("Fieldnotes: How we cut our cloud bill by 38%");
    const next = ok(await capture("/alpha-edited/", "desktop")).extraction;
    expect(next.copy.headline).toBe("Plan launches your whole team can actually follow");
  });
});

describe("timing jobs without a browser", () => {
  test("a pool set to one load answers a timing job with the load it has, without a browser", async () => {
    const one = new CapturePool({
      concurrency: 1,
      chromiumPath: findChromium(process.env.CHROMIUM_PATH),
      allowPrivate: true,
      timingSamples: 1,
    });
    try {
      const own: Vitals = { ttfbMs: 5, fcpMs: 120, lcpMs: 900, cls: 0, domContentLoadedMs: 50, loadMs: 200, lcpElement: "h1" };
      const timed = await one.submitTiming("owner-a", {
        url: server.url("/alpha/"),
        viewport: "desktop",
        profile: "unthrottled",
        own: [own],
        earlier: [],
      });
      expect(timed).toMatchObject({ ok: true, timing: { lcpMs: 900, samples: [{ lcpMs: 900 }] } });
      expect(one.stats().workers).toEqual([]);
    } finally {
      await one.close();
    }
  });
});

describe("pool rules", () => {
  test("stats show queued and running pages per owner", async () => {
    const one = new CapturePool({
      concurrency: 1,
      pagesPerBrowser: 1,
      chromiumPath: findChromium(process.env.CHROMIUM_PATH),
      allowPrivate: true,
      maxQueuedPerOwner: 2,
      // The queue's order is the subject: one load per page (timing samples are not).
      timingSamples: 1,
    });
    try {
      const a1 = one.submit("a", { url: server.url("/_special/slow?ms=800"), viewport: "desktop", screenshotPath: shot("a1") });
      const a2 = one.submit("a", { url: server.url("/gamma/"), viewport: "desktop", screenshotPath: shot("a2") });
      const a3 = one.submit("a", { url: server.url("/gamma/"), viewport: "mobile", screenshotPath: shot("a3") });
      const a4 = one.submit("a", { url: server.url("/gamma/"), viewport: "mobile", screenshotPath: shot("a4") });
      const b1 = one.submit("b", { url: server.url("/gamma/"), viewport: "desktop", screenshotPath: shot("b1") });
      await Bun.sleep(50);
      const stats = one.stats();
      expect(stats.running).toBe(1);
      expect(stats.queued).toBe(3);
      expect(stats.owners).toEqual({ a: { queued: 2, running: 1 }, b: { queued: 1, running: 0 } });
      expect(await a4).toEqual({ ok: false, reason: "You already have many pages waiting to be captured. Let them finish first." });
      // Round robin: b's only page goes before a's second and third.
      const order: string[] = [];
      await Promise.all(
        [a1, a2, a3, b1].map((p, i) => p.then((o) => (o.ok ? order.push(["a1", "a2", "a3", "b1"][i]!) : order.push(`failed:${o.reason}`)))),
      );
      expect(order).toEqual(["a1", "b1", "a2", "a3"]);
    } finally {
      await one.close();
    }
  });

  test("one browser renders a site's two viewports side by side, each in its own context", async () => {
    const one = new CapturePool({
      concurrency: 1,
      pagesPerBrowser: 2,
      chromiumPath: findChromium(process.env.CHROMIUM_PATH),
      allowPrivate: true,
      timingSamples: 1,
    });
    try {
      const desktop = one.submit("a", { url: server.url("/_special/slow?ms=800"), viewport: "desktop", screenshotPath: shot("pd") });
      const mobile = one.submit("a", { url: server.url("/_special/slow?ms=800"), viewport: "mobile", screenshotPath: shot("pm") });
      const third = one.submit("a", { url: server.url("/gamma/"), viewport: "desktop", screenshotPath: shot("p3") });
      await waitFor("both pages to start", () => one.stats().running === 2, 40_000, 20);
      expect(one.stats()).toMatchObject({ running: 2, queued: 1 });
      expect(one.stats().workers).toHaveLength(1);
      const [d, m, g] = await Promise.all([desktop, mobile, third]);
      expect(ok(d).extraction.viewport).toBe("desktop");
      expect(ok(m).extraction.viewport).toBe("mobile");
      expect(ok(g).extraction.title).toBe("Fieldnotes: How we cut our cloud bill by 38%");
    } finally {
      await one.close();
    }
  });

  test("with private targets forbidden, a loopback URL is refused before any browser work", async () => {
    const strict = new CapturePool({ concurrency: 1, chromiumPath: findChromium(process.env.CHROMIUM_PATH), allowPrivate: false });
    try {
      const path = shot("strict");
      const before = server.hits("/alpha/");
      const outcome = await strict.submit("a", { url: server.url("/alpha/"), viewport: "desktop", screenshotPath: path });
      expect(outcome).toEqual({ ok: false, reason: SSRF_MESSAGES.private });
      expect(server.hits("/alpha/")).toBe(before);
      expect(strict.stats().workers).toHaveLength(0);
      expect(await strict.submit("a", { url: "http://localhost:1/", viewport: "mobile", screenshotPath: path })).toEqual({
        ok: false,
        reason: SSRF_MESSAGES.private,
      });
      expect(await strict.submit("a", { url: "file:///etc/passwd", viewport: "mobile", screenshotPath: path })).toEqual({
        ok: false,
        reason: SSRF_MESSAGES.scheme,
      });
    } finally {
      await strict.close();
    }
  });

  test("a warm pool launches its browsers before any capture and swaps an idle one for a fresh one", async () => {
    const until = (check: () => boolean, what: string) => waitFor(what, check, 40_000, 50);
    const warm = new CapturePool({
      concurrency: 2,
      chromiumPath: findChromium(process.env.CHROMIUM_PATH),
      allowPrivate: true,
      idleMs: 300,
      timingSamples: 1,
    });
    try {
      expect(warm.stats().workers).toHaveLength(0);
      expect(warm.readiness()).toEqual({ available: true, browsers: 0, concurrency: 2, onDemand: true });
      warm.warm();
      expect(warm.readiness().onDemand).toBe(false);
      expect(warm.stats().workers).toHaveLength(2);
      await until(() => warm.stats().workers.every((w) => w.pid !== null), "both browsers");
      expect(warm.readiness().browsers).toBe(2);
      const launched = warm.stats().workers.map((w) => w.pid);
      ok(await warm.submit("a", { url: server.url("/gamma/"), viewport: "desktop", screenshotPath: shot("warm") }));
      // The worker that ran the capture goes idle and is replaced; the pool never drops below two.
      await until(() => {
        const w = warm.stats().workers;
        return w.length === 2 && w.every((x) => x.pid !== null) && w.some((x) => !launched.includes(x.pid));
      }, "the idle browser to be replaced");
      expect(warm.stats().workers.filter((w) => launched.includes(w.pid))).toHaveLength(1);
    } finally {
      await warm.close();
    }
    expect(warm.stats().workers).toHaveLength(0);
  });

  test("without Chromium the pool says so once and every capture fails with that reason", async () => {
    const logged: string[] = [];
    const none = new CapturePool({ concurrency: 2, chromiumPath: null, allowPrivate: true, log: (m) => logged.push(m) });
    expect(none.available).toBe(false);
    expect(none.unavailableReason).toBe(NO_CHROMIUM_REASON);
    expect(none.readiness()).toEqual({ available: false, browsers: 0, concurrency: 2, onDemand: true });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("No Chromium browser found");
    const outcome = await none.submit("a", { url: server.url("/alpha/"), viewport: "desktop", screenshotPath: shot("none") });
    expect(outcome).toEqual({ ok: false, reason: "No Chromium browser found: install chromium or set CHROMIUM_PATH" });
    expect(logged).toHaveLength(1);
    await none.close();
  });
});
