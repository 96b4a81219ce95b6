// Painting rectangles of an image over with one colour as its rows stream past (or in a whole
// bitmap): what is under them then weighs in no palette, thumbnail or comparison made from the
// pixels. Rows are copied before they are painted: a streaming PNG decoder still reads the row it
// handed out to unfilter the next one.

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** "#rrggbb" as [r, g, b]; white when it is not one. */
export function rgbOf(hex: string | null | undefined): [number, number, number] {
  const m = /^#([0-9a-f]{6})$/i.exec(hex ?? "");
  if (!m) return [255, 255, 255];
  const n = parseInt(m[1]!, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/**
 * A function that returns `row` (the image's row `y`, `channels` bytes a pixel) as is when no rect
 * crosses it, or a copy with the rects' part painted `fill`.
 */
export function rowMasker(width: number, channels: number, rects: readonly Rect[], fill: readonly [number, number, number]) {
  const spans = rects
    .map((r) => ({
      y0: Math.max(0, Math.floor(r.y)),
      y1: Math.ceil(r.y + r.height),
      x0: Math.max(0, Math.floor(r.x)),
      x1: Math.min(width, Math.ceil(r.x + r.width)),
    }))
    .filter((s) => s.x1 > s.x0 && s.y1 > s.y0);
  let scratch: Uint8Array | null = null;
  return <T extends Uint8Array | Uint8ClampedArray>(row: T, y: number): T | Uint8Array => {
    const crossing = spans.filter((s) => y >= s.y0 && y < s.y1);
    if (crossing.length === 0) return row;
    scratch = scratch && scratch.length === row.length ? scratch : new Uint8Array(row.length);
    scratch.set(row);
    for (const s of crossing) paint(scratch, s.x0, s.x1, channels, fill);
    return scratch;
  };
}

function paint(row: Uint8Array | Uint8ClampedArray, x0: number, x1: number, channels: number, fill: readonly [number, number, number]) {
  for (let x = x0; x < x1; x++) {
    const i = x * channels;
    if (channels <= 2) row[i] = Math.round(0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2]);
    else {
      row[i] = fill[0];
      row[i + 1] = fill[1];
      row[i + 2] = fill[2];
    }
    if (channels === 4 || channels === 2) row[i + channels - 1] = 255;
  }
}

/** Grey level (0..255) of an "#rrggbb" colour, as the thumbnails weigh it. */
export function greyOf(hex: string | null | undefined): number {
  const [r, g, b] = rgbOf(hex);
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/**
 * A copy of a grey image with `rects` (in the source's px; `scale`: image px per source px)
 * painted `value`; the image itself when there is nothing to paint.
 */
export function fillRectsGray<T extends { width: number; height: number; data: Float32Array }>(
  img: T,
  rects: readonly Rect[],
  scale: number,
  value: number,
): T {
  if (rects.length === 0) return img;
  const data = new Float32Array(img.data);
  for (const r of rects) {
    const x0 = Math.max(0, Math.floor(r.x * scale));
    const x1 = Math.min(img.width, Math.ceil((r.x + r.width) * scale));
    const y0 = Math.max(0, Math.floor(r.y * scale));
    const y1 = Math.min(img.height, Math.ceil((r.y + r.height) * scale));
    for (let y = y0; y < y1; y++) data.fill(value, y * img.width + x0, y * img.width + Math.max(x0, x1));
  }
  return { ...img, data };
}
