// Everything a fresh screenshot's pixels tell, in one streaming pass: the dominant colours, whether
// the page is dark, and the grey thumbnail that scoring compares. The capture decodes its PNG once,
// here, and hands the thumbnail to the analyser, which then never decodes that file at all.

import { decodePng, type GrayImage } from "#server/lib/image/image";
import { createPaletteSampler, dominantColors, isDarkImage, isDarkLuminance, type DominantColor } from "#server/lib/image/palette";
import { openPng, thumbnailSink } from "#server/lib/image/png-stream";
import { rowMasker, type Rect } from "#server/lib/image/mask-rows";
import { thumbnail, thumbnailWidth } from "#server/lib/image/thumbnail";

export interface ScreenshotSummary {
  dominant: DominantColor[];
  isDark: boolean;
  thumb: GrayImage;
}

/** Something else that wants the decoded rows in the same pass (the capture's painted-contrast sampler). */
export type RowSink = (row: Uint8Array | Uint8ClampedArray, y: number, channels: number) => void;

/** Parts of the screenshot painted over with `fill` ("#rrggbb") before the palette and thumbnail see them (masked consent banners). */
export interface ScreenshotMasks {
  rects: readonly Rect[];
  fill: readonly [number, number, number];
}

export async function summariseScreenshot(
  png: Uint8Array,
  colors = 8,
  alsoRows?: RowSink,
  masks?: ScreenshotMasks,
): Promise<ScreenshotSummary> {
  const image = openPng(png);
  if (!image) {
    // A format the streaming decoder leaves alone (Chromium never writes one): decode it whole.
    const rgba = decodePng(png);
    if (alsoRows) for (let y = 0; y < rgba.height; y++) alsoRows(rgba.data.subarray(y * rgba.width * 4, (y + 1) * rgba.width * 4), y, 4);
    if (masks?.rects.length) {
      const mask = rowMasker(rgba.width, 4, masks.rects, masks.fill);
      for (let y = 0; y < rgba.height; y++) {
        const row = rgba.data.subarray(y * rgba.width * 4, (y + 1) * rgba.width * 4);
        row.set(mask(row, y));
      }
    }
    return {
      dominant: dominantColors(rgba.data, rgba.width, rgba.height, colors),
      isDark: isDarkImage(rgba.data, rgba.width, rgba.height),
      thumb: thumbnail(rgba),
    };
  }
  const palette = createPaletteSampler(image.width, image.height);
  const thumb = thumbnailSink(image.width, image.height, image.channels, thumbnailWidth);
  const mask = masks?.rects.length ? rowMasker(image.width, image.channels, masks.rects, masks.fill) : null;
  await image.rows((decoded, y) => {
    alsoRows?.(decoded, y, image.channels);
    const row = mask ? mask(decoded, y) : decoded;
    thumb.push(row);
    if (palette.wants(y)) palette.push(row, image.channels);
  });
  return { dominant: palette.dominant(colors), isDark: isDarkLuminance(palette.meanLuminance()), thumb: thumb.finish() };
}
