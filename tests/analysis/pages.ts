// Three synthetic sites for similarity orderings: Alpha, a lightly edited Alpha, and Beta
// (another brand: dark theme, two-column layout, different copy).
import type { Extraction } from "#server/modules/capture/model";
import { encodePng, makeExtraction, paint, textLines, type Block } from "./support";

const W = 1440;

function alphaBlocks(edited: boolean): { height: number; blocks: Block[] } {
  const shift = edited ? 36 : 0; // the edited headline wraps onto a second line
  const blue = edited ? ([0x1d, 0x4e, 0xd8] as const) : ([0x25, 0x63, 0xeb] as const);
  const blocks: Block[] = [
    { x: 0, y: 0, w: W, h: 80, color: [0x11, 0x18, 0x27] },
    ...textLines(120, 180, 900, edited ? 2 : 1, 64, 11, [0x11, 0x18, 0x27]),
    ...textLines(120, 300 + shift, 700, 3, 30, 12, [0x4b, 0x55, 0x63]),
    { x: 120, y: 440 + shift, w: 220, h: 56, color: blue },
    { x: 820, y: 140, w: 500, h: 420, color: [0xdb, 0xea, 0xfe] },
  ];
  for (let s = 0; s < 3; s++) {
    const top = 720 + shift + s * 760;
    blocks.push({ x: 0, y: top, w: W, h: 700, color: s % 2 ? [0xf3, 0xf4, 0xf6] : [0xff, 0xff, 0xff] });
    blocks.push(...textLines(120, top + 60, 600, 1, 50, 20 + s, [0x11, 0x18, 0x27]));
    for (let c = 0; c < 3; c++) {
      blocks.push({ x: 120 + c * 410, y: top + 160, w: 380, h: 220, color: [0xe5, 0xe7, 0xeb] });
      blocks.push(...textLines(120 + c * 410, top + 410, 380, edited && s === 1 && c === 2 ? 4 : 5, 28, 30 + s * 3 + c));
    }
  }
  const height = 720 + shift + 3 * 760 + 300;
  blocks.push({ x: 0, y: height - 300, w: W, h: 300, color: [0x11, 0x18, 0x27] });
  return { height, blocks };
}

function betaBlocks(): { height: number; blocks: Block[] } {
  const blocks: Block[] = [
    { x: 0, y: 0, w: W, h: 64, color: [0x0b, 0x0b, 0x0f] },
    { x: 0, y: 64, w: W, h: 900, color: [0x7c, 0x2d, 0x12] },
    ...textLines(560, 300, 320, 2, 56, 91, [0xfd, 0xe6, 0x8a]),
    { x: 620, y: 480, w: 200, h: 64, color: [0xf9, 0x73, 0x16] },
  ];
  for (let s = 0; s < 5; s++) {
    const top = 964 + s * 520;
    blocks.push({ x: 0, y: top, w: W, h: 520, color: [0x0f, 0x17, 0x2a] });
    blocks.push({ x: s % 2 ? 760 : 80, y: top + 60, w: 600, h: 400, color: [0x33, 0x41, 0x55] });
    blocks.push(...textLines(s % 2 ? 80 : 760, top + 100, 560, 8, 34, 100 + s, [0xe2, 0xe8, 0xf0]));
  }
  const height = 964 + 5 * 520 + 200;
  blocks.push({ x: 0, y: height - 200, w: W, h: 200, color: [0x02, 0x06, 0x17] });
  return { height, blocks };
}

const ALPHA_TEXT =
  "Invoices that pay themselves. Alpha sends, tracks and chases your invoices so you get paid on time. Start free trial. " +
  "How it works. Connect your bank account, import your clients and let Alpha remind late payers politely on your behalf. " +
  "Every reminder is written in your voice and scheduled around your client's payment terms. " +
  "Pricing that grows with you. Start free with five invoices a month, then upgrade when your business does. " +
  "Loved by small businesses across Europe. Over twelve thousand freelancers and agencies use Alpha to get paid faster. " +
  "Frequently asked questions. Can I import invoices from my accounting software? Yes, Alpha connects to the tools you already use. " +
  "Is my data safe? Your data is encrypted at rest and in transit and never shared with third parties.";

const ALPHA_EDITED_TEXT = ALPHA_TEXT.replace("Invoices that pay themselves.", "Get paid on time, every time, without chasing.")
  .replace("Loved by small businesses across Europe.", "Trusted by small businesses all over Europe.")
  .replace("Start free trial.", "Try it free.");

const BETA_TEXT =
  "Roast your own coffee at home. Beta ships fresh green beans and a countertop roaster to your door every month. Shop the roaster. " +
  "Single origin, traceable farms. We buy directly from growers in Ethiopia, Colombia and Guatemala and pay above fair-trade prices. " +
  "Light, medium or dark — you decide. Our app walks you through every roast profile with live temperature curves. " +
  "Subscriptions pause anytime. Free shipping on orders over forty euros. Join the roasting club for recipes and brewing guides.";

export interface SyntheticPage {
  extraction: Extraction;
  png: Uint8Array;
}

function regionsAlpha(height: number, shift: number): Extraction["layout"]["regions"] {
  return [
    { kind: "header", box: { x: 0, y: 0, width: W, height: 80 } },
    { kind: "hero", box: { x: 0, y: 80, width: W, height: 640 + shift } },
    { kind: "section", box: { x: 0, y: 720 + shift, width: W, height: 760 } },
    { kind: "section", box: { x: 0, y: 1480 + shift, width: W, height: 760 } },
    { kind: "section", box: { x: 0, y: 2240 + shift, width: W, height: 760 } },
    { kind: "footer", box: { x: 0, y: height - 300, width: W, height: 300 } },
  ];
}

export function alpha(edited = false): SyntheticPage {
  const { height, blocks } = alphaBlocks(edited);
  const png = encodePng(W, height, paint(W, height, [255, 255, 255], blocks));
  const extraction = makeExtraction({
    pageHeight: height,
    capturedHeight: height,
    palette: {
      dominant: [
        { hex: "#ffffff", share: 0.55 },
        { hex: "#f3f4f6", share: 0.15 },
        { hex: "#111827", share: 0.15 },
        { hex: "#e5e7eb", share: 0.1 },
        { hex: edited ? "#1d4ed8" : "#2563eb", share: 0.05 },
      ],
      buttons: [{ hex: edited ? "#1d4ed8" : "#2563eb", share: 1 }],
    },
    layout: { regions: regionsAlpha(height, edited ? 36 : 0) },
    copy: {
      headline: edited ? "Get paid on time, every time, without chasing" : "Invoices that pay themselves",
      visibleText: edited ? ALPHA_EDITED_TEXT : ALPHA_TEXT,
    },
  });
  return { extraction, png };
}

export function beta(): SyntheticPage {
  const { height, blocks } = betaBlocks();
  const png = encodePng(W, height, paint(W, height, [0x0f, 0x17, 0x2a], blocks));
  const extraction = makeExtraction({
    url: "http://127.0.0.1/beta",
    finalUrl: "http://127.0.0.1/beta",
    title: "Beta Roasters",
    pageHeight: height,
    capturedHeight: height,
    palette: {
      dominant: [
        { hex: "#0f172a", share: 0.6 },
        { hex: "#7c2d12", share: 0.2 },
        { hex: "#334155", share: 0.12 },
        { hex: "#e2e8f0", share: 0.05 },
        { hex: "#f97316", share: 0.03 },
      ],
      text: [
        { hex: "#e2e8f0", share: 0.8 },
        { hex: "#fde68a", share: 0.2 },
      ],
      background: [
        { hex: "#0f172a", share: 0.8 },
        { hex: "#7c2d12", share: 0.2 },
      ],
      buttons: [{ hex: "#f97316", share: 1 }],
      isDark: true,
    },
    typography: {
      families: [
        { family: "'Playfair Display', serif", share: 0.3 },
        { family: "Lato, sans-serif", share: 0.7 },
      ],
      sizeScale: [
        { px: 64, share: 0.05 },
        { px: 32, share: 0.1 },
        { px: 16, share: 0.85 },
      ],
      headings: [{ level: 1, family: "Playfair Display", sizePx: 64, weight: 800, lineHeightPx: 70 }],
      body: { family: "Lato", sizePx: 16, weight: 300, lineHeightPx: 24 },
    },
    layout: {
      regions: [
        { kind: "nav", box: { x: 0, y: 0, width: W, height: 64 } },
        { kind: "hero", box: { x: 0, y: 64, width: W, height: 900 } },
        ...Array.from({ length: 5 }, (_, s) => ({ kind: "section" as const, box: { x: 0, y: 964 + s * 520, width: W, height: 520 } })),
        { kind: "footer", box: { x: 0, y: height - 200, width: W, height: 200 } },
      ],
      columns: 2,
      radiusPx: 0,
      spacingPx: 0,
    },
    copy: { headline: "Roast your own coffee at home", visibleText: BETA_TEXT },
  });
  return { extraction, png };
}
