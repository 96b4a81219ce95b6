// Typography compared on what was drawn, and the finding for a declared web font that never loaded.
import { describe, expect, test } from "bun:test";
import { findingId, findingsFor, type RuleSnapshot } from "#server/modules/analysis/findings";
import { typographySimilarity } from "#server/modules/analysis/typography";
import { makeExtraction } from "./support";

type Patch = Parameters<typeof makeExtraction>[0];
const typo = (patch: Patch) => makeExtraction(patch).typography;

describe("typography similarity", () => {
  test("a renamed typeface is the same face (Muli -> Mulish), declared or drawn", () => {
    const a = typo({ typography: { families: [{ family: '"Muli", sans-serif', share: 1 }] } });
    const b = typo({ typography: { families: [{ family: "Mulish", share: 1 }] } });
    expect(typographySimilarity(a, b).families).toBe(1);
    expect(typographySimilarity(a, b).rendered).toBe(false);
  });

  test("with rendered fonts on both pages, the drawn families decide, not the declared names", () => {
    const declared = [{ family: "Roboto Slab", share: 1 }];
    // Same declaration; one page drew the web font, the other fell back to a system serif.
    const loaded = typo({ typography: { families: declared, rendered: [{ family: "Roboto Slab", share: 1 }] } });
    const fellBack = typo({ typography: { families: declared, rendered: [{ family: "Liberation Serif", share: 1 }] } });
    const s = typographySimilarity(loaded, fellBack);
    expect(s.rendered).toBe(true);
    expect(s.families).toBe(0);
    expect(s.typography).toBeCloseTo(0.65, 5); // everything but the families matches
    // Without rendered data (a capture without it on one side) the declared names are compared.
    const old = typo({ typography: { families: declared } });
    const legacy = typographySimilarity(loaded, old);
    expect(legacy.rendered).toBe(false);
    expect(legacy.families).toBe(1);
    expect(legacy.typography).toBeCloseTo(1, 9);
  });

  test("different declarations drawn in the same face score as the same family; weights count", () => {
    const a = typo({ typography: { families: [{ family: "Lato", share: 1 }], rendered: [{ family: "Liberation Sans", share: 1 }] } });
    const b = typo({
      typography: {
        families: [{ family: "Arial", share: 1 }],
        rendered: [{ family: "Liberation Sans", share: 1 }],
        weights: [{ weight: 300, share: 1 }],
      },
    });
    const s = typographySimilarity(a, b);
    expect(s.families).toBe(1);
    expect(s.weights).toBe(0);
    expect(s.typography).toBeCloseTo(0.9, 5); // the weights term (0.1) is all that differs
  });
});

describe("font-not-loaded finding", () => {
  const page = (patch: Patch): RuleSnapshot => ({
    targetId: "t-alpha",
    label: "Alpha",
    viewport: "desktop",
    extraction: makeExtraction(patch),
  });
  const hits = (p: RuleSnapshot) => findingsFor([p]).filter((f) => f.id === findingId("font-not-loaded", "t-alpha", "desktop"));
  const woff = "https://fonts.gstatic.com/s/robotoslab/v34/BngMUXZYTXPIvIBgJJSb6ufN5qU.woff2";

  test("names the font, what was drawn instead and the failed request", () => {
    const [f] = hits(
      page({
        typography: {
          notLoaded: [{ family: "Roboto Slab", share: 0.8 }],
          rendered: [
            { family: "Liberation Serif", share: 0.8 },
            { family: "Liberation Sans", share: 0.2 },
          ],
        },
        network: {
          failed: [
            { url: "https://cdn.example.com/app.js", type: "script", reason: "ERR_NAME_NOT_RESOLVED" },
            { url: woff, type: "font", reason: "ERR_NAME_NOT_RESOLVED" },
          ],
          failedCount: 2,
        },
      }),
    );
    expect(f!.group).toBe("design");
    expect(f!.severity).toBe("high");
    expect(f!.title).toBe("Roboto Slab never loaded on Alpha: its text is drawn in Liberation Serif");
    expect(f!.evidence["Alpha declares Roboto Slab"]).toBe(`for 80% of the text; never loaded (${woff} — ERR_NAME_NOT_RESOLVED)`);
    expect(f!.evidence["Alpha drawn in"]).toBe("Liberation Serif 80%, Liberation Sans 20%");
    expect(f!.fix).toContain(`${woff} failed (ERR_NAME_NOT_RESOLVED)`);
  });

  test("a minor family without a known request is medium; nothing fires without rendered data", () => {
    const [f] = hits(
      page({ typography: { notLoaded: [{ family: "Brand", share: 0.1 }], rendered: [{ family: "DejaVu Sans", share: 1 }] } }),
    );
    expect(f!.severity).toBe("medium");
    expect(f!.fix).toContain("check its @font-face src URLs");
    expect(hits(page({ typography: { notLoaded: [], rendered: [{ family: "DejaVu Sans", share: 1 }] } }))).toHaveLength(0);
    expect(hits(page({}))).toHaveLength(0);
  });
});

describe("low-contrast finding measured from pixels", () => {
  test("says the background was measured from the screenshot and suggests a backing, not a CSS colour swap", () => {
    const p: RuleSnapshot = {
      targetId: "t-alpha",
      label: "Alpha",
      viewport: "desktop",
      extraction: makeExtraction({
        accessibility: {
          lowContrast: [
            { text: "Hard to read over a light photo", ratio: 1.3, required: 4.5, fg: "#ffffff", bg: "#e4e0d8", method: "pixels" },
          ],
        },
      }),
    };
    const [f] = findingsFor([p]).filter((x) => x.id === findingId("low-contrast-text", "t-alpha", "desktop"));
    expect(f!.evidence["Worst run colours"]).toBe("#ffffff on #e4e0d8");
    expect(f!.evidence["Worst run measured"]).toContain("pixels painted behind the text");
    expect(f!.evidence["Worst run measured"]).toContain("as a colour picker finds them on the screenshot");
    expect(f!.fix).toContain("darker overlay on the image");
  });
});

describe("the failed request behind a font", () => {
  test("is one whose URL names the family, never an unrelated failed font", async () => {
    const { failedRequestFor } = await import("#server/modules/analysis/findings/page-problems");
    const awesome = { url: "https://use.fontawesome.com/webfonts/fa-solid-900.woff2", type: "font", reason: "ERR_NAME_NOT_RESOLVED" };
    const css = {
      url: "https://fonts.googleapis.com/css?family=Lora:400,700|Open+Sans:300,400",
      type: "stylesheet",
      reason: "ERR_NAME_NOT_RESOLVED",
    };
    expect(failedRequestFor("Open Sans", [awesome, css])).toEqual(css);
    expect(failedRequestFor("Lora", [awesome, css])).toEqual(css);
    expect(failedRequestFor("Lato", [awesome])).toBeNull();
  });
});
