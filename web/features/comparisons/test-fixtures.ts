// Realistic rows for this feature's tests (no DOM needed).
import type { ComparisonDto, SnapshotDto, TargetDto } from "#server/modules/comparisons/model";
import type { Extraction, Viewport } from "#server/modules/capture/model";

export function comparison(over: Partial<ComparisonDto> = {}): ComparisonDto {
  return {
    id: "c1",
    name: "Checkout showdown",
    description: "Who converts better",
    status: "pending",
    error: null,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
    startedAt: null,
    completedAt: null,
    targetCount: 0,
    progress: null,
    consent: "reject",
    colorSchemes: ["light"],
    ...over,
  };
}

export function target(id: string, label: string, over: Partial<TargetDto> = {}): TargetDto {
  return {
    id,
    comparisonId: "c1",
    label,
    url: `https://${label.toLowerCase()}.example.com/`,
    status: "pending",
    error: null,
    createdAt: `2025-01-01T00:00:0${id.replace(/\D/g, "") || "0"}.000Z`,
    ...over,
  };
}

export function extraction(over: Partial<Extraction> = {}): Extraction {
  return {
    url: "https://alpha.example.com/",
    finalUrl: "https://alpha.example.com/",
    viewport: "desktop",
    title: "Alpha",
    metaDescription: "",
    pageHeight: 2000,
    capturedHeight: 2000,
    palette: {
      dominant: [
        { hex: "#ffffff", share: 0.62 },
        { hex: "#1f2937", share: 0.21 },
      ],
      text: [{ hex: "#111111", share: 0.9 }],
      background: [{ hex: "#ffffff", share: 0.8 }],
      buttons: [{ hex: "#6d28d9", share: 1 }],
      isDark: false,
    },
    typography: {
      families: [{ family: '"Inter", sans-serif', share: 0.8 }],
      sizeScale: [
        { px: 48, share: 0.1 },
        { px: 16, share: 0.7 },
      ],
      weights: [{ weight: 400, share: 0.8 }],
      headings: [{ level: 1, family: "Inter, sans-serif", sizePx: 48, weight: 700, lineHeightPx: 56 }],
      body: { family: "Inter", sizePx: 16, weight: 400, lineHeightPx: 24 },
    },
    layout: {
      regions: [
        { kind: "header", box: { x: 0, y: 0, width: 1440, height: 80 } },
        { kind: "hero", box: { x: 0, y: 80, width: 1440, height: 600 } },
      ],
      columns: 3,
      radiusPx: 8,
      spacingPx: 64,
    },
    elements: {
      ctas: [
        {
          text: "Start free trial",
          box: { x: 720, y: 400, width: 200, height: 48 },
          aboveFold: true,
          href: "/signup",
          bg: "#6d28d9",
          fg: "#ffffff",
        },
      ],
      links: 24,
      linksAboveFold: 9,
      forms: [{ box: { x: 100, y: 1200, width: 600, height: 300 }, inputs: 3, aboveFold: false }],
      inputs: 3,
      images: 5,
      imagesAboveFold: 2,
      headings: [{ level: 1, text: "Ship faster", box: { x: 100, y: 200, width: 600, height: 60 }, aboveFold: true }],
    },
    copy: { headline: "Ship faster", visibleText: "Ship faster", wordCount: 2, readability: 80 },
    timing: {
      ttfbMs: 100,
      fcpMs: 400,
      lcpMs: 900,
      cls: 0,
      domContentLoadedMs: 500,
      loadMs: 800,
      bytes: 100000,
      requests: 10,
      largestResource: null,
    },
    accessibility: { lowContrast: [], bodyContrast: 12, imagesWithoutAlt: 0, inputsWithoutLabel: 0 },
    ...over,
  };
}

export function snapshot(id: string, targetId: string, viewport: Viewport, over: Partial<SnapshotDto> = {}): SnapshotDto {
  return {
    id,
    targetId,
    capturedAt: "2025-01-01T00:10:00.000Z",
    viewport,
    screenshotUrl: `/api/snapshots/${id}/screenshot`,
    title: "Alpha",
    colors: ["#ffffff"],
    width: viewport === "desktop" ? 1440 : 390,
    height: 2000,
    consent: null,
    extraction: extraction({ viewport }),
    ...over,
  };
}
