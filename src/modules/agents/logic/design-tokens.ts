// The design tokens DesignNinja styles components with, read from a capture's extraction.
// Every value is validated here: the tokens end up inside generated source code.
import type { Extraction } from "#server/modules/capture/model";
import { contrast, isChromatic, luminance, mix, normalizeHex } from "./color";

import type { DesignTokens } from "../model";
export type { DesignTokens };

export const DEFAULT_SOURCE_LABEL = "Design Intel default tokens";

/** The product's own look (Radix violet on slate), used when no site has been captured yet. */
export const DEFAULT_TOKENS: DesignTokens = {
  primary: "#6e56cf",
  onPrimary: "#ffffff",
  background: "#ffffff",
  surface: "#f9f9fb",
  text: "#1c2024",
  muted: "#60646c",
  fontFamily: '"Inter", system-ui, sans-serif',
  radius: 12,
  space: 16,
};

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Only letters, digits, spaces and dashes survive: a family name can never close the string it sits in. */
export function safeFontName(raw: string | null | undefined): string | null {
  const first = raw
    ?.split(",")[0]
    ?.trim()
    .replace(/^["']|["']$/g, "");
  const clean = first
    ?.replace(/[^A-Za-z0-9 -]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 40);
  return clean ? clean : null;
}

function bestOn(bg: string): string {
  return contrast("#ffffff", bg) >= contrast("#111111", bg) ? "#ffffff" : "#111111";
}

export function tokensFromExtraction(e: Partial<Extraction>): DesignTokens {
  const pick = (list: { hex?: string }[] | undefined, pred: (h: string) => boolean = () => true) => {
    for (const c of list ?? []) {
      const h = normalizeHex(c?.hex);
      if (h && pred(h)) return h;
    }
    return null;
  };
  const isDark = e.palette?.isDark === true;
  const background = pick(e.palette?.background) ?? (isDark ? "#111113" : "#ffffff");
  let text = pick(e.palette?.text) ?? bestOn(background);
  if (contrast(text, background) < 4.5) text = bestOn(background);
  const primary =
    pick(e.palette?.buttons, isChromatic) ?? pick(e.palette?.dominant, isChromatic) ?? pick(e.palette?.buttons) ?? DEFAULT_TOKENS.primary;
  const ctaFg = normalizeHex(e.elements?.ctas?.[0]?.fg);
  const onPrimary = ctaFg && contrast(ctaFg, primary) >= 3 ? ctaFg : bestOn(primary);
  const family = safeFontName(e.typography?.body?.family ?? e.typography?.families?.[0]?.family);
  const radius =
    typeof e.layout?.radiusPx === "number" && Number.isFinite(e.layout.radiusPx) ? Math.round(clamp(e.layout.radiusPx, 0, 32)) : 8;
  const spacing = typeof e.layout?.spacingPx === "number" && Number.isFinite(e.layout.spacingPx) ? e.layout.spacingPx : 64;
  return {
    primary,
    onPrimary,
    background,
    surface: mix(background, text, luminance(background) < 0.5 ? 0.08 : 0.04),
    text,
    muted: mix(text, background, 0.35),
    fontFamily: family ? `"${family}", system-ui, sans-serif` : "system-ui, sans-serif",
    radius,
    space: Math.round(clamp(spacing / 4, 8, 32)),
  };
}
