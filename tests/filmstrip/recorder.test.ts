// The capture side of the filmstrip, in real Chromium against a fixture site: frames of the load,
// timed from navigation start, small, bounded, and written with their manifest.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import {
  FILMSTRIP_LIMITS,
  filmstripDirFor,
  filmstripManifestSchema,
  MANIFEST_FILE,
  recordFilmstrip,
} from "#server/modules/capture/filmstrip/filmstrip";
import { launchBrowser } from "#tests/support/browser";
import { phoneLayout } from "#tests/support/phone-layout";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";

let browser: Browser;
let sites: FixtureServer;
const dir = mkdtempSync(join(tmpdir(), "di-filmrec-"));

beforeAll(async () => {
  sites = startFixtureServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await sites?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("records the page loading as small JPEG frames on the navigation time axis", async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const screenshotPath = join(dir, "snap1.png");
  const recorder = await recordFilmstrip(context, page, screenshotPath);
  await page.goto(sites.url("/beta/"), { waitUntil: "load" });
  const fcp = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null);
  await recorder.stop();
  // What the page paints after stop() (here: a scroll) is not part of its load.
  const stoppedAt = Date.now();
  await page.evaluate(() => window.scrollTo(0, 600));
  const manifest = await recorder.saved();
  const origin = await page.evaluate(() => performance.timeOrigin);
  await context.close();

  expect(manifest).not.toBeNull();
  const folder = filmstripDirFor(screenshotPath);
  expect(folder).toBe(join(dir, "filmstrips", "snap1"));
  const onDisk = filmstripManifestSchema.parse(JSON.parse(readFileSync(join(folder, MANIFEST_FILE), "utf8")));
  expect(onDisk).toEqual(manifest!);
  expect(onDisk.width).toBe(1440);
  expect(onDisk.height).toBe(900);
  expect(onDisk.frames.length).toBeGreaterThan(0);
  expect(onDisk.frames.length).toBeLessThanOrEqual(FILMSTRIP_LIMITS.maxFrames);
  const times = onDisk.frames.map((f) => f.ms);
  expect(times).toEqual([...times].sort((a, b) => a - b));
  expect(times[0]!).toBeGreaterThanOrEqual(0);
  // Frame times are whole milliseconds (rounded), the cut is not.
  expect(times.at(-1)!).toBeLessThanOrEqual(Math.round(stoppedAt - origin));
  // A painted page has a frame no later than shortly after its first contentful paint.
  if (fcp !== null) expect(times.some((t) => t <= fcp + 500)).toBe(true);
  for (const f of onDisk.frames) {
    const bytes = readFileSync(join(folder, f.file));
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]); // JPEG
    expect(statSync(join(folder, f.file)).size).toBeLessThan(60_000); // low resolution
  }
});

test("a page that never navigates leaves no recording", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const recorder = await recordFilmstrip(context, page, join(dir, "snap2.png"));
  await context.close();
  await recorder.stop();
  expect(await recorder.saved()).toBeNull();
});

/** Holds the browser's one trace from another page, as a second capture recording in the same browser would. */
async function holdTrace() {
  const context = await browser.newContext();
  const session = await context.newCDPSession(await context.newPage());
  await session.send("Tracing.start", { traceConfig: { includedCategories: ["di-test-nothing"], excludedCategories: ["*"] } });
  return { release: () => context.close() };
}

/** Whether this browser can start a trace now: a recording that kept it would push every later one onto the screencast. */
async function traceFree(): Promise<boolean> {
  const context = await browser.newContext();
  try {
    const session = await context.newCDPSession(await context.newPage());
    return await session.send("Tracing.start", { traceConfig: { includedCategories: ["di-test-nothing"] } }).then(
      () => true,
      () => false,
    );
  } finally {
    await context.close();
  }
}

test("while another page of the browser holds its trace, the recording falls back to the screencast", async () => {
  const other = await holdTrace();
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const recorder = await recordFilmstrip(context, page, join(dir, "snap3.png"));
    await page.goto(sites.url("/gamma/"), { waitUntil: "load" });
    await recorder.stop();
    const manifest = await recorder.saved();
    await context.close();
    expect(manifest).not.toBeNull();
    expect([manifest!.width, manifest!.height]).toEqual([390, 844]);
    expect(manifest!.frames.length).toBeGreaterThan(0);
    expect(manifest!.frames[0]!.ms).toBeGreaterThanOrEqual(0);
  } finally {
    await other.release();
  }
});

test("a recording gives the browser's trace back, also when its page closes first", async () => {
  expect(await traceFree()).toBe(true);
  const context = await browser.newContext();
  const page = await context.newPage();
  const recorder = await recordFilmstrip(context, page, join(dir, "snap4.png"));
  expect(await traceFree()).toBe(false); // the recording is the trace's (not the screencast's)
  await page.goto(sites.url("/alpha/"), { waitUntil: "load" });
  await recorder.stop();
  await recorder.saved();
  expect(await traceFree()).toBe(true);

  const closing = await browser.newContext();
  const early = await recordFilmstrip(closing, await closing.newPage(), join(dir, "snap5.png"));
  await closing.close();
  await early.stop();
  expect(await early.saved()).toBeNull();
  expect(await traceFree()).toBe(true);
  await context.close();
});

test("a page that paints nothing while recorded gets its first screen as the one frame, and a phone page keeps its emulation", async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.setContent(
    `<body style="margin:0"><div style="height:3000px;background:linear-gradient(#fef3c7,#1e3a8a)">A tall still page, no viewport meta</div></body>`,
  );
  const state = () => phoneLayout(page);
  const before = await state();
  expect(before.coarse).toBe(true);
  const recorder = await recordFilmstrip(context, page, join(dir, "snap6.png"), true);
  await recorder.stop(); // nothing repainted since the recording started
  const manifest = await recorder.saved();
  expect(manifest?.frames).toHaveLength(1);
  expect(await state()).toEqual(before);
  await context.close();
});
