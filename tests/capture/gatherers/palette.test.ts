// The palette gatherer in real Chromium: colours the DOM paints, weighted by the area they show.
import { describe, expect, test } from "bun:test";
import { deltaE2000Hex } from "#server/lib/image/color";
import { paletteRoles } from "#server/modules/capture/phases/palette-roles";
import { gather, html, useHarness } from "./harness";

const page = html(
  `<header style="height:100px;background:#1e3a8a;color:#ffffff"><a href="/">Home</a></header>
<main style="color:#111827">
  <p style="font-size:40px">Plain dark text on the page background, long enough to dominate the text palette.</p>
  <button style="background:#dc2626;color:#fff;border:0;width:200px;height:50px">Buy now</button>
  <div id="veil" style="height:100px;background:rgba(0,0,0,0.5)">Half black over white</div>
  <div id="modern" style="height:100px;background:oklch(62.8% 0.2577 29.23)">Red in oklch</div>
</main>`,
  "<style>html{background:#fafafa}body{margin:0;font-family:sans-serif}</style>",
);

// A brand colour on small things only: two buttons, a few links, an icon; large grey areas.
const accent = html(
  `<section style="height:900px;background:#f1f3f5;padding:40px">
    <h1 style="color:#212529">A calm grey page</h1>
    <p style="color:#495057">Lots of neutral text here, on a large light-grey band that covers most of the page.</p>
    <a href="/a" style="color:#e11d48">Pricing</a> <a href="/b" style="color:#e11d48">Docs</a> <a href="/c" style="color:#e11d48">Blog</a>
    <svg width="24" height="24" viewBox="0 0 24 24"><circle cx="12" cy="12" r="10" fill="#0ea5e9"/></svg>
    <button style="background:#e11d48;color:#fff;border:0;width:140px;height:40px">Start</button>
    <button style="background:#e11d48;color:#fff;border:0;width:140px;height:40px">Buy</button>
  </section>
  <section style="height:900px;background:#dee2e6"></section>`,
  "<style>body{margin:0;font-family:sans-serif}</style>",
);

const h = useHarness({ "/": page, "/accent": accent });

describe("palette gatherer", () => {
  test("finds a known background and weighs it by the area it paints", async () => {
    const palette = await gather(await h.shared("/"), "palette");
    const blue = palette.background.find((c) => c.hex === "#1e3a8a");
    expect(blue).toBeDefined();
    // 1440 x 100 of a 1440 x pageHeight page: the canvas gets the rest.
    const canvas = palette.background.find((c) => c.hex === "#fafafa")!;
    expect(canvas.share).toBeGreaterThan(blue!.share);
    const total = palette.background.reduce((a, c) => a + c.share, 0);
    expect(total).toBeCloseTo(1, 2);
  });

  test("composites translucent fills over what is behind them", async () => {
    const palette = await gather(await h.shared("/"), "palette");
    // rgba(0,0,0,0.5) over the #fafafa canvas.
    expect(palette.background.map((c) => c.hex)).toContain("#7d7d7d");
  });

  test("reads colours the browser only knows in other spaces (oklch) as sRGB", async () => {
    const palette = await gather(await h.shared("/"), "palette");
    const red = palette.background.find((c) => deltaE2000Hex(c.hex, "#ff0000") < 2);
    expect(red).toBeDefined();
  });

  test("text colours are weighted by the area of their line boxes; buttons by their size", async () => {
    const palette = await gather(await h.shared("/"), "palette");
    expect(palette.text[0]!.hex).toBe("#111827");
    expect(palette.text.map((c) => c.hex)).toContain("#ffffff");
    expect(palette.buttons).toEqual([{ hex: "#dc2626", share: 1 }]);
  });

  test("salience finds a brand colour that covers little area; roles name it primary", async () => {
    const palette = await gather(await h.shared("/accent"), "palette");
    expect(palette.salient[0]!.hex).toBe("#e11d48");
    expect(palette.salient.map((c) => c.hex)).toContain("#0ea5e9");
    // No grey makes the salient list, however much area it paints.
    expect(palette.salient.map((c) => c.hex)).not.toContain("#f1f3f5");
    const roles = paletteRoles(palette);
    expect(roles).toEqual({ background: palette.background[0]!.hex, text: palette.text[0]!.hex, primary: "#e11d48", secondary: "#0ea5e9" });
    expect(["#f1f3f5", "#dee2e6"]).toContain(roles.background!);
  });
});
