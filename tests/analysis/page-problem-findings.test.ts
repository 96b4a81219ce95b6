// Findings about what broke on a page: failed requests grouped by host and by what the visitor
// loses, and console errors.
import { describe, expect, test } from "bun:test";
import type { Viewport } from "#server/modules/capture/model";
import { findingId, findingsFor, type RuleSnapshot } from "#server/modules/analysis/findings";
import { lossOf } from "#server/modules/analysis/findings/page-problems";
import { makeExtraction } from "./support";

type Patch = Parameters<typeof makeExtraction>[0];
const page = (patch?: Patch, viewport: Viewport = "desktop"): RuleSnapshot => ({
  targetId: "t-alpha",
  label: "Alpha",
  viewport,
  extraction: makeExtraction(patch, viewport),
});
const hits = (pages: RuleSnapshot[], rule: string, viewport: Viewport = "desktop") =>
  findingsFor(pages).filter((f) => f.id === findingId(rule, "t-alpha", viewport));

const gfontsCss = { url: "https://fonts.googleapis.com/css2?family=Roboto+Slab", type: "stylesheet", reason: "ERR_NAME_NOT_RESOLVED" };
const gfont = (n: number) => ({ url: `https://fonts.gstatic.com/s/robotoslab/v${n}.woff2`, type: "font", reason: "ERR_NAME_NOT_RESOLVED" });
const awesome = {
  url: "https://use.fontawesome.com/releases/v5/webfonts/fa-solid-900.woff2",
  type: "font",
  reason: "ERR_NAME_NOT_RESOLVED",
};
const jquery = { url: "https://code.jquery.com/jquery-3.7.1.min.js", type: "script", reason: "ERR_CONNECTION_REFUSED" };

describe("failed requests finding", () => {
  test("groups by what is lost and by host, and says the consequence", () => {
    const failed = [
      gfontsCss,
      gfont(1),
      gfont(2),
      awesome,
      jquery,
      { url: "https://cdn.example.com/hero.jpg", type: "image", reason: "HTTP 404 Not Found" },
    ];
    const [f] = hits([page({ network: { failed, failedCount: 12 } })], "failed-requests");
    expect(f).toBeDefined();
    expect(f!.group).toBe("ux");
    expect(f!.severity).toBe("high");
    expect(f!.title).toStartWith("12 requests failed on Alpha: fonts.gstatic.com, fonts.googleapis.com");
    // Worst loss first: scripts, then icons, then fonts.
    expect(f!.title).toContain("features that need these scripts may not work; icons will be missing; text is drawn in a fallback font");
    expect(f!.evidence["Alpha failed font requests"]).toBe(
      "3 from fonts.gstatic.com, fonts.googleapis.com (ERR_NAME_NOT_RESOLVED): text is drawn in a fallback font",
    );
    expect(f!.evidence["Alpha failed icon requests"]).toContain("use.fontawesome.com");
    expect(f!.evidence["Alpha failed image requests"]).toBe("1 from cdn.example.com (HTTP 404 Not Found): images will be missing");
    expect(f!.evidence["Alpha failed requests in all"]).toBe("12");
  });

  test("a lone failed image is medium; a page with none has no finding, nor has an old capture", () => {
    const one = hits(
      [page({ network: { failed: [{ url: "https://a.test/x.png", type: "image", reason: "HTTP 404 Not Found" }], failedCount: 1 } })],
      "failed-requests",
    );
    expect(one).toHaveLength(1);
    expect(one[0]!.severity).toBe("medium");
    expect(one[0]!.title).toBe("1 request failed on Alpha: a.test — images will be missing");
    expect(hits([page({ network: { failed: [], failedCount: 0 } })], "failed-requests")).toHaveLength(0);
    expect(hits([page()], "failed-requests")).toHaveLength(0);
  });

  test("is reported once per page, on desktop", () => {
    const network = { failed: [jquery], failedCount: 1 };
    const pages = [page({ network }), page({ network }, "mobile")];
    expect(hits(pages, "failed-requests")).toHaveLength(1);
    expect(hits(pages, "failed-requests", "mobile")).toHaveLength(0);
  });

  test("font stylesheets and icon fonts are told apart from other styles and text fonts", () => {
    expect(lossOf(gfontsCss)).toBe("font");
    expect(lossOf({ ...gfontsCss, url: "https://cdn.example.com/site.css" })).toBe("stylesheet");
    expect(lossOf({ ...gfontsCss, url: "https://cdnjs.cloudflare.com/ajax/libs/font-awesome/6.0.0/css/all.min.css" })).toBe("icons");
    expect(lossOf(gfont(1))).toBe("font");
    expect(lossOf({ ...jquery, type: "fetch" })).toBe("data");
    expect(lossOf({ url: "https://maps.google.com/maps?q=x", type: "document", reason: "ERR_NAME_NOT_RESOLVED" })).toBe("frame");
    expect(lossOf({ ...jquery, url: "https://use.fontawesome.com/releases/v6.3.0/js/all.js" })).toBe("icons");
  });
});

describe("console errors finding", () => {
  test("quotes the errors and raises uncaught exceptions", () => {
    const console = [
      { level: "error" as const, text: "widget failed 42" },
      { level: "exception" as const, text: "TypeError: $ is not a function" },
    ];
    const [f] = hits([page({ console })], "console-errors");
    expect(f!.severity).toBe("medium");
    expect(f!.title).toBe("Alpha logs 2 errors in the browser console, 1 uncaught exception");
    expect(f!.evidence["Alpha uncaught exception 2"]).toBe("“TypeError: $ is not a function”");
    expect(hits([page({ console: [console[0]!] })], "console-errors")[0]!.severity).toBe("low");
    expect(hits([page({ console: [] })], "console-errors")).toHaveLength(0);
  });
});
