// The resources gatherer in real Chromium: requests, bytes and the largest resource from resource
// timing (the capture's fallback when the browser's network log is unavailable).
import { describe, expect, test } from "bun:test";
import { callPage } from "#server/modules/capture/page-script/page-script";
import { html, noisyPng, useHarness } from "./harness";

const big = noisyPng(400, 300);
const h = useHarness({
  // An inline icon: Chromium would otherwise fetch /favicon.ico at some point after load.
  "/": html(
    `<img src="/big.png" width="400" height="300" alt="Big"><img src="/small.png" width="10" height="10" alt="Small">`,
    `<link rel="icon" href="data:,">`,
  ),
  "/big.png": { body: big, type: "image/png" },
  "/small.png": { body: noisyPng(10, 10), type: "image/png" },
});

describe("resources gatherer", () => {
  test("counts the document and its resources and names the largest", async () => {
    const r = await callPage(await h.open("/"), "readResources", undefined);
    expect(r.requests).toBe(3);
    expect(r.largestResource).toMatchObject({ url: h.url("/big.png"), type: "img" });
    // Transfer size includes headers.
    expect(r.largestResource!.bytes).toBeGreaterThanOrEqual(big.length);
    expect(r.bytes).toBeGreaterThan(big.length);
  });
});
