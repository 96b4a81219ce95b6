import { describe, expect, test } from "bun:test";
import type { AuditRule, Extraction, Finding, Viewport } from "#server/modules/capture/model";
import { findingId, findingsFor, type RuleSnapshot } from "#server/modules/analysis/findings";
import { contrastRatio } from "#server/lib/image/color";
import { axeRule, makeExtraction } from "./support";

type Patch = Parameters<typeof makeExtraction>[0];

function page(targetId: string, label: string, patch?: Patch, viewport: Viewport = "desktop"): RuleSnapshot {
  return { targetId, label, viewport, extraction: makeExtraction(patch, viewport) };
}

const alpha = (patch?: Patch, viewport: Viewport = "desktop") => page("t-alpha", "Alpha", patch, viewport);
const beta = (patch?: Patch, viewport: Viewport = "desktop") => page("t-beta", "Beta", patch, viewport);

function ruleHits(findings: Finding[], rule: string, targetId = "t-alpha", viewport: Viewport = "desktop"): Finding[] {
  return findings.filter((f) => f.id === findingId(rule, targetId, viewport));
}

function fires(rule: string, pages: RuleSnapshot[], targetId = "t-alpha", viewport: Viewport = "desktop"): Finding {
  const hits = ruleHits(findingsFor(pages), rule, targetId, viewport);
  expect(hits).toHaveLength(1);
  return hits[0]!;
}

function silent(rule: string, pages: RuleSnapshot[], targetId = "t-alpha", viewport: Viewport = "desktop") {
  expect(ruleHits(findingsFor(pages), rule, targetId, viewport)).toHaveLength(0);
}

const noCtaAbove = (e: Extraction) => e.elements.ctas.map((c) => ({ ...c, aboveFold: false, box: { ...c.box, y: 1800 } }));

describe("baseline", () => {
  test("two healthy pages produce no findings", () => {
    expect(findingsFor([alpha(), beta()])).toEqual([]);
  });
  test("deterministic: same input, same findings and ids; ids differ by rule/target/viewport", () => {
    const input = [alpha({ metaDescription: "", elements: { images: 4 } }), beta()];
    expect(findingsFor(input)).toEqual(findingsFor(input));
    expect(findingId("a", "t", "desktop")).not.toBe(findingId("a", "t", "mobile"));
    expect(findingId("a", "t", "desktop")).not.toBe(findingId("b", "t", "desktop"));
    for (const f of findingsFor(input)) {
      expect(f.source).toBe("rules");
      expect(Object.keys(f.evidence).length).toBeGreaterThan(0);
      expect(f.fix.length).toBeGreaterThan(20);
    }
  });
});

describe("ux rules", () => {
  test("CTA above the fold: competitor has one, we don't (per viewport)", () => {
    const base = makeExtraction({}, "mobile");
    const f = fires("cta-above-fold", [alpha({ elements: { ctas: noCtaAbove(base) } }, "mobile"), beta({}, "mobile")], "t-alpha", "mobile");
    expect(f.group).toBe("ux");
    expect(f.severity).toBe("high");
    expect(f.title).toBe("Beta shows a call to action above the fold on mobile; Alpha shows none");
    expect(f.evidence["Alpha calls to action above the fold"]).toBe("0");
    expect(f.evidence["Beta calls to action above the fold"]).toContain("Start free trial");
    expect(f.fix).toContain("primary button in the hero");
    silent("cta-above-fold", [alpha({}, "mobile"), beta({}, "mobile")], "t-alpha", "mobile");
    // Only the viewport where it is missing.
    silent("cta-above-fold", [alpha({ elements: { ctas: noCtaAbove(base) } }, "mobile"), beta({}, "mobile"), alpha(), beta()]);
  });

  test("CTA above the fold with no competitor showing one is still reported, less severe", () => {
    const e = makeExtraction();
    const f = fires("cta-above-fold", [alpha({ elements: { ctas: noCtaAbove(e) } }), beta({ elements: { ctas: [] } })]);
    expect(f.severity).toBe("medium");
    expect(f.evidence["Alpha first call to action"]).toContain("1800 px");
  });

  test("accessibility: one finding per failed axe rule, named by its rule id, with WCAG level, count and an example selector", () => {
    const audit = (violations: AuditRule[]) => ({
      accessibility: { audit: { engine: "axe-core 4.14.1", ms: 90, violations, incomplete: [] } },
    });
    const alt = axeRule("image-alt", {
      impact: "critical",
      criteria: ["1.1.1"],
      count: 2,
      examples: [{ html: '<img src="/hero.jpg">', selector: "section.hero > img" }],
    });
    const label = axeRule("label", { impact: "critical", count: 1 });
    const region = axeRule("region", {
      impact: "moderate",
      level: "best-practice",
      criteria: [],
      wcag: null,
      help: "All page content should be contained by landmarks.",
      count: 4,
    });
    const pages = [alpha({ ...audit([alt, label, region]), elements: { images: 10 } }), beta()];
    const f = fires("image-alt", pages);
    expect(f.rule).toBe("image-alt");
    expect(f.group).toBe("ux");
    expect(f.severity).toBe("high");
    expect(f.title).toBe("Alpha has 2 images without alt text");
    expect(f.evidence).toMatchObject({
      "axe-core rule": "image-alt (axe-core 4.14.1)",
      "WCAG level": "A (1.1.1, WCAG 2.0)",
      "Alpha elements failing": "2 of 10 images",
      "Example element": '<img src="/hero.jpg">',
      "Example selector": "section.hero > img",
    });
    // Audited once, at desktop width: the evidence says what that leaves out.
    expect(f.evidence.Audited).toStartWith("Once per page, at desktop width (1440 × 900)");
    expect(fires("label", pages).title).toBe("Alpha has 1 form field without a label");
    // A best practice is one step below its impact, and worded from axe's own help.
    const r = fires("region", pages);
    expect(r).toMatchObject({
      rule: "region",
      severity: "low",
      title: "All page content should be contained by landmarks — 4 elements on Alpha fail",
    });
    expect(r.evidence["WCAG level"]).toBe("Best practice (not a WCAG requirement)");
    expect(r.fix).toContain("https://dequeuniversity.com/rules/axe/4.14/region");
    silent("image-alt", [alpha(), beta()]);
  });

  test("axe's contrast failures are a design finding with the colours axe measured and a fix that reaches AA", () => {
    const cc = axeRule("color-contrast", {
      level: "AA",
      criteria: ["1.4.3"],
      count: 3,
      examples: [
        {
          html: '<p class="muted">Small print</p>',
          selector: "p.muted",
          contrast: { fg: "#999999", bg: "#ffffff", ratio: 2.85, required: 4.5 },
        },
      ],
    });
    const f = fires("color-contrast", [
      alpha({ accessibility: { audit: { engine: "axe-core 4.14.1", ms: 1, violations: [cc], incomplete: [] } } }),
    ]);
    expect(f.group).toBe("design");
    expect(f.title).toBe("3 text elements on Alpha fall below WCAG AA contrast");
    expect(f.evidence["Example colours"]).toBe("#999999 on #ffffff, 2.8:1 (needs 4.5:1)");
    expect(f.fix).toContain("instead of #999999 on #ffffff");
  });

  test("no h1: axe's page-has-heading-one, with the page's first heading in the fix", () => {
    const e = makeExtraction();
    const h2only = e.elements.headings.map((h) => ({ ...h, level: 2 }));
    const rule = axeRule("page-has-heading-one", { impact: "moderate", level: "best-practice", criteria: [], wcag: null });
    const none = fires("page-has-heading-one", [
      alpha({
        elements: { headings: h2only },
        accessibility: { audit: { engine: "axe-core 4.14.1", ms: 1, violations: [rule], incomplete: [] } },
      }),
    ]);
    expect(none.title).toBe("Alpha has no h1 heading");
    expect(none.fix).toContain("Invoices that pay themselves");
  });

  test("a page axe could not audit says so; captures made before the audit get no accessibility findings", () => {
    const f = fires("accessibility-not-audited", [
      alpha({
        accessibility: { audit: { engine: "axe-core", ms: 0, violations: [], incomplete: [], error: "axe-core did not finish in time" } },
      }),
    ]);
    expect(f.severity).toBe("low");
    expect(f.evidence.Audit).toBe("axe-core did not finish in time");
    const legacy = alpha({ accessibility: { imagesWithoutAlt: 3 } });
    delete legacy.extraction.accessibility.audit;
    expect(findingsFor([legacy]).filter((x) => x.group === "ux" && /alt/.test(x.title))).toEqual([]);
  });

  test("page-level rules are reported once per target, on desktop", () => {
    const patch: Patch = {
      accessibility: { audit: { engine: "axe-core 4.14.1", ms: 1, violations: [axeRule("image-alt")], incomplete: [] } },
    };
    const all = findingsFor([alpha(patch), alpha(patch, "mobile")]);
    expect(all.filter((f) => f.rule === "image-alt")).toHaveLength(1);
    // Mobile-only capture still gets it.
    fires("image-alt", [alpha(patch, "mobile")], "t-alpha", "mobile");
  });

  test("mobile page height: very long against shorter competitors, never on desktop", () => {
    const f = fires(
      "mobile-page-height",
      [alpha({ pageHeight: 14000 }, "mobile"), beta({ pageHeight: 6000 }, "mobile")],
      "t-alpha",
      "mobile",
    );
    expect(f.evidence["Alpha mobile page height"]).toBe("14000 px (16.6 screens)");
    expect(f.evidence["Beta mobile page height"]).toBe("6000 px (7.1 screens)");
    silent("mobile-page-height", [alpha({ pageHeight: 14000 }, "mobile"), beta({ pageHeight: 13000 }, "mobile")], "t-alpha", "mobile");
    silent("mobile-page-height", [alpha({ pageHeight: 8000 }, "mobile")], "t-alpha", "mobile");
    silent("mobile-page-height", [alpha({ pageHeight: 20000 })]);
  });

  test("mobile body font under 16 px", () => {
    const body = { family: "Inter", sizePx: 13, weight: 400, lineHeightPx: 18 };
    const f = fires("mobile-body-font", [alpha({ typography: { body } }, "mobile"), beta({}, "mobile")], "t-alpha", "mobile");
    expect(f.severity).toBe("high");
    expect(f.evidence["Alpha mobile body text"]).toBe("13 px");
    expect(f.evidence["Beta mobile body text"]).toBe("18 px");
    expect(
      fires("mobile-body-font", [alpha({ typography: { body: { ...body, sizePx: 15 } } }, "mobile")], "t-alpha", "mobile").severity,
    ).toBe("medium");
    silent("mobile-body-font", [alpha({ typography: { body: { ...body, sizePx: 16 } } }, "mobile")], "t-alpha", "mobile");
    silent("mobile-body-font", [alpha({ typography: { body } })]);
  });
});

describe("design rules", () => {
  test("body contrast below 4.5:1 fails WCAG AA, with a concrete replacement colour", () => {
    const f = fires("body-contrast", [
      alpha({
        accessibility: { bodyContrast: 2.54 },
        palette: { text: [{ hex: "#9ca3af", share: 1 }], background: [{ hex: "#ffffff", share: 1 }] },
      }),
      beta(),
    ]);
    expect(f.group).toBe("design");
    expect(f.severity).toBe("high");
    expect(f.title).toBe("Body text contrast 2.5:1 fails WCAG AA on Alpha (desktop)");
    expect(f.evidence["Alpha body text contrast"]).toBe("2.5:1");
    expect(f.evidence["Beta body text contrast"]).toBe("15.4:1");
    const suggested = /Use (#[0-9a-f]{6}) instead of #9ca3af/.exec(f.fix)?.[1];
    expect(suggested).toBeDefined();
    expect(contrastRatio(suggested!, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    silent("body-contrast", [alpha({ accessibility: { bodyContrast: 4.5 } })]);
    silent("body-contrast", [alpha({ accessibility: { bodyContrast: null } })]);
  });

  test("low-contrast runs name the worst one and suggest a colour", () => {
    const lowContrast = [
      { text: "Terms apply", ratio: 3.9, required: 4.5, fg: "#888888", bg: "#ffffff" },
      { text: "Fine print about cancellation", ratio: 2.3, required: 4.5, fg: "#aaaaaa", bg: "#ffffff" },
    ];
    const f = fires("low-contrast-text", [alpha({ accessibility: { lowContrast } })]);
    expect(f.severity).toBe("high");
    expect(f.evidence["Alpha low-contrast runs"]).toBe("2");
    expect(f.evidence["Worst run"]).toContain("Fine print about cancellation");
    expect(f.evidence["Worst run"]).toContain("2.3:1");
    const suggested = /Use (#[0-9a-f]{6}) instead of #aaaaaa/.exec(f.fix)?.[1];
    expect(contrastRatio(suggested!, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    expect(f.fix).toContain("the other 1 run the same way");
    silent("low-contrast-text", [alpha()]);
  });

  test("white text on a mid-tone button: the fix darkens the button, not the text to black", () => {
    const lowContrast = [{ text: "Download the checklist", ratio: 3.77, required: 4.5, fg: "#ffffff", bg: "#059669" }];
    const f = fires("low-contrast-text", [alpha({ accessibility: { lowContrast } })]);
    expect(f.title).toBe("1 text run on Alpha falls below WCAG AA contrast (desktop)");
    const bg = /change its background from #059669 to (#[0-9a-f]{6})/.exec(f.fix)?.[1];
    expect(contrastRatio("#ffffff", bg!)).toBeGreaterThanOrEqual(4.5);
  });

  test("low-contrast runs in the body colours are left to the body-contrast finding", () => {
    const pages = [
      alpha({
        accessibility: {
          bodyContrast: 2.54,
          lowContrast: [{ text: "Body copy", ratio: 2.54, required: 4.5, fg: "#9ca3af", bg: "#ffffff" }],
        },
      }),
    ];
    fires("body-contrast", pages);
    silent("low-contrast-text", pages);
  });

  test("too many font families (icon fonts don't count)", () => {
    const families = ["Inter", "Roboto", "Lobster", "Merriweather", "Open Sans"].map((family) => ({ family, share: 0.2 }));
    const f = fires("too-many-font-families", [alpha({ typography: { families } }), beta()]);
    expect(f.title).toBe("Alpha uses 5 font families");
    expect(f.evidence["Beta font families"]).toBe("2");
    const withIcons = [...families.slice(0, 3), { family: "Font Awesome 6 Free", share: 0.1 }, { family: "Material Icons", share: 0.1 }];
    silent("too-many-font-families", [alpha({ typography: { families: withIcons } })]);
    silent("too-many-font-families", [alpha()]);
  });

  test("too many accent colours / weak brand consistency", () => {
    const e = makeExtraction();
    const cta = e.elements.ctas[0]!;
    const ctas = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#f59e0b"].map((bg, i) => ({ ...cta, text: `Button ${i}`, bg }));
    const f = fires("accent-colours", [alpha({ elements: { ctas } }), beta()]);
    expect(f.severity).toBe("medium");
    expect(f.evidence["Alpha accent colours"]).toStartWith("5 (");
    expect(f.evidence["Beta accent colours"]).toBe("1");
    // Shades of one blue are one accent; greys are not accents.
    const shades = ["#2563eb", "#2664ea", "#1f5fe8", "#6b7280", "#111827"].map((bg) => ({ ...cta, bg }));
    silent("accent-colours", [alpha({ elements: { ctas: shades } })]);
  });
});

describe("copy rules", () => {
  test("readability much lower than a competitor", () => {
    const f = fires("readability", [alpha({ copy: { readability: 38 } }), beta({ copy: { readability: 70 } })]);
    expect(f.title).toBe("Alpha's copy is much harder to read than Beta's");
    expect(f.evidence["Alpha reading ease (Flesch)"]).toBe("38");
    expect(f.evidence["Beta reading ease (Flesch)"]).toBe("70");
    silent("readability", [alpha({ copy: { readability: 58 } }), beta({ copy: { readability: 66 } })]);
    silent("readability", [alpha({ copy: { readability: 75 } }), beta({ copy: { readability: 95 } })]);
    // Very hard copy is reported even alone; tiny pages are not judged.
    expect(fires("readability", [alpha({ copy: { readability: 20 } })]).severity).toBe("high");
    silent("readability", [alpha({ copy: { readability: 20, wordCount: 12 } })]);
  });

  test("headline length outliers and a missing headline", () => {
    const long = "The all-in-one platform for modern teams who want to send invoices, track payments, and reconcile books automatically";
    const f = fires("headline-length", [alpha({ copy: { headline: long } }), beta({ copy: { headline: "Roast coffee at home" } })]);
    expect(f.title).toBe("Alpha's headline runs 19 words against 4 for competitors");
    expect(f.evidence["Beta headline"]).toBe("“Roast coffee at home” (4 words)");
    const none = fires("headline-length", [alpha({ copy: { headline: "" } }), beta()]);
    expect(none.severity).toBe("high");
    expect(none.evidence["Alpha headline"]).toBe("none");
    const short = fires("headline-length", [
      alpha({ copy: { headline: "Alpha." } }),
      beta({ copy: { headline: "Roast coffee at home fresh" } }),
    ]);
    expect(short.severity).toBe("low");
    silent("headline-length", [alpha(), beta()]);
    // Long, but so is everyone's: not an outlier.
    silent("headline-length", [alpha({ copy: { headline: long } }), beta({ copy: { headline: long } })]);
  });

  test("meta description missing or too long", () => {
    const f = fires("meta-description", [alpha({ metaDescription: "  " })]);
    expect(f.title).toBe("Alpha has no meta description");
    expect(fires("meta-description", [alpha({ metaDescription: "x".repeat(200) })]).severity).toBe("low");
    silent("meta-description", [alpha()]);
  });
});

describe("timing rules", () => {
  const heroJpg = { url: "https://cdn.example/img/hero-banner.jpg?v=3", bytes: 2.1 * 1024 * 1024, type: "image" };

  test("LCP against the fastest competitor names the heavy hero image", () => {
    const f = fires("lcp-slow", [alpha({ timing: { lcpMs: 3400, largestResource: heroJpg } }), beta({ timing: { lcpMs: 1100 } })]);
    expect(f.group).toBe("timing");
    expect(f.severity).toBe("medium");
    expect(f.title).toBe("Alpha's LCP is 3.4 s against 1.1 s for Beta (desktop): hero-banner.jpg (2.1 MB, image)");
    expect(f.evidence).toEqual({ "Alpha LCP": "3.4 s", "Beta LCP": "1.1 s", "Largest resource": "hero-banner.jpg (2.1 MB, image)" });
    // The browser that measured it, when the capture recorded one.
    const browser = "Chromium headless shell 156.0.8078.79";
    const g = fires("lcp-slow", [alpha({ timing: { lcpMs: 3400, browser } }), beta({ timing: { lcpMs: 1100, browser } })]);
    expect(g.evidence["Measured in"]).toBe(browser);
    expect(f.fix).toContain("hero-banner.jpg is 2.1 MB");
    silent("lcp-slow", [alpha({ timing: { lcpMs: 1300 } }), beta({ timing: { lcpMs: 1100 } })]);
    silent("lcp-slow", [alpha({ timing: { lcpMs: null } }), beta()]);
    silent("lcp-slow", [alpha(), beta({ timing: { lcpMs: 3400 } })]);
  });

  test("a gap within the loads' own spread is noise, not a finding", () => {
    const samples = (fcp: number[]) => fcp.map((v) => ({ ttfbMs: 50, fcpMs: v, lcpMs: v, cls: 0, lcpElement: null }));
    const timing = (fcp: number[], median: number) => ({
      fcpMs: median,
      samples: samples(fcp),
      spread: {
        ttfbMs: null,
        fcpMs: { min: Math.min(...fcp), max: Math.max(...fcp) },
        lcpMs: null,
        cls: null,
        domContentLoadedMs: null,
        loadMs: null,
      },
    });
    // 184 ms in one load and 1500 ms in another: the median looks slow, the spread says it is not known to be.
    silent("fcp-slow", [alpha({ timing: timing([184, 1400, 1500], 1400) }), beta({ timing: timing([650, 700, 800], 700) })]);
    const f = fires("fcp-slow", [alpha({ timing: timing([1300, 1400, 1500], 1400) }), beta({ timing: timing([650, 700, 800], 700) })]);
    expect(f.evidence["Alpha FCP"]).toBe("1.4 s (1.3 s–1.5 s over 3 loads)");
    expect(f.evidence["Beta FCP"]).toBe("700 ms (650 ms–800 ms over 3 loads)");
    // Samples taken over from recent captures of the page are said to be.
    const earlier = timing([1300, 1400, 1500], 1400);
    earlier.samples = earlier.samples.map((x, i) => (i > 0 ? { ...x, fromRunAt: "2030-01-01T10:00:00.000Z" } : x));
    const g = fires("fcp-slow", [alpha({ timing: earlier }), beta({ timing: timing([650, 700, 800], 700) })]);
    expect(g.evidence["Alpha FCP"]).toBe("1.4 s (1.3 s–1.5 s over 3 loads, 2 in earlier runs)");
  });

  test("LCP poor in absolute terms even when everyone is slow", () => {
    const f = fires("lcp-slow", [alpha({ timing: { lcpMs: 4600 } }), beta({ timing: { lcpMs: 4500 } })]);
    expect(f.severity).toBe("high");
    expect(f.title).toBe("Alpha's LCP is 4.6 s on desktop");
  });

  test("FCP relative to the fastest competitor", () => {
    const f = fires("fcp-slow", [alpha({ timing: { fcpMs: 2200 } }), beta({ timing: { fcpMs: 700 } })]);
    expect(f.evidence["Alpha FCP"]).toBe("2.2 s");
    expect(f.evidence["Beta FCP"]).toBe("700 ms");
    silent("fcp-slow", [alpha({ timing: { fcpMs: 800 } }), beta({ timing: { fcpMs: 600 } })]);
  });

  test("Speed Index and TBT: against the fastest competitor with LCP's rules, and their method in the evidence", () => {
    const measuredBy = {
      speedIndex: { method: "Filmstrip of the capture's own load: 12 trace screenshots, …", reason: null },
      tbt: { method: "Long Tasks API on the capture's own load: main-thread tasks over 50 ms, …", reason: null },
    };
    const f = fires("speed-index-slow", [
      alpha({ timing: { speedIndexMs: 2400, measuredBy } }),
      beta({ timing: { speedIndexMs: 900, measuredBy } }),
    ]);
    expect(f.group).toBe("timing");
    expect(f.title).toBe("Alpha's Speed Index is 2.4 s against 900 ms for Beta (desktop)");
    expect(f.evidence["Alpha Speed Index"]).toBe("2.4 s");
    expect(f.evidence["Beta Speed Index"]).toBe("900 ms");
    expect(f.evidence["Speed Index measured by"]).toBe("Filmstrip of the capture's own load");
    // Under 1.5× the fastest, or a gap under the minimum: noise.
    silent("speed-index-slow", [alpha({ timing: { speedIndexMs: 1300 } }), beta({ timing: { speedIndexMs: 900 } })]);
    silent("speed-index-slow", [alpha({ timing: { speedIndexMs: 600 } }), beta({ timing: { speedIndexMs: 300 } })]);
    // Poor in absolute terms even when everyone is slow.
    expect(fires("speed-index-slow", [alpha({ timing: { speedIndexMs: 6000 } }), beta({ timing: { speedIndexMs: 5900 } })]).severity).toBe(
      "high",
    );

    const t = fires("tbt-slow", [alpha({ timing: { tbtMs: 450, measuredBy } }), beta({ timing: { tbtMs: 0, measuredBy } })]);
    expect(t.title).toBe("Alpha's Total Blocking Time is 450 ms against 0 ms for Beta (desktop)");
    expect(t.evidence["Total Blocking Time measured by"]).toBe("Long Tasks API on the capture's own load");
    silent("tbt-slow", [alpha({ timing: { tbtMs: 150 } }), beta({ timing: { tbtMs: 0 } })]);
  });

  test("captures without Speed Index or TBT (older ones, or not measured) raise nothing about them", () => {
    silent("speed-index-slow", [alpha(), beta({ timing: { speedIndexMs: 400 } })]);
    silent("speed-index-slow", [alpha({ timing: { speedIndexMs: null } }), beta({ timing: { speedIndexMs: 400 } })]);
    silent("tbt-slow", [alpha({ timing: { tbtMs: null } }), beta({ timing: { tbtMs: 0 } })]);
  });

  test("page weight against the lightest competitor", () => {
    const f = fires("page-weight", [
      alpha({ timing: { bytes: 4.2 * 1024 * 1024, requests: 88, largestResource: heroJpg } }),
      beta({ timing: { bytes: 800 * 1024, requests: 20 } }),
    ]);
    expect(f.title).toBe("Alpha downloads 4.2 MB on desktop, 5.4× Beta");
    expect(f.evidence["Alpha page weight"]).toBe("4.2 MB in 88 requests");
    expect(f.evidence["Beta page weight"]).toBe("800 KB in 20 requests");
    expect(f.evidence["Largest resource"]).toBe("hero-banner.jpg (2.1 MB, image)");
    silent("page-weight", [alpha({ timing: { bytes: 1.2 * 1024 * 1024 } }), beta({ timing: { bytes: 1024 * 1024 } })]);
  });

  test("layout shift", () => {
    const f = fires("layout-shift", [alpha({ timing: { cls: 0.31 } }), beta()], "t-alpha");
    expect(f.severity).toBe("high");
    expect(f.evidence["Alpha CLS"]).toBe("0.31");
    silent("layout-shift", [alpha({ timing: { cls: 0.05 } })]);
  });

  test("timing is judged per viewport", () => {
    const pages = [alpha({ timing: { lcpMs: 5000 } }, "mobile"), beta({}, "mobile"), alpha(), beta()];
    fires("lcp-slow", pages, "t-alpha", "mobile");
    silent("lcp-slow", pages, "t-alpha", "desktop");
  });
});

describe("ordering", () => {
  test("high severity first, then design, ux, copy, timing", () => {
    const list = findingsFor([
      alpha({ metaDescription: "", accessibility: { bodyContrast: 3 }, timing: { lcpMs: 5000 } }),
      beta({ accessibility: { imagesWithoutAlt: 1 } }),
    ]);
    const rank = { high: 0, medium: 1, low: 2 };
    for (let i = 1; i < list.length; i++) expect(rank[list[i - 1]!.severity]).toBeLessThanOrEqual(rank[list[i]!.severity]);
    expect(list[0]!.group).toBe("design");
  });
});
