// Rendered typography in real Chromium: the typefaces actually drawn (platform fonts over the DevTools
// protocol, weighted by glyphs) and the declared web fonts that never loaded.
import { describe, expect, test } from "bun:test";
import { familySlug, isGenericFamily, normaliseFamily } from "#server/modules/capture/fonts/font-names";
import { installPageScript } from "#server/modules/capture/page-script/page-script";
import { watchPageProblems } from "#server/modules/capture/watchers/page-problems";
import { fontsNotLoaded, readRenderedTypography } from "#server/modules/capture/fonts/rendered-fonts";
import { gather, html, useHarness } from "./gatherers/harness";

const closedPort = (() => {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = s.port;
  s.stop(true);
  return port;
})();
const refused = (path: string) => `http://127.0.0.1:${closedPort}${path}`;
const mono = new Uint8Array(await Bun.file("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf").arrayBuffer());
const para = (n: number) => `<p>${"The quick brown fox jumps over the lazy dog. ".repeat(n)}</p>`;

const h = useHarness({
  // The web font's only source is unreachable: Chromium draws the serif fallback.
  "/fails": html(
    `<h1>Roboto Slab headline</h1>${para(8)}`,
    `<style>@font-face { font-family: "Roboto Slab"; src: url(${refused("/fonts/roboto-slab.woff2")}) format("woff2"); } body { font-family: "Roboto Slab", serif; }</style>`,
  ),
  // A web font that loads (named "Brand Mono" in CSS, "DejaVu Sans Mono" inside the file) for a short
  // heading over a long sans-serif text.
  "/loads": html(
    `<h1 style="font-family: 'Brand Mono', monospace">Brand</h1>${para(10)}`,
    `<style>@font-face { font-family: "Brand Mono"; src: url(/mono.ttf); } body { font-family: sans-serif; }</style>`,
  ),
  "/mono.ttf": { body: mono, type: "font/ttf" },
  // Google-Fonts style: the stylesheet that would declare the face fails, so there is no @font-face at all;
  // "Segoe UI" is a system font this machine lacks, not a failure of the page.
  "/stylesheet-fails": html(
    `<h2 style="font-family: 'Segoe UI', sans-serif">System heading text here</h2>${para(6)}`,
    `<link rel="stylesheet" href="${refused("/css2?family=Lato:wght@400;700")}"><style>body { font-family: Lato, sans-serif; }</style>`,
  ),
});

async function capture(path: string) {
  const context = await h.browser.newContext();
  await installPageScript(context);
  const page = await context.newPage();
  const problems = watchPageProblems(page);
  await page.goto(h.url(path), { waitUntil: "load" });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const declared = (await gather(page, "typography")).families;
  const failed = problems.read().network.failed;
  const fonts = await readRenderedTypography(context, page, declared, failed);
  await context.close();
  return { declared, failed, fonts: fonts! };
}

describe("rendered typography", () => {
  test("a web font that fails: the fallback is what was drawn, and the font is named as not loaded", async () => {
    const { declared, failed, fonts } = await capture("/fails");
    expect(declared[0]!.family).toBe("Roboto Slab");
    expect(fonts.rendered[0]!.family).toMatch(/^(Liberation Serif|DejaVu Serif)$/);
    expect(fonts.rendered[0]!.share).toBe(1);
    expect(fonts.rendered.map((r) => r.family)).not.toContain("Roboto Slab");
    expect(fonts.notLoaded).toEqual([{ family: "Roboto Slab", share: 1 }]);
    expect(failed).toContainEqual({ url: refused("/fonts/roboto-slab.woff2"), type: "font", reason: "ERR_CONNECTION_REFUSED" });
  });

  test("a web font that loads is drawn, weighted by how much text it drew", async () => {
    const { fonts } = await capture("/loads");
    const byFamily = Object.fromEntries(fonts.rendered.map((r) => [r.family, r.share]));
    expect(byFamily["DejaVu Sans Mono"]).toBeGreaterThan(0);
    expect(byFamily["DejaVu Sans Mono"]).toBeLessThan(0.05); // 5 glyphs of ~450
    const body = fonts.rendered[0]!;
    expect(body.family).toMatch(/^(DejaVu Sans|Liberation Sans)$/);
    expect(body.share).toBeGreaterThan(0.95);
    expect(fonts.notLoaded).toEqual([]);
  });

  test("a failed font stylesheet names the family; a missing system font is not a page failure", async () => {
    const { declared, fonts } = await capture("/stylesheet-fails");
    expect(declared.map((d) => d.family)).toEqual(expect.arrayContaining(["Lato", "Segoe UI"]));
    expect(fonts.notLoaded.map((n) => n.family)).toEqual(["Lato"]);
    expect(fonts.rendered.map((r) => r.family)).not.toContain("Lato");
  });
});

describe("font names", () => {
  test("case, quotes, lists and known renames compare equal", () => {
    expect(normaliseFamily(`"Muli", sans-serif`)).toBe(normaliseFamily("Mulish"));
    expect(normaliseFamily("'Source Sans Pro'")).toBe("source sans 3");
    expect(normaliseFamily("Arial")).toBe(normaliseFamily("Liberation Sans"));
    expect(normaliseFamily("  Open   Sans ")).toBe("open sans");
    expect(isGenericFamily("system-ui")).toBe(true);
    expect(isGenericFamily("Lato")).toBe(false);
    expect(familySlug("Roboto Slab")).toBe("robotoslab");
  });

  test("a declared family is not 'not loaded' when it was drawn, loaded under another name, or nothing was read", () => {
    const declared = [
      { family: "Lato", share: 0.7 },
      { family: "Brand", share: 0.3 },
    ];
    const failed = [{ url: "https://fonts.googleapis.com/css2?family=Lato", type: "stylesheet", reason: "ERR_NAME_NOT_RESOLVED" }];
    expect(fontsNotLoaded(declared, [{ family: "Lato", share: 1 }], [], failed)).toEqual([]);
    expect(fontsNotLoaded(declared, [{ family: "Inter", share: 1 }], [{ family: "Brand", loaded: true }], failed)).toEqual([
      { family: "Lato", share: 0.7 },
    ]);
    expect(fontsNotLoaded(declared, [], [{ family: "Brand", loaded: false }], failed)).toEqual([]);
    expect(fontsNotLoaded(declared, [{ family: "DejaVu Sans", share: 1 }], [{ family: "Brand", loaded: false }], [])).toEqual([
      { family: "Brand", share: 0.3 },
    ]);
  });
});
