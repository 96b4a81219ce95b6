// Change detection on real captures (headless Chromium, pages served from 127.0.0.1):
// - unchanged pages captured again and again report zero changes, including a page with CSS
//   animations and one with two rotating carousels (a fade one and a sliding track, neither
//   named "carousel"), against the page's own history (timing too, from WATCH_RECAPTURES=6 up);
// - switching the fixture's content (CTA text, brand colour, a removed section, the headline)
//   reports the right kind with the before and after values.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { PNG } from "pngjs";
import { capturePage } from "#server/modules/capture/capture";
import type { Extraction } from "#server/modules/capture/model";
import { compareCaptures } from "#server/modules/changes/detect/compare";
import type { Change } from "#server/modules/changes/model";
import { instrumentVolatility } from "#server/modules/capture/watchers/volatility-probe";
import { MIN_SAMPLES } from "#server/modules/changes/detect/timing";
import { mergeVolatility, type Volatility } from "#server/modules/capture/public";
import type { CaptureJob } from "#server/modules/capture/worker/protocol";
import { launchBrowser } from "#tests/support/browser";
import { TEST_TIMING_SAMPLES } from "#tests/support/server";

setDefaultTimeout(120_000);

/**
 * Captures per unchanged page (the first is the baseline). Three give every kind of pair: one with an
 * empty history, one whose history merges an earlier capture's volatility, and one against the
 * first. Timing is only judged from MIN_SAMPLES + 1 captures (changes/detect/timing.ts), which five
 * did not reach either; WATCH_RECAPTURES=10 for the full acceptance run, which does.
 */
const CAPTURES = Math.max(2, Number(process.env.WATCH_RECAPTURES ?? 3));

const state = { headline: "Ship faster with Alpha", cta: "Start free trial", brand: "#2563eb", pricing: true };
const reset = () => Object.assign(state, { headline: "Ship faster with Alpha", cta: "Start free trial", brand: "#2563eb", pricing: true });

const FONT = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
  "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
].find((p) => existsSync(p));

const shell = (title: string, css: string, body: string, script = "") => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>${title}</title><meta name="description" content="${title}: a fixture for change detection.">
<style>
${FONT ? "@font-face{font-family:Display;src:url(/display.ttf) format('truetype');font-display:swap}" : ""}
body{margin:0;font-family:sans-serif;color:#111827;background:#fff}
header{display:flex;justify-content:space-between;align-items:center;height:72px;padding:0 48px;border-bottom:1px solid #e5e7eb}
header nav a{margin-left:24px;color:#374151;text-decoration:none}
.hero{padding:120px 48px;text-align:center;background:#f8fafc}
h1{font-family:Display,serif;font-size:52px;margin:0 0 16px}
.btn{display:inline-block;padding:14px 28px;border-radius:8px;color:#fff;text-decoration:none;font-weight:600}
section{padding:80px 48px;min-height:320px;box-sizing:border-box}
.cards{display:flex;gap:24px}.card{flex:1;padding:24px;border:1px solid #e5e7eb;border-radius:8px}
footer{padding:48px;background:#0f172a;color:#cbd5e1}
${css}
</style></head><body>
<header><strong>Alpha</strong><nav><a href="/docs">Docs</a><a href="/pricing">Pricing</a><a href="/login">Log in</a></nav></header>
${body}
<footer><p>© Alpha Inc. All rights reserved.</p></footer>
${script ? `<script>${script}</script>` : ""}
</body></html>`;

const plain = () =>
  shell(
    "Alpha",
    `.btn.primary{background:${state.brand}}.btn.dark{background:#111827}`,
    `<div class="hero"><h1>${state.headline}</h1><p>The deployment platform for small teams.</p><a class="btn primary" href="/signup">${state.cta}</a></div>
<section><h2>Features</h2><div class="cards"><div class="card"><h3>Previews</h3><p>Every branch gets its own URL.</p></div>
<div class="card"><h3>Rollbacks</h3><p>One click back to any deploy.</p></div><div class="card"><h3>Logs</h3><p>Search every request.</p></div></div>
<img src="/photo.png" loading="lazy" alt="Dashboard" width="600" height="300" style="display:block;margin:48px auto 0"></section>
${state.pricing ? `<section style="background:#eef2ff"><h2>Pricing</h2><p>Free for hobby projects, 20 dollars per seat for teams.</p><a class="btn dark" href="/sales">Talk to sales</a></section>` : ""}
<section><h2>Customers</h2><p>Teams at 4,000 companies deploy with Alpha every day.</p></section>`,
  );

// Infinite and one-off CSS animations and transitions; the capture freezes them for the screenshot.
const animated = () =>
  shell(
    "Animated",
    `@keyframes spin{to{transform:rotate(360deg)}}@keyframes pulse{50%{transform:scale(1.06)}}@keyframes rise{from{opacity:0;transform:translateY(40px)}to{opacity:1;transform:none}}
@keyframes shimmer{to{background-position:200% 0}}
.spinner{width:48px;height:48px;border:6px solid #c7d2fe;border-top-color:#4f46e5;border-radius:50%;animation:spin .8s linear infinite;margin:0 auto 24px}
.btn.primary{background:#4f46e5;animation:pulse 1.2s ease-in-out infinite}
.hero h1{animation:rise 1.5s ease-out both}
.bar{height:24px;border-radius:12px;background:linear-gradient(90deg,#e0e7ff,#a5b4fc,#e0e7ff);background-size:200% 100%;animation:shimmer 1s linear infinite}
.card{transition:box-shadow .4s}.card:hover{box-shadow:0 8px 24px #0002}`,
    `<div class="hero"><div class="spinner"></div><h1>Always in motion</h1><p>Animations everywhere, nothing changes.</p><a class="btn primary" href="/go">Get started</a></div>
<section><h2>Loading states</h2><div class="bar"></div><div class="cards" style="margin-top:24px"><div class="card"><h3>One</h3><p>First card.</p></div><div class="card"><h3>Two</h3><p>Second card.</p></div></div></section>`,
  );

// Two carousels that rotate on timers: a fade one (display toggling) and a sliding track clipped
// by its container. Class names avoid the words "carousel"/"slider" on purpose.
const carousel = () =>
  shell(
    "Carousel",
    `.promo{position:relative;height:260px;max-width:900px;margin:0 auto}.promo .item{display:none;height:260px;padding:40px;box-sizing:border-box;border-radius:12px}
.promo .item.current{display:block}
.strip-viewport{overflow:hidden;max-width:700px;margin:40px auto;border-radius:12px}.strip{display:flex;transition:transform .3s}
.strip .panel{flex:0 0 100%;height:200px;padding:32px;box-sizing:border-box}`,
    `<div class="hero"><h1>Deals this week</h1><p>Something new every time you look.</p></div>
<section><div class="promo">
<div class="item current" style="background:#fde68a"><h2>Fast shipping</h2><p>Orders leave the warehouse the same day.</p><a class="btn" style="background:#b45309" href="/ship">Shop shipping</a></div>
<div class="item" style="background:#bbf7d0"><h2>Free returns</h2><p>Send it back within 60 days, on us.</p><a class="btn" style="background:#15803d" href="/returns">Start a return</a></div>
<div class="item" style="background:#fbcfe8"><h2>Gift cards</h2><p>The present that always fits.</p><a class="btn" style="background:#be185d" href="/gifts">Buy a gift card</a></div>
</div>
<div class="strip-viewport"><div class="strip">
<div class="panel" style="background:#e0f2fe"><h3>Rated 4.9 by 2,000 shoppers</h3></div>
<div class="panel" style="background:#ede9fe"><h3>Carbon-neutral delivery</h3></div>
<div class="panel" style="background:#fee2e2"><h3>Support that answers in minutes</h3></div>
</div></div></section>
<section><h2>About us</h2><p>A small shop with a big catalogue.</p></section>`,
    `const items = document.querySelectorAll(".promo .item"); let i = 0;
setInterval(() => { items[i].classList.remove("current"); i = (i + 1) % items.length; items[i].classList.add("current"); }, 350);
const strip = document.querySelector(".strip"); let j = 0;
setInterval(() => { j = (j + 1) % 3; strip.style.transform = "translateX(" + (-100 * j) + "%)"; }, 550);`,
  );

// Things that hide siblings without moving by themselves: tabs, a list whose tail waits behind
// "Show more", a collapsed mobile menu, a closed disclosure.
const still = () =>
  shell(
    "Still",
    `.tabs [role=tabpanel][hidden]{display:none}.more li.extra{display:none}.menu{display:none}`,
    `<div class="hero"><h1>Nothing moves here</h1></div>
<section><div class="tabs"><div role="tablist"><button role="tab" aria-selected="true">Monthly</button><button role="tab">Yearly</button></div>
<div role="tabpanel"><p>20 dollars a month</p></div><div role="tabpanel" hidden><p>200 dollars a year</p></div></div>
<ul class="more"><li>One</li><li>Two</li><li>Three</li><li>Four</li><li>Five</li><li>Six</li><li class="extra">Seven</li><li class="extra">Eight</li></ul>
<nav class="menu"><a href="/a">A</a><a href="/b">B</a></nav>
<details><summary>Terms</summary><p>Cancel any time.</p></details></section>`,
  );

const PHOTO = (() => {
  const png = new PNG({ width: 600, height: 300 });
  for (let y = 0; y < 300; y++) for (let x = 0; x < 600; x++) png.data.set([30 + (x % 200), 80 + (y % 150), 160, 255], (y * 600 + x) * 4);
  return PNG.sync.write(png);
})();

let server: ReturnType<typeof Bun.serve>;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const { pathname } = new URL(req.url);
      const page = { "/plain": plain, "/animated": animated, "/carousel": carousel, "/still": still }[pathname];
      if (page) return new Response(page(), { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
      if (pathname === "/photo.png") return new Response(new Uint8Array(PHOTO), { headers: { "content-type": "image/png" } });
      if (pathname === "/display.ttf" && FONT) return new Response(Bun.file(FONT), { headers: { "content-type": "font/ttf" } });
      return new Response("not here", { status: 404 });
    },
  });
  browser = await launchBrowser();
  dir = mkdtempSync(join(tmpdir(), "watch-changes-"));
});

afterAll(async () => {
  await browser?.close();
  server?.stop(true);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Capture {
  extraction: Extraction;
  screenshotPath: string;
  volatility: Volatility;
}

async function capture(path: string): Promise<Capture> {
  const job: CaptureJob = {
    jobId: crypto.randomUUID(),
    url: `http://127.0.0.1:${server.port}${path}`,
    viewport: "desktop",
    screenshotPath: join(dir, `${crypto.randomUUID()}.png`),
    allowPrivate: true,
    navigationTimeoutMs: 15_000,
    totalTimeoutMs: 45_000,
    maxHeightPx: 16_000,
    // Extra timing loads only where timing is judged (from MIN_SAMPLES + 1 captures); short of that
    // they were most of a capture's time on a busy machine and fed nothing here.
    timingSamples: CAPTURES > MIN_SAMPLES ? undefined : Number(TEST_TIMING_SAMPLES),
  };
  const probe = instrumentVolatility(browser);
  const { extraction, screenshotPath } = await capturePage(probe.browser, job, () => {});
  return { extraction, screenshotPath, volatility: probe.report() };
}

/**
 * The unchanged /plain page's first capture: the baseline of its recaptures below and of the
 * switched-content tests, which captured the same reset page again for theirs.
 */
let plainFirst: Promise<Capture> | undefined;
const firstPlain = () => (plainFirst ??= (reset(), capture("/plain")));

/** What the watch does between two runs of one target: every kind, with the target's history. */
async function compare(history: Capture[], before: Capture, after: Capture): Promise<Change[]> {
  const { changes, visual } = await compareCaptures({ before, after, history });
  expect(visual).not.toBeNull();
  return changes;
}

describe("unchanged pages report zero changes", () => {
  for (const path of ["/plain", "/animated", "/carousel"]) {
    test(`${path}: ${CAPTURES} captures, every consecutive pair and every capture against the first`, async () => {
      reset();
      const captures: Capture[] = [];
      for (let i = 0; i < CAPTURES; i++) {
        const next = await (i === 0 && path === "/plain" ? firstPlain() : capture(path));
        if (captures.length > 0) {
          const prev = captures[captures.length - 1]!;
          expect({ pair: `${i - 1}→${i}`, changes: (await compare(captures.slice(0, -1), prev, next)).map((c) => c.summary) }).toEqual({
            pair: `${i - 1}→${i}`,
            changes: [],
          });
          // (For the second capture that is the pair above, history and all: not compared twice.)
          if (i > 1)
            expect({ pair: `0→${i}`, changes: (await compare([], captures[0]!, next)).map((c) => c.summary) }).toEqual({
              pair: `0→${i}`,
              changes: [],
            });
        }
        captures.push(next);
      }
      if (path === "/carousel") {
        // The probe found both rotations, the hidden slides' text included.
        const v = mergeVolatility(...captures.map((c) => c.volatility));
        expect(v.texts.some((t) => t.includes("gift cards"))).toBe(true);
        expect(v.texts.some((t) => t.includes("support that answers in minutes"))).toBe(true);
        expect(v.boxes.length).toBeGreaterThanOrEqual(2);
      } else {
        expect(captures.every((c) => c.volatility.boxes.length === 0)).toBe(true);
      }
    });
  }
});

test("the probe does not take tabs, a show-more list, a hidden menu or a closed disclosure for rotations", async () => {
  const { volatility } = await capture("/still");
  expect(volatility).toEqual({ texts: [], boxes: [], colors: [], fading: false });
});

describe("switched content is reported with its kind and values", () => {
  let baseline: Capture;
  beforeAll(async () => {
    baseline = await firstPlain();
  });
  const brief = (c: Change) => ({ kind: c.kind, summary: c.summary, before: c.before, after: c.after });
  const kinds = (changes: Change[]) => [...new Set(changes.map((c) => c.kind))].sort();

  test("CTA text", async () => {
    reset();
    state.cta = "Book a demo";
    const changes = await compare([], baseline, await capture("/plain"));
    expect(changes.filter((c) => c.kind === "cta").map(brief)).toEqual([
      { kind: "cta", summary: "CTA text “Start free trial” → “Book a demo”", before: "Start free trial", after: "Book a demo" },
    ]);
    expect(changes.find((c) => c.kind === "cta")!.severity).toBe("high");
    expect(kinds(changes)).toEqual(["cta", "visual"]);
  });

  test("brand colour", async () => {
    reset();
    state.brand = "#dc2626";
    const changes = await compare([], baseline, await capture("/plain"));
    const palette = changes.filter((c) => c.kind === "palette");
    expect(palette.map((c) => [c.before, c.after])).toContainEqual(["#2563eb", "#dc2626"]);
    expect(palette.find((c) => c.before === "#2563eb")!.summary).toMatch(
      /^Button colour #2563eb → #dc2626 \(ΔE \d+\.\d, \d+% of buttons\)$/,
    );
    expect(changes.filter((c) => c.kind === "cta").map((c) => [c.before, c.after])).toEqual([["#2563eb", "#dc2626"]]);
    expect(kinds(changes)).toEqual(["cta", "palette", "visual"]);
  });

  test("removed section", async () => {
    reset();
    state.pricing = false;
    const changes = await compare([], baseline, await capture("/plain"));
    const layout = changes.filter((c) => c.kind === "layout");
    expect(layout).toHaveLength(1);
    expect(layout[0]!.summary).toMatch(/^Removed: Section “Pricing” \(\d+ px tall at \d+ px\)$/);
    expect(layout[0]!.after).toBeNull();
    expect(changes.filter((c) => c.kind === "copy").map(brief)).toEqual([
      {
        kind: "copy",
        summary: "Text removed: “Pricing”, “Free for hobby projects, 20 dollars per seat for…”",
        before: "Pricing\nFree for hobby projects, 20 dollars per seat for teams.",
        after: null,
      },
    ]);
    expect(changes.filter((c) => c.kind === "cta").map(brief)).toEqual([
      { kind: "cta", summary: "CTA removed: “Talk to sales” (below the fold)", before: "Talk to sales", after: null },
    ]);
    // The section's dark button was the page's only one: that button colour is gone from the palette.
    expect(changes.filter((c) => c.kind === "palette").map((c) => [c.before, c.after, c.summary.replace(/\d+%/, "N%")])).toEqual([
      ["#111827", null, "Button colour removed: #111827 (was N% of buttons)"],
    ]);
    expect(kinds(changes)).toEqual(["copy", "cta", "layout", "palette", "visual"]);
  });

  test("headline", async () => {
    reset();
    state.headline = "Deploy in seconds";
    const changes = await compare([], baseline, await capture("/plain"));
    expect(changes.filter((c) => c.kind === "copy").map(brief)).toEqual([
      {
        kind: "copy",
        summary: "Headline “Ship faster with Alpha” → “Deploy in seconds”",
        before: "Ship faster with Alpha",
        after: "Deploy in seconds",
      },
    ]);
    const visual = changes.find((c) => c.kind === "visual")!;
    // The changed pixels are where the headline is.
    const h1 = baseline.extraction.elements.headings.find((h) => h.level === 1)!.box;
    expect(visual.evidence.regions!.some((r) => r.y <= h1.y + h1.height && r.y + r.height >= h1.y)).toBe(true);
    expect(kinds(changes)).toEqual(["copy", "visual"]);
  });
});
