// Contrast against what is painted: text over photos, gradients and positioned images is judged from
// the screenshot's pixels behind it (method "pixels"); flat CSS backgrounds keep the CSS verdict.
import { describe, expect, test } from "bun:test";
import { PNG } from "pngjs";
import { summariseScreenshot } from "#server/modules/capture/screenshot/screenshot-summary";
import type { Extraction } from "#server/modules/capture/model";
import { createPaintedSampler, decideLowContrast } from "#server/modules/capture/screenshot/painted-contrast";
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
  "/dark.png": { body: photo(400, 240, 0, 70), type: "image/png" },
  "/light.png": { body: photo(400, 240, 190, 255), type: "image/png" },
});

async function lowContrastOf(path: string): Promise<Extraction["accessibility"]["lowContrast"]> {
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
  return decideLowContrast(probes, sampler.finish());
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

  test("a flat CSS background keeps the CSS verdict and colours", async () => {
    const low = await lowContrastOf("/");
    expect(low.find((l) => l.text === "Light grey on flat white")).toMatchObject({
      method: "css",
      fg: "#aaaaaa",
      bg: "#ffffff",
      ratio: 2.32,
    });
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
