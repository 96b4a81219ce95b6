// Leaving a page the instant it loaded must not sign anyone out. Every page load refreshes the
// session (spec: "On start a refresh is attempted") and refresh tokens rotate, so a refresh cut off
// by the navigation would leave the browser holding a cookie the server had already rotated;
// the next load would present it again, which reads as a stolen token and ends the session.
// Without the safeguards it happens within a few quick navigations.
//
// Each page is left once its start-up refresh is on the wire, not at a guessed moment after
// DOMContentLoaded (often before the refresh had even started). Without the keepalive this file
// fails within a few navigations (at most 13 when leaving at a guessed moment), and without the
// rotated cookie's grace within 2; so 24 navigations per way of leaving, as 3 rounds of 8, each way in a session of its own carried from round
// to round (the cookie each round ends with is the next one's). Each round is a test of its own, bounded by
// its steps: on a busy machine 40 navigations in one test ran past any fixed budget, and a test
// that times out takes the server and browser of the file with it. When a round times out, the
// next round starts a new server, browser and session rather than fail for the last one's sake.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, signUpInto, stepsTimeout } from "#tests/support/browser";
import { SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";

const ROUNDS = 3;
const PER_ROUND = 8;
const GUARD = "Sign In to Continue";

let server: RunningServer | undefined;
let browser: Browser | undefined;

/** One signed-in session in a browser context of its own, carried from round to round. */
interface Lane {
  context?: BrowserContext;
  page: Page;
  email: string;
}
// The two ways of leaving run side by side, each in its own session (refresh tokens rotate, so one
// session per browser context): most of a navigation is waiting, and the two overlap.
const leaving: Lane = { page: undefined as never, email: "" };
const straight: Lane = { page: undefined as never, email: "" };

async function signIn(lane: Lane) {
  lane.email = `quick-${crypto.randomUUID()}@example.com`;
  lane.context = await browser!.newContext();
  await signUpInto(lane.context, server!.url, lane.email, "correct-horse-battery");
  lane.page = await lane.context.newPage();
}

// Up, and signed in: at the first round, and again after a round whose timeout killed them.
beforeEach(async () => {
  if (!server || server.proc.exitCode !== null || server.proc.signalCode !== null) {
    await server?.stop().catch(() => {});
    server = await startServer();
    leaving.context = straight.context = undefined;
  }
  if (!browser?.isConnected()) {
    browser = await launchBrowser({ calm: true });
    leaving.context = straight.context = undefined;
  }
  for (const lane of [leaving, straight]) if (!lane.context) await signIn(lane);
}, SERVER_START_MS + 30_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * The session is alive: a settled page load renders signed in. (Not by calling refresh from the
 * test: racing the page's own refresh with the same cookie is exactly a replay.)
 */
async function expectStillSignedIn({ page, email }: Lane) {
  await page.goto(`${server!.url}/dashboard`, { waitUntil: "networkidle" });
  const html = await page.content();
  expect(html).not.toContain(GUARD);
  expect(html).toContain(email);
}

/** How long after its refresh went out a page is left: moments of the refresh's round trip on loopback. */
const CUT_MS = [0, 5, 10, 15];

/**
 * Opens `url` and returns once its start-up refresh has been sent (signed-in pages send one). By
 * its referer: the page being left may send its own refresh meanwhile.
 */
async function loadUntilRefreshSent(page: Page, url: string, what: string) {
  const sent = page.waitForRequest((r) => r.url().endsWith("/api/auth/refresh") && r.headers()["referer"] === url);
  await page.goto(url, { waitUntil: "commit" });
  await sent.catch(() => {
    throw new Error(`${what}: no session refresh started (a page rendered signed out starts none)`);
  });
}

/** Leaving each page mid-refresh (through about:blank): the refresh is not cancelled. */
async function leaveMidRefresh(lane: Lane, turns: number[]) {
  const { page } = lane;
  for (const i of turns) {
    await loadUntilRefreshSent(page, `${server!.url}/login`, `leaving, navigation ${i}`);
    await Bun.sleep(CUT_MS[i % CUT_MS.length]!); // leave at a different moment of the refresh each time
    await page.goto("about:blank");
    await page.goto(`${server!.url}/dashboard`, { waitUntil: "domcontentloaded" });
    expect(await page.content(), `leaving, navigation ${i}`).not.toContain(GUARD);
  }
  await expectStillSignedIn(lane);
}

/** Straight to the next page: it renders signed in even when its request carries the cookie just rotated. */
async function goStraightOn(lane: Lane, turns: number[]) {
  const { page } = lane;
  for (const i of turns) {
    await loadUntilRefreshSent(page, `${server!.url}/activity`, `straight on, navigation ${i}`);
    await Bun.sleep(CUT_MS[i % CUT_MS.length]!);
    await page.goto(`${server!.url}/dashboard`, { waitUntil: "domcontentloaded" });
    expect(await page.content(), `straight on, navigation ${i}`).not.toContain(GUARD);
  }
  await expectStillSignedIn(lane);
}

// Bun's timeout is a backstop past the steps' own (each Playwright step fails by itself after
// STEP_TIMEOUT_MS): three navigations per turn and the closing check, plus the sign-up, per way.
const ROUND_TIMEOUT_MS = stepsTimeout(2 * (PER_ROUND * 3 + 2));

describe("quick navigations keep the session", () => {
  for (let round = 0; round < ROUNDS; round++) {
    const turns = Array.from({ length: PER_ROUND }, (_, k) => round * PER_ROUND + k);

    test(
      `navigations ${turns[0]! + 1}-${turns.at(-1)! + 1} of ${ROUNDS * PER_ROUND} each way: leaving each page mid-refresh, the session survives (the refresh is not cancelled); straight to the next page, it renders signed in even when its request carries the cookie just rotated`,
      async () => {
        const [a, b] = await Promise.allSettled([leaveMidRefresh(leaving, turns), goStraightOn(straight, turns)]);
        const failed = [a, b].flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
        if (failed.length) throw failed[0];
      },
      ROUND_TIMEOUT_MS,
    );
  }
});
