// Which of the capture pool's answers a capture job retries on another worker (the pool's own
// trouble) and which it hands the run as the page's answer (another worker would fare the same).
import { expect, test } from "bun:test";
import { isPoolFault } from "#server/modules/capture/public";
import { NO_CHROMIUM_REASON, POOL_CLOSED_REASON, QUEUE_FULL_REASON } from "#server/modules/capture/browser/pool";
import { LOST_REASON } from "#server/modules/capture/browser/remote-endpoints";
import { SSRF_MESSAGES } from "#server/modules/capture/browser/ssrf";

test("a lost or missing browser, a closing or full pool, a dead worker: retried elsewhere", () => {
  for (const reason of [
    LOST_REASON,
    NO_CHROMIUM_REASON,
    POOL_CLOSED_REASON,
    QUEUE_FULL_REASON,
    "The capture worker stopped unexpectedly",
    "No browser server can be reached right now (0 of 2 reachable)",
  ])
    expect([reason, isPoolFault(reason)]).toEqual([reason, true]);
});

test("the page's own failures, and a page that keeps crashing browsers: the answer", () => {
  for (const reason of [
    `${LOST_REASON}, 3 times; the page may be crashing the browser`,
    "The browser stopped responding while capturing this page",
    "The site answered HTTP 401 Unauthorized",
    'Step 2: nothing on the page matches "#go" (waited 5 s)',
    ...Object.values(SSRF_MESSAGES),
  ])
    expect([reason, isPoolFault(reason)]).toEqual([reason, false]);
});
