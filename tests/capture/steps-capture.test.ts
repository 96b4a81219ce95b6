// Steps before capture in real Chromium, through the capture pool's worker, against a fixture site
// with a sign-in form (tests/fixtures/sites/login-site, tests/support/login-site.ts): its pricing
// page behind the login is captured signed in; a step that cannot be done fails the page with its
// number, its error and a screenshot; a secret is never typed on another origin (a page a click
// led to, a frame) and a goto never leaves the site; the secret's value is in no result; and two
// pages of the site share one sign-in.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { findChromium } from "#server/lib/chromium";
import { CapturePool } from "#server/modules/capture/browser/pool";
import { createStepSessions, type CaptureJobInput, type CaptureResult } from "#server/modules/capture/public";
import type { Step } from "#server/modules/capture/steps/model";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { LOGIN_EMAIL, LOGIN_PASSWORD, loginSite } from "#tests/support/login-site";

// A capture each test, two in the last; each within the pool's 60 s.
setDefaultTimeout(180_000);

let site: FixtureServer;
let partner: FixtureServer;
let pool: CapturePool;
let dir: string;

beforeAll(() => {
  partner = startFixtureServer(
    undefined,
    loginSite(() => partner.origin),
  );
  site = startFixtureServer(
    undefined,
    loginSite(() => partner.origin),
  );
  dir = mkdtempSync(join(tmpdir(), "steps-capture-"));
  pool = new CapturePool({
    concurrency: 1,
    chromiumPath: findChromium(process.env.CHROMIUM_PATH),
    allowPrivate: true,
    navigationTimeoutMs: 30_000,
    totalTimeoutMs: 60_000,
    timingSamples: 1,
  });
});

afterAll(async () => {
  await pool?.close();
  await Promise.all([site?.close(), partner?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const signIn: Step[] = [
  { type: "fill", selector: "#email", value: LOGIN_EMAIL },
  { type: "fill", selector: "#password", value: "{{secret:password}}" },
  { type: "click", text: "Sign in" },
  { type: "wait", selector: "#plan, #features" },
];

const job = (path: string, steps: Step[], secrets: Record<string, string> = { password: LOGIN_PASSWORD }): CaptureJobInput => ({
  url: site.url(path),
  viewport: "desktop",
  screenshotPath: join(dir, `${crypto.randomUUID()}.png`),
  steps,
  secrets,
  siteOrigin: site.origin,
});

const capture = (input: CaptureJobInput) => pool.submit("owner", input);

/** The result holds the secret nowhere, in no spelling. */
function expectNoSecret(result: CaptureResult) {
  const text = JSON.stringify(result);
  expect(text).not.toContain(LOGIN_PASSWORD);
  expect(text).not.toContain(JSON.stringify(LOGIN_PASSWORD).slice(1, -1));
  expect(text).not.toContain(encodeURIComponent(LOGIN_PASSWORD));
}

function stepFailure(result: CaptureResult) {
  if (result.ok || !("step" in result)) throw new Error(`expected a step failure, got ${JSON.stringify(result).slice(0, 300)}`);
  return result;
}

function captured(result: CaptureResult) {
  if (!result.ok) throw new Error(`capture failed: ${result.reason}`);
  return result;
}

const texts = (r: ReturnType<typeof captured>) => JSON.stringify([r.extraction.copy, r.extraction.elements.headings]);

describe("steps before capture", () => {
  test("the pricing page behind the sign-in is captured signed in, its chat widget hidden, monthly prices chosen", async () => {
    const before = site.hits("/login-site/login");
    const steps: Step[] = [
      ...signIn,
      { type: "hide", selector: "#chat" },
      { type: "select", selector: "#period", value: "Monthly" },
      { type: "scroll", selector: "#period" },
    ];
    const result = captured(await capture(job("/login-site/pricing/", steps)));
    expect(texts(result)).toContain("Members' price: $49 per seat, billed");
    // The billing period the select chose (the page's own words are lower case; the options' are capitalised).
    expect(texts(result)).toContain("monthly");
    expect(texts(result)).not.toContain("yearly");
    expect(texts(result)).not.toContain("Sign in to see");
    expect(JSON.stringify(result.extraction)).not.toContain("Chat with us");
    expect(site.hits("/login-site/login")).toBe(before + 1);
    expect("session" in result).toBe(false); // only asked for by the run's shared logins
    expectNoSecret(result);
  });

  test("the signed-out page's 401 fails a capture without steps, not one whose steps sign in", async () => {
    const result = await capture({ ...job("/login-site/pricing/", []), steps: undefined });
    expect(result).toEqual({ ok: false, reason: "The site answered HTTP 401 Unauthorized" });
  });

  test("a step that cannot be done fails the page with its number, its error and a screenshot of where it stopped", async () => {
    const steps: Step[] = [
      { type: "fill", selector: "#email", value: LOGIN_EMAIL },
      { type: "fill", selector: "#password", value: "{{secret:password}}" },
      { type: "click", selector: "#no-such-button" },
    ];
    const result = stepFailure(await capture(job("/login-site/pricing/", steps)));
    expect(result.step.index).toBe(3);
    expect(result.step.error).toMatch(/^nothing on the page matches "#no-such-button" \(waited \d+(\.\d)? s\)$/);
    expect(result.reason).toBe(`Step 3: ${result.step.error}`);
    expect(result.screenshotPath).not.toBeNull();
    const png = PNG.sync.read(readFileSync(result.screenshotPath!));
    expect([png.width, png.height]).toEqual([1440, 900]); // the viewport, not the full page
    expectNoSecret(result);
  });

  test("a secret is not typed on the origin a click led to, and nothing reaches that site", async () => {
    const steps: Step[] = [
      { type: "click", selector: "#partner" },
      { type: "fill", selector: "#password", value: "{{secret:password}}" },
    ];
    const result = stepFailure(await capture(job("/login-site/pricing/", steps)));
    expect(result.step).toEqual({
      index: 2,
      error: `a secret is only typed into ${site.origin}, and the page is on ${partner.origin}`,
    });
    expect(partner.hits("/login-site/partner.html")).toBeGreaterThan(0); // the click did lead there
    expect(partner.hits("/login-site/steal")).toBe(0);
    expectNoSecret(result);
  });

  test("a secret is not typed into a frame of another origin", async () => {
    const steps: Step[] = [
      { type: "fill", selector: "#partner-frame >> internal:control=enter-frame >> #password", value: "{{secret:password}}" },
    ];
    const result = stepFailure(await capture(job("/login-site/pricing/", steps)));
    expect(result.step).toEqual({
      index: 1,
      error: `a secret is only typed into ${site.origin}, and the field's frame is on ${partner.origin}`,
    });
    expect(partner.hits("/login-site/steal")).toBe(0);
  });

  test("a goto off the site fails at that step; a secret the site lacks fails at its step", async () => {
    const off = stepFailure(
      await capture(job("/login-site/pricing/", [{ type: "scroll" }, { type: "goto", url: partner.url("/login-site/partner.html") }])),
    );
    expect(off.step).toEqual({ index: 2, error: `a goto stays on the site (${site.origin})` });
    const missing = stepFailure(await capture(job("/login-site/pricing/", signIn, {})));
    expect(missing.step).toEqual({ index: 2, error: 'the site has no secret named "password"' });
  });

  test("a page that repeats the typed password shows it nowhere in the result", async () => {
    const steps: Step[] = [
      { type: "fill", selector: "#email", value: "nobody@tally.test" },
      { type: "fill", selector: "#password", value: "{{secret:password}}" },
      { type: "press", selector: "#password", value: "Enter" },
      { type: "wait", selector: "#denied" },
    ];
    const result = captured(await capture(job("/login-site/pricing/", steps)));
    expect(texts(result)).toContain("No account for nobody@tally.test");
    expect(texts(result)).toContain("[secret]");
    expectNoSecret(result);
  });

  test("steps run once the consent banner is answered, and the snapshot still records what was done about it", async () => {
    const input = { ...job("/consent-onetrust/", [{ type: "scroll" }, { type: "wait", selector: "h1" }], {}), consent: "reject" as const };
    const result = captured(await capture(input));
    expect(result.extraction.consent).toEqual({ found: true, cmp: "onetrust", action: "rejected" });
    expect(result.extraction.masks).toEqual([]);
  });

  test("two pages of the site share one sign-in", async () => {
    const sessions = createStepSessions();
    const before = site.hits("/login-site/login");
    const [pricing, features] = await Promise.all([
      sessions.capture(job("/login-site/pricing/", signIn), capture),
      sessions.capture(job("/login-site/features/", [...signIn, { type: "hide", selector: "#chat" }]), capture),
    ]);
    expect(texts(captured(pricing))).toContain("Members' price");
    expect(texts(captured(features))).toContain("Members' features");
    expect(JSON.stringify(captured(features).extraction)).not.toContain("Chat with us");
    expect(site.hits("/login-site/login")).toBe(before + 1);
    for (const r of [pricing, features]) {
      expect("session" in r).toBe(false);
      expectNoSecret(r);
      expect(existsSync(captured(r).screenshotPath)).toBe(true);
    }
  });
});
