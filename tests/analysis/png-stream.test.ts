import { describe, expect, test } from "bun:test";
import { PNG } from "pngjs";
import { decodePng } from "#server/lib/image/image";
import { dominantColors, isDarkImage } from "#server/lib/image/palette";
import { pngToThumbnail } from "#server/lib/image/png-stream";
import { summariseScreenshot } from "#server/modules/capture/screenshot/screenshot-summary";
import { thumbnail, thumbnailWidth } from "#server/lib/image/thumbnail";
import { paint, textLines } from "./support";

/** A busy test picture: text stripes, a gradient and a half-transparent block (all five filters get used). */
function picture(width: number, height: number): Uint8Array {
  const data = paint(
    width,
    height,
    [250, 250, 250],
    [
      ...textLines(10, 10, width - 20, Math.floor(height / 30), 24, 3),
      { x: width / 2, y: height / 3, w: width / 3, h: height / 4, color: [200, 30, 90] },
    ],
  );
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width / 4; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x * 7 + y) & 255;
      data[i + 1] = (y * 3) & 255;
      data[i + 3] = y % 5 === 0 ? 90 : 255;
    }
  }
  return data;
}

function encode(width: number, height: number, rgba: Uint8Array, colorType: 0 | 2 | 4 | 6, filterType = -1): Uint8Array {
  const png = new PNG({ width, height, colorType, inputColorType: 6, inputHasAlpha: true, filterType } as ConstructorParameters<
    typeof PNG
  >[0]);
  png.data = Buffer.from(rgba);
  return new Uint8Array(
    PNG.sync.write(png, { colorType, inputColorType: 6, inputHasAlpha: true, filterType } as Parameters<typeof PNG.sync.write>[1]),
  );
}

/** What browsers write: every 8-bit, non-interlaced colour type. */
const COLOR_TYPES = [
  ["RGBA", 6],
  ["RGB", 2],
  ["grey", 0],
  ["grey+alpha", 4],
] as const;

describe("pngToThumbnail (streaming)", () => {
  const W = 903;
  const H = 1217;
  const rgba = picture(W, H);

  test.each(COLOR_TYPES)(
    "%s gives exactly the thumbnail of a full pngjs decode",
    async (_name, colorType) => {
      for (const filterType of [-1, 0, 1, 2, 3, 4]) {
        const png = encode(W, H, rgba, colorType, filterType);
        const streamed = (await pngToThumbnail(png, thumbnailWidth))!;
        const full = thumbnail(decodePng(png));
        expect(streamed.width).toBe(full.width);
        expect(streamed.height).toBe(full.height);
        let worst = 0;
        for (let i = 0; i < full.data.length; i++) worst = Math.max(worst, Math.abs(full.data[i]! - streamed.data[i]!));
        expect(worst).toBeLessThan(1e-3);
      }
      // Six encodes and twelve decodes of a full-page-sized picture: pure CPU, which a busy machine stretches past the default 5 s.
    },
    60_000,
  );

  test("formats it doesn't handle are left to pngjs", async () => {
    const sixteen = new PNG({ width: 4, height: 4, bitDepth: 16, colorType: 6 } as ConstructorParameters<typeof PNG>[0]);
    sixteen.data = Buffer.alloc(4 * 4 * 8, 255);
    const png16 = new Uint8Array(
      PNG.sync.write(sixteen, { bitDepth: 16, colorType: 6, inputHasAlpha: true } as Parameters<typeof PNG.sync.write>[1]),
    );
    expect(await pngToThumbnail(png16, thumbnailWidth)).toBeNull();
    expect(await pngToThumbnail(new TextEncoder().encode("GIF89a not a png at all, not at all"), thumbnailWidth)).toBeNull();
  });

  test("corrupt or truncated image data is an error, not a blank thumbnail", async () => {
    const png = encode(W, H, rgba, 6);
    const broken = png.slice();
    for (let i = 200; i < 400; i++) broken[i] = (broken[i]! * 31 + 7) & 255;
    await expect(pngToThumbnail(broken, thumbnailWidth)).rejects.toThrow(/PNG/);
  });
});

describe("summariseScreenshot (one pass at capture time)", () => {
  const W = 640;
  const H = 2100;
  const rgba = picture(W, H);

  test.each(COLOR_TYPES)("%s: the palette, darkness and thumbnail of separate full decodes", async (_name, colorType) => {
    const png = encode(W, H, rgba, colorType);
    const full = decodePng(png);
    const summary = await summariseScreenshot(png);
    expect(summary.dominant).toEqual(dominantColors(full.data, full.width, full.height));
    expect(summary.dominant.length).toBeGreaterThan(1);
    expect(summary.isDark).toBe(isDarkImage(full.data, full.width, full.height));
    const thumb = thumbnail(full);
    expect([summary.thumb.width, summary.thumb.height]).toEqual([thumb.width, thumb.height]);
    let worst = 0;
    for (let i = 0; i < thumb.data.length; i++) worst = Math.max(worst, Math.abs(thumb.data[i]! - summary.thumb.data[i]!));
    expect(worst).toBeLessThan(1e-3);
  });

  test("a format the streaming decoder leaves alone is decoded whole, with the same answers", async () => {
    const sixteen = new PNG({ width: 40, height: 30, bitDepth: 16, colorType: 6 } as ConstructorParameters<typeof PNG>[0]);
    sixteen.data = Buffer.alloc(40 * 30 * 8, 0); // opaque black once alpha is set below
    for (let i = 6; i < sixteen.data.length; i += 8) sixteen.data.writeUInt16BE(65535, i);
    const png = new Uint8Array(
      PNG.sync.write(sixteen, { bitDepth: 16, colorType: 6, inputHasAlpha: true } as Parameters<typeof PNG.sync.write>[1]),
    );
    const summary = await summariseScreenshot(png);
    expect(summary.isDark).toBe(true);
    expect(summary.dominant[0]!.hex).toBe("#000000");
    expect(summary.thumb).toEqual(thumbnail(decodePng(png)));
  });

  test("a corrupt screenshot is an error", async () => {
    const broken = encode(W, H, rgba, 6).slice();
    for (let i = 200; i < 400; i++) broken[i] = (broken[i]! * 31 + 7) & 255;
    await expect(summariseScreenshot(broken)).rejects.toThrow(/PNG/);
  });
});
