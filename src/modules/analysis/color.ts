// Colour maths shared by palette extraction, palette similarity and the contrast rules.
// sRGB (D65) -> linear -> XYZ -> CIELAB, CIEDE2000 after Sharma, Wu & Dalal (2005),
// relative luminance and contrast ratio as defined by WCAG 2.x.

export type Rgb = readonly [number, number, number];
export type Lab = readonly [number, number, number];

export function hexToRgb(hex: string): Rgb | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  let h = m[1]!;
  if (h.length === 3) h = h[0]! + h[0]! + h[1]! + h[1]! + h[2]! + h[2]!;
  const n = Number.parseInt(h, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function rgbToHex(r: number, g: number, b: number): string {
  const c = (v: number) => Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, "0");
  return `#${c(r)}${c(g)}${c(b)}`;
}

// 256-entry lookup: the linearisation is the hot path when sampling large screenshots.
const LINEAR = new Float64Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  LINEAR[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function linear(channel: number): number {
  const i = Math.max(0, Math.min(255, Math.round(channel)));
  return LINEAR[i]!;
}

/** WCAG relative luminance, 0 (black) .. 1 (white). */
export function relativeLuminance(r: number, g: number, b: number): number {
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG contrast ratio between two colours, 1..21. */
export function contrastRatio(a: Rgb | string, b: Rgb | string): number {
  const ca = typeof a === "string" ? hexToRgb(a) : a;
  const cb = typeof b === "string" ? hexToRgb(b) : b;
  if (!ca || !cb) return Number.NaN;
  const la = relativeLuminance(ca[0], ca[1], ca[2]);
  const lb = relativeLuminance(cb[0], cb[1], cb[2]);
  const [hi, lo] = la >= lb ? [la, lb] : [lb, la];
  return (hi + 0.05) / (lo + 0.05);
}

// D65 reference white (2° observer), as used by sRGB.
const XN = 0.95047;
const YN = 1.0;
const ZN = 1.08883;
const EPS = 216 / 24389;
const KAPPA = 24389 / 27;

function f(t: number): number {
  return t > EPS ? Math.cbrt(t) : (KAPPA * t + 16) / 116;
}

export function rgbToXyz(r: number, g: number, b: number): [number, number, number] {
  const lr = linear(r);
  const lg = linear(g);
  const lb = linear(b);
  return [
    0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb,
    0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb,
    0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb,
  ];
}

export function xyzToLab(x: number, y: number, z: number): [number, number, number] {
  const fx = f(x / XN);
  const fy = f(y / YN);
  const fz = f(z / ZN);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

export function rgbToLab(r: number, g: number, b: number): [number, number, number] {
  const [x, y, z] = rgbToXyz(r, g, b);
  return xyzToLab(x, y, z);
}

export function hexToLab(hex: string): Lab | null {
  const rgb = hexToRgb(hex);
  return rgb ? rgbToLab(rgb[0], rgb[1], rgb[2]) : null;
}

export function labToRgb(L: number, a: number, b: number): [number, number, number] {
  const fy = (L + 16) / 116;
  const fx = fy + a / 500;
  const fz = fy - b / 200;
  const inv = (t: number) => (t ** 3 > EPS ? t ** 3 : (116 * t - 16) / KAPPA);
  const x = inv(fx) * XN;
  const y = inv(fy) * YN;
  const z = inv(fz) * ZN;
  const lr = 3.2404542 * x - 1.5371385 * y - 0.4985314 * z;
  const lg = -0.969266 * x + 1.8760108 * y + 0.041556 * z;
  const lb = 0.0556434 * x - 0.2040259 * y + 1.0572252 * z;
  const gamma = (c: number) => {
    const v = c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055;
    return Math.max(0, Math.min(255, Math.round(v * 255)));
  };
  return [gamma(lr), gamma(lg), gamma(lb)];
}

const DEG = Math.PI / 180;
const POW25_7 = 25 ** 7;

/** CIEDE2000 colour difference (kL = kC = kH = 1). */
export function deltaE2000(lab1: Lab, lab2: Lab): number {
  const [L1, a1, b1] = lab1;
  const [L2, a2, b2] = lab2;
  const C1 = Math.hypot(a1, b1);
  const C2 = Math.hypot(a2, b2);
  const Cbar7 = ((C1 + C2) / 2) ** 7;
  const G = 0.5 * (1 - Math.sqrt(Cbar7 / (Cbar7 + POW25_7)));
  const a1p = (1 + G) * a1;
  const a2p = (1 + G) * a2;
  const C1p = Math.hypot(a1p, b1);
  const C2p = Math.hypot(a2p, b2);
  const hueAngle = (b: number, ap: number) => {
    if (b === 0 && ap === 0) return 0;
    const h = Math.atan2(b, ap) / DEG;
    return h < 0 ? h + 360 : h;
  };
  const h1p = hueAngle(b1, a1p);
  const h2p = hueAngle(b2, a2p);

  const dLp = L2 - L1;
  const dCp = C2p - C1p;
  let dhp = 0;
  if (C1p * C2p !== 0) {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin((dhp / 2) * DEG);

  const Lbp = (L1 + L2) / 2;
  const Cbp = (C1p + C2p) / 2;
  let hbp = h1p + h2p;
  if (C1p * C2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hbp = (h1p + h2p) / 2;
    else if (h1p + h2p < 360) hbp = (h1p + h2p + 360) / 2;
    else hbp = (h1p + h2p - 360) / 2;
  }
  const T =
    1 -
    0.17 * Math.cos((hbp - 30) * DEG) +
    0.24 * Math.cos(2 * hbp * DEG) +
    0.32 * Math.cos((3 * hbp + 6) * DEG) -
    0.2 * Math.cos((4 * hbp - 63) * DEG);
  const dTheta = 30 * Math.exp(-(((hbp - 275) / 25) ** 2));
  const Cbp7 = Cbp ** 7;
  const Rc = 2 * Math.sqrt(Cbp7 / (Cbp7 + POW25_7));
  const Lm50 = (Lbp - 50) ** 2;
  const Sl = 1 + (0.015 * Lm50) / Math.sqrt(20 + Lm50);
  const Sc = 1 + 0.045 * Cbp;
  const Sh = 1 + 0.015 * Cbp * T;
  const Rt = -Math.sin(2 * dTheta * DEG) * Rc;
  const tl = dLp / Sl;
  const tc = dCp / Sc;
  const th = dHp / Sh;
  return Math.sqrt(tl * tl + tc * tc + th * th + Rt * tc * th);
}

export function deltaE2000Hex(a: string, b: string): number {
  const la = hexToLab(a);
  const lb = hexToLab(b);
  if (!la || !lb) return Number.NaN;
  return deltaE2000(la, lb);
}

/** Walks L* of `colour` (hue and chroma kept) in `direction` until it reaches `target` against `other`. */
function walkLightness(colour: string, other: Rgb, direction: 1 | -1, target: number): string | null {
  const lab = hexToLab(colour);
  if (!lab) return null;
  for (let L = lab[0]; L >= 0 && L <= 100; L += direction) {
    const rgb = labToRgb(L, lab[1], lab[2]);
    if (contrastRatio(rgb, other) >= target) return rgbToHex(rgb[0], rgb[1], rgb[2]);
  }
  return null;
}

/**
 * The smallest change that makes `fg` on `bg` reach `target`: the text pushed further from its
 * background (darker text stays darker, light text gets lighter, same hue and chroma), or — when
 * the text is already at black/white — the background pushed the other way. Used to make contrast
 * fixes concrete: "use #5f6368 instead of #9aa0a6".
 */
export function contrastFix(fg: string, bg: string, target = 4.5): { fg: string; bg: string } | null {
  const f = hexToRgb(fg);
  const b = hexToRgb(bg);
  if (!f || !b) return null;
  const fgHex = rgbToHex(f[0], f[1], f[2]);
  const bgHex = rgbToHex(b[0], b[1], b[2]);
  if (contrastRatio(f, b) >= target) return { fg: fgHex, bg: bgHex };
  const lighterText = relativeLuminance(f[0], f[1], f[2]) >= relativeLuminance(b[0], b[1], b[2]);
  const newFg = walkLightness(fgHex, b, lighterText ? 1 : -1, target);
  if (newFg) return { fg: newFg, bg: bgHex };
  const newBg = walkLightness(bgHex, f, lighterText ? -1 : 1, target);
  return newBg ? { fg: fgHex, bg: newBg } : null;
}

/** contrastFix() limited to changing the text colour; null if that alone can't reach the target. */
export function adjustForContrast(fg: string, bg: string, target = 4.5): string | null {
  const fix = contrastFix(fg, bg, target);
  const b = hexToRgb(bg);
  return fix && b && fix.bg === rgbToHex(b[0], b[1], b[2]) ? fix.fg : null;
}
