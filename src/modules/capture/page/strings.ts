// Small text helpers the gatherers share.

/** Whitespace collapsed, trimmed and cut to `max` characters. */
export const clean = (s: string, max: number) => s.replace(/\s+/g, " ").trim().slice(0, max);

/** The first family of a font-family list, unquoted. */
export const firstFamily = (fontFamily: string) => (fontFamily.split(",")[0] ?? "").replace(/["']/g, "").trim();

/** Rounds to one decimal, the precision sizes and line heights are reported in. */
export const tenth = (v: number) => Math.round(v * 10) / 10;
