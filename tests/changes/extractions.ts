// A hand-built capture of one landing page, to be copied and edited by the change-detection tests.
import type { Extraction } from "#server/modules/capture/model";

export function landing(): Extraction {
  return {
    url: "http://127.0.0.1/alpha/",
    finalUrl: "http://127.0.0.1/alpha/",
    viewport: "desktop",
    title: "Alpha — ship faster",
    metaDescription: "Alpha helps teams ship faster.",
    pageHeight: 2400,
    capturedHeight: 2400,
    palette: {
      dominant: [
        { hex: "#ffffff", share: 0.7 },
        { hex: "#2563eb", share: 0.1 },
      ],
      text: [
        { hex: "#111827", share: 0.8 },
        { hex: "#6b7280", share: 0.2 },
      ],
      background: [
        { hex: "#ffffff", share: 0.75 },
        { hex: "#f3f4f6", share: 0.25 },
      ],
      buttons: [
        { hex: "#2563eb", share: 0.8 },
        { hex: "#111827", share: 0.2 },
      ],
      isDark: false,
    },
    typography: {
      families: [
        { family: "Inter", share: 0.9 },
        { family: "Georgia", share: 0.1 },
      ],
      sizeScale: [
        { px: 48, share: 0.1 },
        { px: 16, share: 0.9 },
      ],
      weights: [
        { weight: 400, share: 0.8 },
        { weight: 700, share: 0.2 },
      ],
      headings: [{ level: 1, family: "Inter", sizePx: 48, weight: 700, lineHeightPx: 56 }],
      body: { family: "Inter", sizePx: 16, weight: 400, lineHeightPx: 24 },
    },
    layout: {
      regions: [
        { kind: "header", box: { x: 0, y: 0, width: 1440, height: 80 } },
        { kind: "main", box: { x: 0, y: 80, width: 1440, height: 2120 } },
        { kind: "hero", box: { x: 0, y: 80, width: 1440, height: 600 } },
        { kind: "section", box: { x: 0, y: 680, width: 1440, height: 500 } },
        { kind: "section", box: { x: 0, y: 1180, width: 1440, height: 700 } },
        { kind: "footer", box: { x: 0, y: 2200, width: 1440, height: 200 } },
      ],
      columns: 3,
      radiusPx: 8,
      spacingPx: 64,
    },
    elements: {
      ctas: [
        {
          text: "Start free",
          box: { x: 620, y: 420, width: 200, height: 48 },
          aboveFold: true,
          href: "http://127.0.0.1/alpha/signup",
          bg: "#2563eb",
          fg: "#ffffff",
        },
        {
          text: "Talk to sales",
          box: { x: 620, y: 1500, width: 200, height: 48 },
          aboveFold: false,
          href: "http://127.0.0.1/alpha/sales",
          bg: "#111827",
          fg: "#ffffff",
        },
      ],
      links: 12,
      linksAboveFold: 6,
      forms: [],
      inputs: 0,
      images: 3,
      imagesAboveFold: 1,
      headings: [
        { level: 1, text: "Ship faster with Alpha", box: { x: 420, y: 200, width: 600, height: 56 }, aboveFold: true },
        { level: 2, text: "Features", box: { x: 420, y: 720, width: 300, height: 40 }, aboveFold: true },
        { level: 2, text: "Pricing", box: { x: 420, y: 1220, width: 300, height: 40 }, aboveFold: false },
      ],
    },
    copy: {
      headline: "Ship faster with Alpha",
      visibleText: [
        "Ship faster with Alpha",
        "The deployment platform for small teams.",
        "Start free",
        "Features",
        "Preview every branch before it merges.",
        "Pricing",
        "Free for hobby projects, 20 dollars per seat for teams.",
        "Talk to sales",
        "© Alpha Inc.",
      ].join("\n"),
      wordCount: 40,
      readability: 70,
    },
    timing: {
      ttfbMs: 40,
      fcpMs: 300,
      lcpMs: 600,
      cls: 0,
      domContentLoadedMs: 200,
      loadMs: 700,
      bytes: 300_000,
      requests: 12,
      largestResource: null,
    },
    accessibility: { lowContrast: [], bodyContrast: 15, imagesWithoutAlt: 0, inputsWithoutLabel: 0 },
  };
}

export const clone = <T>(x: T): T => structuredClone(x);
