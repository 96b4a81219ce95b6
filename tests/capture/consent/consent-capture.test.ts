// Consent banners in real Chromium, on fixture sites that reproduce OneTrust's and Cookiebot's
// markup and behaviour offline, and on one with a home-made banner no rule knows
// (tests/fixtures/sites/consent-*). reject and accept answer a known banner (it is gone from the
// screenshot), keep leaves it, an unknown one is reported unhandled; a banner left on screen is
// masked, and nothing in any banner reaches the calls to action, the contrast list or a finding.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { PNG } from "pngjs";
import { findingsFor } from "#server/modules/analysis/findings";
import { capturePage } from "#server/modules/capture/capture";
import type { ConsentPolicy, Extraction, Viewport } from "#server/modules/capture/model";
import { launchBrowser } from "#tests/support/browser";
import { testCaptureJob } from "#tests/support/capture-job";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";

setDefaultTimeout(90_000); // one capture, and up to the consent phase's own 8 s, on a busy machine

let browser: Browser;
let server: FixtureServer;
const dir = mkdtempSync(join(tmpdir(), "consent-capture-"));
beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startFixtureServer()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Each banner's own background, a colour its page never paints, and the texts it holds. */
const BANNERS = {
  onetrust: {
    site: "consent-onetrust",
    rgb: [0x1f, 0x2a, 0x44],
    texts: ["Accept All Cookies", "Reject All", "Cookie Settings", "Cookie Policy", "We value your privacy"],
  },
  cookiebot: {
    site: "consent-cookiebot",
    rgb: [0x10, 0x32, 0xcf],
    texts: ["Allow all cookies", "Allow selection", "Use necessary cookies only", "14 partners", "This website uses cookies"],
  },
  homemade: { site: "consent-homemade", rgb: [0xfd, 0xe6, 0x8a], texts: ["Accept all", "Reject", "change your mind", "We use cookies"] },
} as const;
type Banner = keyof typeof BANNERS;

async function capture(banner: Banner | "alpha", consent: ConsentPolicy | undefined, viewport: Viewport = "desktop") {
  const site = banner === "alpha" ? "alpha" : BANNERS[banner].site;
  const job = testCaptureJob(server.url(`/${site}/`), dir, { consent, viewport });
  const stages: string[] = [];
  const { extraction, screenshotPath } = await capturePage(browser, job, (s) => stages.push(s));
  return { extraction, png: PNG.sync.read(readFileSync(screenshotPath)), looks: stages.filter((s) => s === "measuring").length };
}

/** Pixels of exactly this colour in the screenshot. */
function count(png: PNG, [r, g, b]: readonly number[]): number {
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) if (png.data[i] === r && png.data[i + 1] === g && png.data[i + 2] === b) n++;
  return n;
}

/** Everything the measurements hold that a banner's text could have reached. */
const measuredTexts = (e: Extraction) =>
  JSON.stringify([e.elements.ctas, e.elements.headings, e.accessibility.lowContrast, e.copy.headline, e.copy.visibleText]);

function expectNothingFrom(banner: Banner, e: Extraction) {
  const measured = measuredTexts(e);
  for (const text of BANNERS[banner].texts) expect(measured).not.toContain(text);
}

describe("known consent platforms", () => {
  test("OneTrust, reject: its reject button is clicked, the banner is gone from the screenshot, nothing masked", async () => {
    const { extraction, png, looks } = await capture("onetrust", "reject");
    expect(extraction.consent).toEqual({ found: true, cmp: "onetrust", action: "rejected" });
    expect(extraction.masks).toEqual([]);
    expect(count(png, BANNERS.onetrust.rgb)).toBe(0);
    expectNothingFrom("onetrust", extraction);
    expect(extraction.elements.ctas.map((c) => c.text)).toEqual(["Book a demo"]);
    // The banner closing after the answer (its fade's end, then display: none) is not the page changing.
    expect(looks).toBe(1);
  });

  test("OneTrust, keep: the banner is in the screenshot, recorded as kept, masked out of every measurement", async () => {
    const { extraction, png } = await capture("onetrust", "keep");
    expect(extraction.consent).toEqual({ found: true, cmp: "onetrust", action: "kept" });
    expect(count(png, BANNERS.onetrust.rgb)).toBeGreaterThan(50_000);
    // The banner's box: the width of the viewport, along its bottom edge.
    expect(extraction.masks).toHaveLength(1);
    const [mask] = extraction.masks!;
    expect(mask).toMatchObject({ x: 0, width: 1440 });
    expect(mask!.y + mask!.height).toBe(900);
    expectNothingFrom("onetrust", extraction);
    // Nor in the colours the screenshot's pixels gave: the page's own background stands in for the banner.
    expect(extraction.palette.dominant.map((c) => c.hex)).not.toContain("#1f2a44");
  });

  test("Cookiebot, reject: the rule's decline is clicked and the dialog is gone", async () => {
    const { extraction, png } = await capture("cookiebot", "reject");
    expect(extraction.consent).toEqual({ found: true, cmp: "cybotcookiebot", action: "rejected" });
    expect(extraction.masks).toEqual([]);
    expect(count(png, BANNERS.cookiebot.rgb)).toBe(0);
    expectNothingFrom("cookiebot", extraction);
  });

  test("Cookiebot, accept: every purpose accepted, the dialog is gone", async () => {
    const { extraction, png } = await capture("cookiebot", "accept");
    expect(extraction.consent).toEqual({ found: true, cmp: "cybotcookiebot", action: "accepted" });
    expect(count(png, BANNERS.cookiebot.rgb)).toBe(0);
  });

  test("Cookiebot, keep: the centred dialog stays on screen, masked", async () => {
    const { extraction, png } = await capture("cookiebot", "keep");
    expect(extraction.consent).toEqual({ found: true, cmp: "cybotcookiebot", action: "kept" });
    expect(count(png, BANNERS.cookiebot.rgb)).toBeGreaterThan(5_000);
    expect(extraction.masks).toHaveLength(1);
    const [mask] = extraction.masks!;
    // Centred in the first screen.
    expect(Math.abs(mask!.x + mask!.width / 2 - 720)).toBeLessThanOrEqual(2);
    expect(Math.abs(mask!.y + mask!.height / 2 - 450)).toBeLessThanOrEqual(2);
    expectNothingFrom("cookiebot", extraction);
  });
});

describe("a banner no rule knows", () => {
  test("measured as it is without consent handling, its buttons and pale text are taken for the page's", async () => {
    const { extraction } = await capture("homemade", undefined);
    expect(extraction.consent).toBeUndefined();
    const measured = measuredTexts(extraction);
    expect(measured).toContain("Accept all");
    expect(measured).toContain("change your mind");
  });

  test("reject: reported unhandled, left on screen and masked; none of it is measured", async () => {
    const { extraction, png } = await capture("homemade", "reject");
    expect(extraction.consent).toEqual({ found: true, cmp: null, action: "unhandled" });
    expect(count(png, BANNERS.homemade.rgb)).toBeGreaterThan(20_000);
    expect(extraction.masks).toHaveLength(1);
    // The card in the bottom left corner, 24 px from the edges.
    expect(extraction.masks![0]).toMatchObject({ x: 24, width: 380 });
    expect(extraction.masks![0]!.y + extraction.masks![0]!.height).toBe(900 - 24);
    expectNothingFrom("homemade", extraction);
    expect(extraction.elements.ctas.map((c) => c.text)).toEqual(["Start a project"]);
  });

  test("on the phone too", async () => {
    const { extraction } = await capture("homemade", "reject", "mobile");
    expect(extraction.consent).toEqual({ found: true, cmp: null, action: "unhandled" });
    expect(extraction.masks).toHaveLength(1);
    expect(extraction.masks![0]).toMatchObject({ x: 24, width: 390 - 48 });
    expectNothingFrom("homemade", extraction);
  });
});

describe("no banner, and findings", () => {
  test("a page without a banner: found false, nothing masked, measured as before", async () => {
    const { extraction } = await capture("alpha", "reject");
    expect(extraction.consent).toEqual({ found: false });
    expect(extraction.masks).toEqual([]);
    expect(extraction.elements.ctas.length).toBe(7);
  });

  test("no contrast or call-to-action finding comes from any banner", async () => {
    const pages = await Promise.all(
      (["onetrust", "cookiebot", "homemade"] as const).map(async (b, i) => ({
        targetId: `t${i}`,
        label: b,
        viewport: "desktop" as const,
        extraction: (await capture(b, "keep")).extraction,
      })),
    );
    const findings = JSON.stringify(findingsFor(pages));
    for (const b of Object.keys(BANNERS) as Banner[]) for (const text of BANNERS[b].texts) expect(findings).not.toContain(text);
  });
});
