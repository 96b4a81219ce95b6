// Contrast against what is painted: text over photos, gradients and positioned images is judged from
// the screenshot's pixels behind it (method "pixels"); flat CSS backgrounds keep the CSS verdict.
import { describe, expect, test } from "bun:test";
import { PNG } from "pngjs";
import { summariseScreenshot } from "#server/modules/capture/screenshot/screenshot-summary";
import type { Extraction } from "#server/modules/capture/model";
import { createPaintedSampler, decideLowContrast } from "#server/modules/capture/screenshot/painted-contrast";
import { deltaE2000Hex } from "#server/lib/image/color";
import { gather, html, useHarness } from "./gatherers/harness";

/** A photo-like image: per-pixel noise with every channel inside [lo, hi]. */
function photo(width: number, height: number, lo: number, hi: number, seed = 7): Uint8Array<ArrayBuffer> {
  const png = new PNG({ width, height });
  let a = seed >>> 0;
  const rand = () => {
    a = (a * 1664525 + 1013904223) >>> 0;
    return a / 4294967296;
  };
  for (let i = 0; i < png.data.length; i += 4)
    png.data.set([lo + rand() * (hi - lo), lo + rand() * (hi - lo), lo + rand() * (hi - lo), 255], i);
  return new Uint8Array(PNG.sync.write(png));
}

const hero = (id: string, background: string, text: string, extra = "") =>
  `<section id="${id}" style="position:relative;height:240px;${background}">${extra}<a href="#" style="position:relative;color:#ffffff;font-size:18px;display:inline-block;margin:40px">${text}</a></section>`;

const h = useHarness({
  "/": html(
    [
      // Readable: white over a dark photo (CSS background image; CSS can't judge it).
      hero("dark", "background:url(/dark.png)", "Read the story on a dark photo"),
      // Not readable: white over a light photo.
      hero("light", "background:url(/light.png)", "Hard to read over a light photo"),
      // The "#ffffff on #ffffff" trap: a positioned <img> behind the text, the CSS chain says white.
      hero(
        "trap",
        "",
        "White link over a dark positioned image",
        `<img src="/dark.png" alt="" style="position:absolute;inset:0;width:100%;height:100%">`,
      ),
      // A flat CSS background: the CSS verdict stands, with the exact CSS colours.
      `<p style="color:#aaaaaa;margin:40px">Light grey on flat white</p>`,
      // A light gradient under white text.
      hero("gradient", "background:linear-gradient(#f8fafc,#e2e8f0)", "White on a pale gradient"),
    ].join(""),
    `<link rel="icon" href="data:,"><style>body{margin:0;font-family:sans-serif;background:#ffffff}</style>`,
  ),
  // Translucent white nav links (the colour's alpha and an opacity group over them) across a grey
  // sky: a gentle gradient, and a photo whose grain varies a few levels.
  "/translucent": html(
    [
      `<header style="height:160px;background:linear-gradient(90deg,#7d8590,#858d98);opacity:1">
        <nav style="opacity:0.8;padding:40px"><a id="grad" href="#" style="color:rgba(255,255,255,0.7);font:700 32px sans-serif;text-decoration:none">About our studio</a></nav></header>`,
      `<header style="height:160px;background:url(/sky.png)">
        <nav style="opacity:0.75;padding:40px"><a id="sky" href="#" style="color:rgba(255,255,255,0.6);font:700 32px sans-serif;text-decoration:none">Work with us today</a></nav></header>`,
    ].join(""),
    `<link rel="icon" href="data:,"><style>body{margin:0;background:#ffffff}</style>`,
  ),
  "/sky.png": { body: photo(1280, 160, 150, 160), type: "image/png" },
  "/dark.png": { body: photo(400, 240, 0, 70), type: "image/png" },
  "/light.png": { body: photo(400, 240, 190, 255), type: "image/png" },
});

async function measure(path: string) {
  const page = await h.shared(path);
  const probes = await gather(page, "contrastProbes");
  const size = page.viewportSize()!;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const png = await page.screenshot({
    fullPage: true,
    clip: { x: 0, y: 0, width: size.width, height },
    animations: "disabled",
    caret: "hide",
  });
  const sampler = createPaintedSampler(probes, size.width, height);
  await summariseScreenshot(png, undefined, sampler.push);
  return { probes, png, low: decideLowContrast(probes, sampler.finish()) };
}

async function lowContrastOf(path: string): Promise<Extraction["accessibility"]["lowContrast"]> {
  return (await measure(path)).low;
}

const hexOf = (c: readonly number[]) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;
const lum = (c: readonly number[]) => 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
const medianOf = (px: number[][]) => [0, 1, 2].map((i) => px.map((p) => p[i]!).sort((a, b) => a - b)[px.length >> 1]!);

/**
 * What a colour picker finds on the screenshot inside `box`, for light text on a darker ground:
 * the glyphs' fully covered pixels (the lightest few percent) and the ring around them (pixels
 * three or more pixels from any glyph pixel, glyph pixels being those past halfway from ground to ink).
 */
function picked(png: Uint8Array, box: { x: number; y: number; width: number; height: number }) {
  const img = PNG.sync.read(Buffer.from(png));
  const px: number[][] = [];
  for (let y = box.y; y < box.y + box.height; y++)
    for (let x = box.x; x < box.x + box.width; x++) {
      const i = (y * img.width + x) * 4;
      px.push([img.data[i]!, img.data[i + 1]!, img.data[i + 2]!]);
    }
  const byLum = px.map((p) => lum(p)).sort((a, b) => a - b);
  const ground = byLum[Math.floor(byLum.length * 0.05)]!;
  const top = byLum[Math.floor(byLum.length * 0.995)]!;
  const glyph = medianOf(px.filter((p) => lum(p) >= byLum[Math.floor(byLum.length * 0.97)]!));
  const mask = px.map((p) => lum(p) > (ground + top) / 2);
  const ring = px.filter((_, i) => {
    const x = i % box.width;
    const y = Math.floor(i / box.width);
    for (let dy = -3; dy <= 3; dy++)
      for (let dx = -3; dx <= 3; dx++) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx >= 0 && yy >= 0 && xx < box.width && yy < box.height && mask[yy * box.width + xx]) return false;
      }
    return true;
  });
  return { glyph: hexOf(glyph), ring: hexOf(medianOf(ring)) };
}

describe("painted contrast", () => {
  test("white text over a dark photo is readable: no low-contrast entry, whether CSS saw the photo or not", async () => {
    const low = await lowContrastOf("/");
    expect(low.find((l) => l.text.startsWith("Read the story"))).toBeUndefined();
    // CSS alone calls this white on white (1:1); the pixels show the dark image.
    expect(low.find((l) => l.text.startsWith("White link over a dark"))).toBeUndefined();
  });

  test("white text over a light photo is reported from the pixels, with a measured background", async () => {
    const low = await lowContrastOf("/");
    const entry = low.find((l) => l.text === "Hard to read over a light photo");
    expect(entry).toBeDefined();
    expect(entry!.method).toBe("pixels");
    expect(entry!.fg).toBe("#ffffff");
    expect(entry!.ratio).toBeLessThan(1.6);
    // The background named is a pixel of the light photo, not a CSS guess.
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(entry!.bg.slice(i, i + 2), 16));
    expect(Math.min(r!, g!, b!)).toBeGreaterThanOrEqual(185);
    const gradient = low.find((l) => l.text === "White on a pale gradient");
    expect(gradient).toMatchObject({ method: "pixels", required: 4.5 });
  });

  test("translucent text is reported in the colours the screenshot shows: the text as painted, the ground around it", async () => {
    const { probes, png, low } = await measure("/translucent");
    for (const text of ["About our studio", "Work with us today"]) {
      const entry = low.find((l) => l.text === text);
      expect(entry).toMatchObject({ method: "pixels", required: 3 });
      const probe = probes.find((p) => p.text === text)!;
      // The declared white reaches the screen at 0.7 × 0.8 and 0.6 × 0.75.
      expect(probe.alpha).toBeCloseTo(text.startsWith("About") ? 0.56 : 0.45, 2);
      const seen = picked(png, probe.boxes[0]!);
      expect(entry!.fg).not.toBe("#ffffff");
      expect(deltaE2000Hex(entry!.fg, seen.glyph)).toBeLessThan(5);
      expect(deltaE2000Hex(entry!.bg, seen.ring)).toBeLessThan(5);
    }
  });

  test("a flat CSS background keeps the CSS verdict and colours", async () => {
    const low = await lowContrastOf("/");
    expect(low.find((l) => l.text === "Light grey on flat white")).toMatchObject({
      method: "css",
      fg: "#aaaaaa",
      bg: "#ffffff",
      ratio: 2.32,
    });
  });

  test("over a flat CSS background, translucent text is named as painted: every opacity up the tree applied", () => {
    // Black at 30 % (a faded ancestor): the page's own colour only knew the element's opacity.
    const probe = {
      text: "Faded caption",
      fg: "#000000",
      ink: "#000000",
      alpha: 0.3,
      required: 4.5,
      sizePx: 16,
      css: { bg: "#ffffff", ratio: 21 },
      boxes: [{ x: 0, y: 0, width: 10, height: 10 }],
    };
    expect(decideLowContrast([probe], [null])).toEqual([
      { text: "Faded caption", ratio: 2.1, required: 4.5, fg: "#b3b3b3", bg: "#ffffff", method: "css" },
    ]);
  });

  test("text the colour of its painted background is measured as such", () => {
    const probe = {
      text: "Invisible",
      fg: "#ffffff",
      required: 4.5,
      sizePx: 16,
      css: null,
      boxes: [{ x: 0, y: 0, width: 10, height: 10 }],
    };
    const sampler = createPaintedSampler([probe], 10, 10);
    for (let y = 0; y < 10; y++) sampler.push(new Uint8Array(10 * 4).fill(255), y, 4);
    expect(decideLowContrast([probe], sampler.finish())).toEqual([
      { text: "Invisible", ratio: 1, required: 4.5, fg: "#ffffff", bg: "#ffffff", method: "pixels" },
    ]);
  });

  test("nothing is reported that was not measured", () => {
    const probe = {
      text: "Over an image",
      fg: "#ffffff",
      required: 4.5,
      sizePx: 16,
      css: null,
      boxes: [{ x: 0, y: 5000, width: 100, height: 20 }],
    };
    // The box lies below the captured image: no pixels, no CSS verdict, no entry.
    const sampler = createPaintedSampler([probe], 100, 100);
    expect(decideLowContrast([probe], sampler.finish())).toEqual([]);
    // Glyph pixels everywhere (a checkerboard of text colour): after taking out glyphs and their rims nothing is left.
    const solid = createPaintedSampler([{ ...probe, boxes: [{ x: 0, y: 0, width: 10, height: 10 }] }], 10, 10);
    for (let y = 0; y < 10; y++) {
      const row = new Uint8Array(10 * 4);
      for (let x = 0; x < 10; x++) row.set((x + y) % 2 ? [255, 255, 255, 255] : [30, 30, 30, 255], x * 4);
      solid.push(row, y, 4);
    }
    expect(solid.finish()).toEqual([null]);
  });
});
