// The meta gatherer in real Chromium: title, description (or the Open Graph one) and page height.
import { describe, expect, test } from "bun:test";
import { gather, useHarness } from "./harness";

const doc = (head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body style="margin:0">${body}</body></html>`;

const h = useHarness({
  "/": doc(
    `<title>  Orbit —   launch plans  </title><meta name="Description" content="Plan launches together.">`,
    `<div style="height:3210px">Tall</div>`,
  ),
  "/og": doc(`<title>OG only</title><meta property="og:description" content="From Open Graph.">`, `<p>Short</p>`),
});

describe("meta gatherer", () => {
  test("title and description, whitespace collapsed; the full page height", async () => {
    const m = await gather(await h.shared("/"), "meta");
    expect(m).toEqual({ title: "Orbit — launch plans", metaDescription: "Plan launches together.", pageHeight: 3210 });
  });

  test("falls back to the Open Graph description; a short page is as tall as the viewport", async () => {
    const m = await gather(await h.shared("/og"), "meta");
    expect(m.metaDescription).toBe("From Open Graph.");
    expect(m.pageHeight).toBe(900);
  });
});
