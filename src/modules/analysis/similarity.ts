// One pair of captures (same viewport) -> the four similarity fractions plus every component
// behind them, so the UI and the findings can show why two pages scored as they did.
//
// The blend (rationale in docs/decisions/0002-similarity-blend.md):
//   colorSimilarity   = 0.60 palette roles (primary/secondary brand colour, background, text)
//                       + 0.20 screenshot palette + 0.10 button colours + 0.05 text colours
//                       + 0.05 background colours   (share-weighted EMD in CIEDE2000)
//   layoutSimilarity  = 0.50 DOM structure + 0.50 band-aligned SSIM of grey thumbnails
//   contentSimilarity = 0.45 vocabulary cosine + 0.35 3-word shingles + 0.20 headline
//                       (boilerplate words such as nav labels and legal lines count little)
//   designSimilarity  = 3/7 colour + 3/7 layout + 1/7 typography   (no text at all)
//   overallSimilarity = 0.70 design + 0.30 content
//                     (= 0.30 colour + 0.30 layout + 0.30 content + 0.10 typography)
//   typography compares the families Chromium drew when both captures recorded them (see typography.ts)
// Components that cannot be measured (e.g. a page with no buttons) drop out and the remaining
// weights are renormalised, so a missing signal never reads as "different".
// Pixel difference is deliberately absent: two brands never share pixels, so it says nothing.

import { VIEWPORTS, type Extraction, type PaletteEntry, type SimilarityScores } from "#server/modules/capture/model";
import { fillRectsGray, greyOf } from "#server/lib/image/mask-rows";
import { paletteRoles, type PaletteRoles } from "#server/modules/capture/public";
import { rolesSimilarity } from "./color-roles";
import { decodePng, type GrayImage, type RgbaImage } from "#server/lib/image/image";
import { structureSimilarity } from "./layout";
import { dominantColors } from "#server/lib/image/palette";
import { paletteSimilarity } from "./palette-similarity";
import { textSimilarity } from "./text";
import { typographySimilarity } from "./typography";
import { pngToThumbnail } from "#server/lib/image/png-stream";
import { thumbnail, thumbnailWidth } from "#server/lib/image/thumbnail";
import { visualSimilarity } from "./visual";

export interface PairInput {
  extraction: Extraction;
  /** PNG file bytes of the full-page screenshot. */
  png: Uint8Array;
}

/** What scoring needs from one capture; small enough to cache per screenshot. */
export interface PreparedCapture {
  extraction: Extraction;
  thumb: GrayImage;
  /** The screenshot's palette (from the extraction, or measured here if the capture had none). */
  palette: PaletteEntry[];
}

export type PairScores = SimilarityScores & { designSimilarity: number; components: Record<string, number> };

export const BLEND = {
  color: { roles: 0.6, dominant: 0.2, buttons: 0.1, text: 0.05, background: 0.05 },
  layout: { structure: 0.5, ssim: 0.5 },
  design: { color: 3 / 7, layout: 3 / 7, typography: 1 / 7 },
  overall: { design: 0.7, content: 0.3 },
} as const;

/**
 * designSimilarity from its parts; a stored diff without it gets it from its
 * colour and layout scores and its typography component (absent typography drops out).
 */
export function designFromParts(color: number, layout: number, typography: number | null): number {
  return round(
    blend([
      [color, BLEND.design.color],
      [layout, BLEND.design.layout],
      [typography, BLEND.design.typography],
    ]),
  );
}

const rolesOf = (e: Extraction): PaletteRoles | null => e.palette.roles ?? (e.palette.salient ? paletteRoles(e.palette) : null);

function blend(parts: [number | null, number][]): number {
  let sum = 0;
  let weights = 0;
  for (const [value, weight] of parts) {
    if (value === null || !Number.isFinite(value)) continue;
    sum += value * weight;
    weights += weight;
  }
  return weights > 0 ? sum / weights : 0;
}

const clamp01 = (v: number) => Math.max(0, Math.min(1, v));
const round = (v: number) => Math.round(clamp01(v) * 10_000) / 10_000;

export function prepareDecoded(extraction: Extraction, image: RgbaImage): PreparedCapture {
  const palette =
    extraction.palette.dominant.length > 0 ? extraction.palette.dominant : dominantColors(image.data, image.width, image.height);
  return { extraction, thumb: thumbnail(image), palette };
}

export function prepare(extraction: Extraction, png: Uint8Array): PreparedCapture {
  return prepareDecoded(extraction, decodePng(png));
}

/**
 * Same result as prepare(), but streams the PNG into the thumbnail so the full bitmap never
 * exists (a few MB instead of ~180 MB for a 16 000 px page, and about twice as fast). Falls back to
 * a full decode when the palette must be measured from pixels or the PNG is an unusual format.
 */
export async function prepareStreaming(extraction: Extraction, png: Uint8Array): Promise<PreparedCapture> {
  if (extraction.palette.dominant.length > 0) {
    const thumb = await pngToThumbnail(png, thumbnailWidth);
    if (thumb) return { extraction, thumb, palette: extraction.palette.dominant };
  }
  return prepare(extraction, png);
}

/**
 * Both thumbnails with the regions either capture masked (consent banners left on screen) painted
 * in each page's own background: neither banner counts, nor what the other page shows where it sat.
 */
function maskedThumbs(a: PreparedCapture, b: PreparedCapture): [GrayImage, GrayImage] {
  const masks = [...(a.extraction.masks ?? []), ...(b.extraction.masks ?? [])];
  const paint = (p: PreparedCapture) =>
    fillRectsGray(p.thumb, masks, p.thumb.width / VIEWPORTS[p.extraction.viewport].width, greyOf(rolesOf(p.extraction)?.background));
  return masks.length === 0 ? [a.thumb, b.thumb] : [paint(a), paint(b)];
}

export function scorePrepared(a: PreparedCapture, b: PreparedCapture): PairScores {
  const ea = a.extraction;
  const eb = b.extraction;
  if (ea.viewport !== eb.viewport) throw new Error("scorePair: both captures must use the same viewport");

  const dominant = paletteSimilarity(a.palette, b.palette);
  const buttons = paletteSimilarity(ea.palette.buttons, eb.palette.buttons);
  const text = paletteSimilarity(ea.palette.text, eb.palette.text);
  const background = paletteSimilarity(ea.palette.background, eb.palette.background);
  const theme = ea.palette.isDark === eb.palette.isDark ? 1 : 0;
  const rolesA = rolesOf(ea);
  const rolesB = rolesOf(eb);
  // Captures without colour roles keep the area-only blend.
  const roles = rolesA && rolesB ? rolesSimilarity(rolesA, rolesB) : null;
  const colorSimilarity = blend([
    [roles?.roles ?? null, BLEND.color.roles],
    [dominant, BLEND.color.dominant],
    [buttons, BLEND.color.buttons],
    [text, BLEND.color.text],
    [background, BLEND.color.background],
  ]);

  const structure = structureSimilarity(ea, eb);
  const visual = visualSimilarity(...maskedThumbs(a, b), ea.viewport);
  const layoutSimilarity = blend([
    [structure.structure, BLEND.layout.structure],
    [visual.page, BLEND.layout.ssim],
  ]);

  const copy = textSimilarity(ea.copy, eb.copy);
  const type = typographySimilarity(ea.typography, eb.typography);

  const designSimilarity = blend([
    [colorSimilarity, BLEND.design.color],
    [layoutSimilarity, BLEND.design.layout],
    [type.typography, BLEND.design.typography],
  ]);
  const overallSimilarity = blend([
    [designSimilarity, BLEND.overall.design],
    [copy.content, BLEND.overall.content],
  ]);

  const components: Record<string, number> = {
    "color.dominant": dominant ?? Number.NaN,
    "color.buttons": buttons ?? Number.NaN,
    "color.text": text ?? Number.NaN,
    "color.background": background ?? Number.NaN,
    "color.theme": theme,
    "color.roles": roles?.roles ?? Number.NaN,
    "color.primary": roles?.primary ?? Number.NaN,
    "color.secondary": roles?.secondary ?? Number.NaN,
    "color.roleBackground": roles?.background ?? Number.NaN,
    "color.roleText": roles?.text ?? Number.NaN,
    "layout.sequence": structure.sequence,
    "layout.profile": structure.profile,
    "layout.columns": structure.columns,
    "layout.height": structure.height,
    "layout.tokens": structure.tokens,
    "layout.structure": structure.structure,
    "layout.ssimFold": visual.fold,
    "layout.ssim": visual.page,
    "content.vocabulary": copy.vocabulary,
    "content.phrasing": copy.phrasing,
    "content.headline": copy.headline,
    "typography.families": type.families,
    "typography.scale": type.scale,
    "typography.body": type.body,
    "typography.headline": type.headline,
    // Only meaningful (and only blended) when both pages say which fonts were drawn.
    "typography.weights": type.rendered ? type.weights : Number.NaN,
    typography: type.typography,
    design: designSimilarity,
  };
  // JSON has no NaN: unmeasurable components are left out rather than sent as null or 0.
  for (const [k, v] of Object.entries(components)) {
    if (Number.isFinite(v)) components[k] = round(v);
    else delete components[k];
  }

  return {
    colorSimilarity: round(colorSimilarity),
    layoutSimilarity: round(layoutSimilarity),
    contentSimilarity: round(copy.content),
    designSimilarity: round(designSimilarity),
    overallSimilarity: round(overallSimilarity),
    components,
  };
}

/** Scores two captures from their extractions and PNG bytes (full decode with pngjs). */
export function scorePair(a: PairInput, b: PairInput): PairScores {
  return scorePrepared(prepare(a.extraction, a.png), prepare(b.extraction, b.png));
}

/** scorePair() with the streaming decoder: the path the analyse worker takes. Same scores. */
export async function scorePairStreaming(a: PairInput, b: PairInput): Promise<PairScores> {
  return scorePrepared(await prepareStreaming(a.extraction, a.png), await prepareStreaming(b.extraction, b.png));
}

/** In-process scoring from screenshot files; the server uses createAnalyser() (a worker) instead. */
export async function scorePairFromFiles(
  aPath: string,
  aExtraction: Extraction,
  bPath: string,
  bExtraction: Extraction,
): Promise<PairScores> {
  const prepA = await prepareStreaming(aExtraction, await Bun.file(aPath).bytes());
  const prepB = await prepareStreaming(bExtraction, await Bun.file(bPath).bytes());
  return scorePrepared(prepA, prepB);
}
