// Hand-built extractions and synthetic screenshots for the analysis tests.
import { PNG } from "pngjs";
import type { AuditRule, Extraction, Viewport } from "#server/modules/capture/model";

type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends (infer U)[] ? U[] : T[K] extends object | null ? DeepPartial<NonNullable<T[K]>> | T[K] : T[K];
};

function merge<T>(base: T, patch: DeepPartial<T> | undefined): T {
  if (!patch) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(patch)) {
    const b = out[k];
    out[k] = v && typeof v === "object" && !Array.isArray(v) && b && typeof b === "object" && !Array.isArray(b) ? merge(b, v as never) : v;
  }
  return out as T;
}

const box = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });

/** A healthy, ordinary landing page: no rule should fire on it alone. */
export function makeExtraction(patch?: DeepPartial<Extraction>, viewport: Viewport = "desktop"): Extraction {
  const w = viewport === "desktop" ? 1440 : 390;
  const base: Extraction = {
    url: "http://127.0.0.1/alpha",
    finalUrl: "http://127.0.0.1/alpha",
    viewport,
    title: "Alpha — invoices that pay themselves",
    metaDescription: "Alpha sends, tracks and chases your invoices so you get paid on time. Start a free 14-day trial today.",
    pageHeight: 3200,
    capturedHeight: 3200,
    palette: {
      dominant: [
        { hex: "#ffffff", share: 0.7 },
        { hex: "#111827", share: 0.15 },
        { hex: "#2563eb", share: 0.1 },
        { hex: "#f3f4f6", share: 0.05 },
      ],
      text: [
        { hex: "#111827", share: 0.8 },
        { hex: "#4b5563", share: 0.2 },
      ],
      background: [
        { hex: "#ffffff", share: 0.85 },
        { hex: "#f3f4f6", share: 0.15 },
      ],
      buttons: [{ hex: "#2563eb", share: 1 }],
      isDark: false,
    },
    typography: {
      families: [
        { family: "Inter, sans-serif", share: 0.9 },
        { family: "Georgia, serif", share: 0.1 },
      ],
      sizeScale: [
        { px: 48, share: 0.05 },
        { px: 24, share: 0.15 },
        { px: 18, share: 0.8 },
      ],
      weights: [
        { weight: 400, share: 0.8 },
        { weight: 700, share: 0.2 },
      ],
      headings: [{ level: 1, family: "Inter", sizePx: 48, weight: 700, lineHeightPx: 56 }],
      body: { family: "Inter", sizePx: 18, weight: 400, lineHeightPx: 28 },
    },
    layout: {
      regions: [
        { kind: "header", box: box(0, 0, w, 80) },
        { kind: "hero", box: box(0, 80, w, 620) },
        { kind: "main", box: box(0, 700, w, 2200) },
        { kind: "section", box: box(0, 700, w, 800) },
        { kind: "section", box: box(0, 1500, w, 700) },
        { kind: "section", box: box(0, 2200, w, 700) },
        { kind: "footer", box: box(0, 2900, w, 300) },
      ],
      columns: 3,
      radiusPx: 8,
      spacingPx: 96,
    },
    elements: {
      ctas: [{ text: "Start free trial", box: box(100, 400, 200, 56), aboveFold: true, href: "/signup", bg: "#2563eb", fg: "#ffffff" }],
      links: 24,
      linksAboveFold: 8,
      forms: [],
      inputs: 0,
      images: 6,
      imagesAboveFold: 1,
      headings: [
        { level: 1, text: "Invoices that pay themselves", box: box(100, 200, 800, 56), aboveFold: true },
        { level: 2, text: "How it works", box: box(100, 760, 600, 40), aboveFold: false },
      ],
    },
    copy: {
      headline: "Invoices that pay themselves",
      visibleText:
        "Invoices that pay themselves. Alpha sends, tracks and chases your invoices so you get paid on time. " +
        "How it works. Connect your bank, import your clients and let Alpha remind late payers politely. " +
        "Pricing that grows with you. Loved by small businesses across Europe. Start free trial.",
      wordCount: 400,
      readability: 65,
    },
    timing: {
      ttfbMs: 80,
      fcpMs: 600,
      lcpMs: 1100,
      cls: 0.01,
      domContentLoadedMs: 500,
      loadMs: 1200,
      bytes: 900 * 1024,
      requests: 30,
      largestResource: { url: "http://127.0.0.1/alpha/hero.webp", bytes: 120 * 1024, type: "image" },
    },
    accessibility: {
      lowContrast: [],
      bodyContrast: 15.4,
      imagesWithoutAlt: 0,
      inputsWithoutLabel: 0,
      audit: { engine: "axe-core 4.14.1", ms: 120, violations: [], incomplete: [] },
    },
  };
  return merge(base, patch);
}

/** One failed axe-core rule as the capture stores it (capture/gatherers/axe-results.ts). */
export function axeRule(id: string, patch: Partial<AuditRule> = {}): AuditRule {
  return {
    id,
    impact: "serious",
    level: "A",
    criteria: ["4.1.2"],
    wcag: "2.0",
    help: `Help for ${id}`,
    helpUrl: `https://dequeuniversity.com/rules/axe/4.14/${id}`,
    count: 1,
    examples: [{ html: `<div id="${id}-example"></div>`, selector: `#${id}-example` }],
    ...patch,
  };
}

export interface Block {
  x: number;
  y: number;
  w: number;
  h: number;
  color: readonly [number, number, number];
}

/** A flat-colour "screenshot": a background with rectangles painted in order. */
export function paint(width: number, height: number, background: readonly [number, number, number], blocks: Block[]): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = background[0];
    data[i + 1] = background[1];
    data[i + 2] = background[2];
    data[i + 3] = 255;
  }
  for (const b of blocks) {
    for (let y = Math.max(0, b.y); y < Math.min(height, b.y + b.h); y++) {
      for (let x = Math.max(0, b.x); x < Math.min(width, b.x + b.w); x++) {
        const i = (y * width + x) * 4;
        data[i] = b.color[0];
        data[i + 1] = b.color[1];
        data[i + 2] = b.color[2];
      }
    }
  }
  return data;
}

/** Text-like stripes: lines of "words" (dark dashes) inside a block, like body copy at any scale. */
export function textLines(
  x: number,
  y: number,
  w: number,
  lines: number,
  lineHeight: number,
  seed: number,
  color: readonly [number, number, number] = [17, 24, 39],
): Block[] {
  const out: Block[] = [];
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff), s / 0x7fffffff);
  for (let l = 0; l < lines; l++) {
    let cx = x;
    const end = x + w * (l === lines - 1 ? 0.6 : 1);
    while (cx < end) {
      const word = Math.round(20 + rand() * 70);
      out.push({ x: cx, y: y + l * lineHeight, w: Math.min(word, end - cx), h: Math.round(lineHeight * 0.55), color });
      cx += word + 10;
    }
  }
  return out;
}

export function encodePng(width: number, height: number, data: Uint8Array): Uint8Array {
  const png = new PNG({ width, height });
  png.data = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(PNG.sync.write(png));
}
