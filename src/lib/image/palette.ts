// Dominant colours of a screenshot. Web pages are mostly flat fills (background, brand colour,
// text) plus anti-aliasing and photos, so the approach is: sample on a grid, bucket into a 5-bit
// RGB histogram (keeping each bucket's mean, so an exact brand hex survives), then cluster the
// buckets in CIELAB with the heaviest buckets as leaders (CIEDE2000 radius), and finally merge
// leaders that are perceptually the same colour. Deterministic: no random seeding.

import { deltaE2000, relativeLuminance, rgbToHex, rgbToLab, type Lab } from "./color";

export interface DominantColor {
  hex: string;
  share: number;
}

type Pixels = Uint8Array | Uint8ClampedArray;

/** Enough samples to see a 1% band on any page, few enough to stay well under 50 ms. */
const TARGET_SAMPLES = 120_000;
/** A bucket within this CIEDE2000 of a leader belongs to that leader's colour. */
const CLUSTER_RADIUS = 9;
/** Leaders closer than this are the same colour to a designer (~ just-noticeable x 2-3). */
const MERGE_DISTANCE = 5;
/** Buckets lighter than this share can't lead a cluster; they only join one. */
const MIN_LEADER_SHARE = 0.002;
const MAX_LEADERS = 96;

interface Bucket {
  count: number;
  r: number;
  g: number;
  b: number;
  lab: Lab;
}

interface Cluster {
  /** Representative bucket: the heaviest one, so the hex is a colour actually on the page. */
  rep: Bucket;
  weight: number;
}

function gridStride(width: number, height: number): number {
  return Math.max(1, Math.floor(Math.sqrt((width * height) / TARGET_SAMPLES)));
}

/**
 * Samples an image row by row on the palette grid, so a streaming decoder can feed it without
 * the full bitmap. Rows are raw PNG-style pixels: `channels` 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA.
 */
export function createPaletteSampler(width: number, height: number) {
  const stride = gridStride(width, height);
  const first = Math.floor(stride / 2);
  const counts = new Uint32Array(32768);
  const sums = new Float64Array(32768 * 3);
  let total = 0;
  let luminance = 0;
  let samples = 0;

  return {
    /** Whether row `y` is on the grid; the others need not be pushed at all. */
    wants: (y: number) => y >= first && y < height && (y - first) % stride === 0,
    push(row: Pixels, channels: number) {
      const grey = channels < 3;
      const alphaAt = channels === 4 ? 3 : channels === 2 ? 1 : -1;
      for (let x = first; x < width; x += stride) {
        const i = x * channels;
        const r = row[i]!;
        const g = grey ? r : row[i + 1]!;
        const b = grey ? r : row[i + 2]!;
        const alpha = alphaAt < 0 ? 255 : row[i + alphaAt]!;
        // Composite over white for brightness: a transparent region shows the browser's white canvas.
        const a = alpha / 255;
        luminance += relativeLuminance(r * a + 255 * (1 - a), g * a + 255 * (1 - a), b * a + 255 * (1 - a));
        samples++;
        if (alpha < 128) continue; // transparent pixels are not part of the design
        const key = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
        counts[key]!++;
        sums[key * 3] = sums[key * 3]! + r;
        sums[key * 3 + 1] = sums[key * 3 + 1]! + g;
        sums[key * 3 + 2] = sums[key * 3 + 2]! + b;
        total++;
      }
    },
    /** Most prominent colours first (see dominantColors). */
    dominant(k = 8): DominantColor[] {
      const buckets: Bucket[] = [];
      for (let key = 0; key < counts.length; key++) {
        const count = counts[key]!;
        if (count === 0) continue;
        const r = sums[key * 3]! / count;
        const g = sums[key * 3 + 1]! / count;
        const b = sums[key * 3 + 2]! / count;
        buckets.push({ count, r, g, b, lab: rgbToLab(r, g, b) });
      }
      buckets.sort((p, q) => q.count - p.count);
      return cluster(buckets, total, k);
    },
    /** Mean WCAG relative luminance of the samples; 1 (white) when there were none. */
    meanLuminance: () => (samples === 0 ? 1 : luminance / samples),
  };
}

function sampleRgba(rgba: Pixels, width: number, height: number) {
  const sampler = createPaletteSampler(width, height);
  for (let y = 0; y < height; y++) {
    if (sampler.wants(y)) sampler.push(rgba.subarray(y * width * 4, (y + 1) * width * 4), 4);
  }
  return sampler;
}

function labDistanceSq(p: Lab, q: Lab): number {
  const dl = p[0] - q[0];
  const da = p[1] - q[1];
  const db = p[2] - q[2];
  return dl * dl + da * da + db * db;
}

/** Nearest leader by CIEDE2000, using the cheap Euclidean Lab distance to skip hopeless ones. */
function nearest(lab: Lab, clusters: Cluster[], radius: number): { index: number; distance: number } {
  let index = -1;
  let distance = Infinity;
  // CIEDE2000 compresses chroma differences, so a Euclidean gap of 4x the radius is never within it.
  const cutoffSq = (radius * 4) ** 2;
  for (let c = 0; c < clusters.length; c++) {
    const rep = clusters[c]!.rep;
    if (labDistanceSq(lab, rep.lab) > cutoffSq) continue;
    const d = deltaE2000(lab, rep.lab);
    if (d < distance) {
      distance = d;
      index = c;
    }
  }
  return { index, distance };
}

/**
 * Most prominent colours first; shares sum to 1 over the returned colours (the long tail of
 * anti-aliasing and photo noise beyond k is dropped before normalising).
 */
export function dominantColors(rgba: Pixels, width: number, height: number, k = 8): DominantColor[] {
  if (width <= 0 || height <= 0 || rgba.length < width * height * 4 || k <= 0) return [];
  return sampleRgba(rgba, width, height).dominant(k);
}

function cluster(buckets: Bucket[], total: number, k: number): DominantColor[] {
  if (total === 0 || k <= 0) return [];
  const clusters: Cluster[] = [];
  const minLeader = Math.max(1, total * MIN_LEADER_SHARE);
  for (const bucket of buckets) {
    const hit = nearest(bucket.lab, clusters, CLUSTER_RADIUS);
    if (hit.index >= 0 && hit.distance < CLUSTER_RADIUS) {
      clusters[hit.index]!.weight += bucket.count;
    } else if (clusters.length < MAX_LEADERS && bucket.count >= minLeader) {
      clusters.push({ rep: bucket, weight: bucket.count });
    }
    // else: a stray bucket far from every leader (photo noise); it has no say in the palette.
  }

  // Leaders are heaviest-first, so a later leader close to an earlier one is folded into it.
  clusters.sort((p, q) => q.weight - p.weight);
  const merged: Cluster[] = [];
  for (const c of clusters) {
    const hit = nearest(c.rep.lab, merged, MERGE_DISTANCE);
    if (hit.index >= 0 && hit.distance < MERGE_DISTANCE) merged[hit.index]!.weight += c.weight;
    else merged.push({ ...c });
  }
  merged.sort((p, q) => q.weight - p.weight);

  const top = merged.slice(0, k);
  const kept = top.reduce((sum, c) => sum + c.weight, 0);
  if (kept === 0) return [];
  return top.map((c) => ({ hex: rgbToHex(c.rep.r, c.rep.g, c.rep.b), share: c.weight / kept }));
}

/** Mean WCAG relative luminance over the page area below 0.5: a dark theme. */
export function isDarkImage(rgba: Pixels, width: number, height: number): boolean {
  return isDarkLuminance(meanLuminance(rgba, width, height));
}

export const isDarkLuminance = (meanLuminance: number) => meanLuminance < 0.5;

export function meanLuminance(rgba: Pixels, width: number, height: number): number {
  if (width <= 0 || height <= 0 || rgba.length < width * height * 4) return 1;
  return sampleRgba(rgba, width, height).meanLuminance();
}
