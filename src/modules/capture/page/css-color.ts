// Colours as the page computes them, in culori's terms (the library the server's colour maths uses
// too). Computed styles serialise legacy colours as rgb()/rgba(), which culori parses; anything
// else (oklch(), color-mix(), lab() ...) goes through a 1px canvas, so the browser itself maps it
// to sRGB exactly as it paints it.

import { blend, formatHex, modeLrgb, modeRgb, parse, useMode, wcagContrast, type Rgb } from "culori/fn";

useMode(modeRgb);
useMode(modeLrgb); // WCAG luminance is defined on linear sRGB

/** An sRGB colour whose alpha is always set (culori leaves it out for opaque colours). */
export type Paint = Rgb & { alpha: number };

export const WHITE: Paint = { mode: "rgb", r: 1, g: 1, b: 1, alpha: 1 };
export const CLEAR: Paint = { mode: "rgb", r: 0, g: 0, b: 0, alpha: 0 };

/** A memoised reader of computed CSS colours. */
export function createColorReader(): (css: string) => Paint {
  const cache = new Map<string, Paint>();
  let ctx: CanvasRenderingContext2D | null | undefined;
  const viaCanvas = (css: string): Paint => {
    if (ctx === undefined) {
      const canvas = document.createElement("canvas");
      canvas.width = 1;
      canvas.height = 1;
      ctx = canvas.getContext("2d", { willReadFrequently: true });
    }
    if (!ctx) return CLEAR;
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = "#000";
    ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1);
    const d = ctx.getImageData(0, 0, 1, 1).data;
    return { mode: "rgb", r: d[0]! / 255, g: d[1]! / 255, b: d[2]! / 255, alpha: d[3]! / 255 };
  };
  return (css) => {
    const hit = cache.get(css);
    if (hit) return hit;
    let out = CLEAR;
    if (css && css !== "transparent") {
      const parsed = parse(css);
      out = parsed?.mode === "rgb" ? { ...parsed, alpha: parsed.alpha ?? 1 } : viaCanvas(css);
    }
    cache.set(css, out);
    return out;
  };
}

/** `top` painted over `bottom` (source-over). */
export function over(top: Paint, bottom: Paint): Paint {
  const mixed = blend([bottom, top], "normal", "rgb");
  return { ...mixed, alpha: mixed.alpha ?? 1 };
}

export const withAlpha = (c: Paint, alpha: number): Paint => ({ ...c, alpha });

export const hex = (c: Paint): string => formatHex(c);

/** WCAG contrast ratio; alpha is ignored (composite first). */
export const contrast = (a: Paint, b: Paint): number => wcagContrast(a, b);
