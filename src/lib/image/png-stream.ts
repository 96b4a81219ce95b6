// Screenshot PNG -> grey thumbnail without ever holding the full bitmap. pngjs inflates the whole
// image and then unfilters it into a second full-size buffer: ~180 MB for each 1440 x 16 000
// screenshot. Here the zlib stream is inflated chunk by chunk, each row is unfiltered against the
// previous one and pushed straight into the area-averaging downscaler, so memory stays at a few
// rows. Handles what browsers write (8-bit grey/RGB/RGBA, not interlaced); anything else returns
// null and the caller falls back to pngjs.

import { createDownscaler, type GrayImage } from "./image";

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

interface Header {
  width: number;
  height: number;
  channels: number;
  colorType: number;
}

function readHeader(bytes: Uint8Array): { header: Header; idat: Uint8Array[] } | null {
  if (bytes.length < 33 || SIGNATURE.some((b, i) => bytes[i] !== b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let header: Header | null = null;
  const idat: Uint8Array[] = [];
  for (let pos = 8; pos + 8 <= bytes.length;) {
    const length = view.getUint32(pos);
    const type = String.fromCharCode(bytes[pos + 4]!, bytes[pos + 5]!, bytes[pos + 6]!, bytes[pos + 7]!);
    const data = pos + 8;
    if (data + length > bytes.length) return null;
    if (type === "IHDR") {
      const bitDepth = bytes[data + 8]!;
      const colorType = bytes[data + 9]!;
      const interlace = bytes[data + 12]!;
      const channels = CHANNELS[colorType];
      if (bitDepth !== 8 || interlace !== 0 || channels === undefined) return null;
      header = { width: view.getUint32(data), height: view.getUint32(data + 4), channels, colorType };
    } else if (type === "tRNS") {
      return null; // a transparent key colour: leave it to pngjs
    } else if (type === "IDAT") {
      idat.push(bytes.subarray(data, data + length));
    } else if (type === "IEND") {
      break;
    }
    pos = data + length + 4; // skip CRC
  }
  if (!header || header.width === 0 || header.height === 0 || idat.length === 0) return null;
  return { header, idat };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Reverses the PNG row filter in place (`cur` excludes the filter byte). */
function unfilter(filter: number, cur: Uint8Array, prev: Uint8Array, bpp: number): void {
  const n = cur.length;
  switch (filter) {
    case 0:
      return;
    case 1:
      for (let i = bpp; i < n; i++) cur[i] = (cur[i]! + cur[i - bpp]!) & 255;
      return;
    case 2:
      for (let i = 0; i < n; i++) cur[i] = (cur[i]! + prev[i]!) & 255;
      return;
    case 3:
      for (let i = 0; i < bpp; i++) cur[i] = (cur[i]! + (prev[i]! >> 1)) & 255;
      for (let i = bpp; i < n; i++) cur[i] = (cur[i]! + ((cur[i - bpp]! + prev[i]!) >> 1)) & 255;
      return;
    case 4:
      for (let i = 0; i < bpp; i++) cur[i] = (cur[i]! + prev[i]!) & 255;
      for (let i = bpp; i < n; i++) cur[i] = (cur[i]! + paeth(cur[i - bpp]!, prev[i]!, prev[i - bpp]!)) & 255;
      return;
    default:
      throw new Error(`PNG: bad filter type ${filter}`);
  }
}

function lumaRow(raw: Uint8Array, channels: number, out: Float32Array): void {
  const w = out.length;
  if (channels === 3) {
    for (let x = 0, i = 0; x < w; x++, i += 3) out[x] = 0.299 * raw[i]! + 0.587 * raw[i + 1]! + 0.114 * raw[i + 2]!;
  } else if (channels === 4) {
    for (let x = 0, i = 0; x < w; x++, i += 4) {
      const alpha = raw[i + 3]! / 255;
      out[x] = (0.299 * raw[i]! + 0.587 * raw[i + 1]! + 0.114 * raw[i + 2]!) * alpha + 255 * (1 - alpha);
    }
  } else if (channels === 1) {
    for (let x = 0; x < w; x++) out[x] = raw[x]!;
  } else {
    for (let x = 0, i = 0; x < w; x++, i += 2) {
      const alpha = raw[i + 1]! / 255;
      out[x] = raw[i]! * alpha + 255 * (1 - alpha);
    }
  }
}

/** A PNG this decoder can stream, header read; `rows` decodes it, handing each unfiltered row over in order. */
export interface PngRows {
  width: number;
  height: number;
  /** Bytes per pixel in each row: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA. */
  channels: number;
  /** `row` is reused for the next row: read it inside the callback, don't keep it. Throws on a corrupt file. */
  rows(onRow: (row: Uint8Array, y: number) => void): Promise<void>;
}

/** null when the format is one this decoder leaves to pngjs (16-bit, palette, interlaced, tRNS). */
export function openPng(png: Uint8Array): PngRows | null {
  const parsed = readHeader(png);
  if (!parsed) return null;
  const { width, height, channels } = parsed.header;
  return { width, height, channels, rows: (onRow) => decodeRows(parsed.header, parsed.idat, onRow) };
}

async function decodeRows(header: Header, idat: Uint8Array[], onRow: (row: Uint8Array, y: number) => void): Promise<void> {
  const { width, height, channels } = header;
  const stride = width * channels;
  let cur = new Uint8Array(stride);
  let prev = new Uint8Array(stride); // the row above the first is all zeros
  let filter = -1;
  let fill = 0;
  let rows = 0;

  const consume = (chunk: Uint8Array) => {
    for (let pos = 0; pos < chunk.length && rows < height;) {
      if (filter < 0) {
        filter = chunk[pos++]!;
        continue;
      }
      const take = Math.min(stride - fill, chunk.length - pos);
      cur.set(chunk.subarray(pos, pos + take), fill);
      fill += take;
      pos += take;
      if (fill === stride) {
        unfilter(filter, cur, prev, channels);
        onRow(cur, rows);
        [prev, cur] = [cur, prev];
        filter = -1;
        fill = 0;
        rows++;
      }
    }
  };

  const stream = new DecompressionStream("deflate");
  const writer = stream.writable.getWriter();
  const writing = (async () => {
    for (const part of idat) await writer.write(part as Uint8Array<ArrayBuffer>);
    await writer.close();
  })();
  const reader = stream.readable.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      consume(value);
    }
    await writing;
  } catch (e) {
    writing.catch(() => {});
    throw new Error(`PNG: corrupt image data (${e instanceof Error ? e.message : String(e)})`);
  }
  if (rows < height) throw new Error(`PNG: image data ends after ${rows} of ${height} rows`);
}

/** Feeds decoded rows into a thumbnail `targetWidth(width)` wide. */
export function thumbnailSink(width: number, height: number, channels: number, targetWidth: (width: number) => number) {
  const scaler = createDownscaler(width, height, targetWidth(width));
  const luma = new Float32Array(width);
  return {
    push(row: Uint8Array) {
      lumaRow(row, channels, luma);
      scaler.push(luma);
    },
    finish: () => scaler.finish(),
  };
}

/**
 * Decodes `png` straight into a grey thumbnail `targetWidth(imageWidth)` wide; null when the
 * format is one this decoder leaves to pngjs. Throws on a corrupt file.
 */
export async function pngToThumbnail(png: Uint8Array, targetWidth: (width: number) => number): Promise<GrayImage | null> {
  const image = openPng(png);
  if (!image) return null;
  const thumb = thumbnailSink(image.width, image.height, image.channels, targetWidth);
  await image.rows((row) => thumb.push(row));
  return thumb.finish();
}
