// The grey thumbnail a screenshot is compared by. At 1/6 of the screenshot body text becomes grey
// bars while blocks and images stay visible, so comparing thumbnails measures arrangement rather
// than glyphs or brand colours.

import { downscaleGray, type GrayImage, type RgbaImage } from "./image";

const THUMB_DIVISOR = 6;
const MIN_THUMB_WIDTH = 48;

export function thumbnailWidth(imageWidth: number): number {
  return Math.max(MIN_THUMB_WIDTH, Math.round(imageWidth / THUMB_DIVISOR));
}

/** The thumbnail of a decoded screenshot; computed once per screenshot and reusable across pairs. */
export function thumbnail(img: RgbaImage): GrayImage {
  return downscaleGray(img, thumbnailWidth(img.width));
}
