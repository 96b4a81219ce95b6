// The layout gatherer in real Chromium: regions from landmarks or from position, columns, and the
// radius and spacing tokens.
import { describe, expect, test } from "bun:test";
import { gather, html, useHarness } from "./harness";

const GAP = 72;
// Text sits right on each block's edges, so the whitespace between blocks is exactly their margin.
const card = (n: number) => `<div class="card">Card ${n}</div>`;
const css = `<style>
body{margin:0;font-family:sans-serif}
.bar{height:64px;display:flex;gap:16px}
.links{display:flex;gap:16px}
.block{margin-top:${GAP}px}
.block > .inner{height:160px}
.hero .inner{height:420px;display:flex;flex-direction:column;justify-content:space-between}
h1{margin:0}
.cols{display:flex;gap:24px}
.card{width:300px;height:160px;background:#f1f5f9;border-radius:12px}
.btn{display:inline-block;background:#2563eb;color:#fff;padding:10px 18px;border-radius:12px;text-decoration:none}
</style>`;

const h = useHarness({
  // Landmarks: header with nav, main with a hero, a three-column section, a one-column section, footer.
  "/landmarks": html(
    `<header class="bar"><nav><a href="/a">A</a><a href="/b">B</a><a href="/c">C</a></nav></header>
<main>
  <div class="hero block"><div class="inner"><h1>Hero headline</h1><a class="btn" href="/go">Get started</a></div></div>
  <section class="block"><div class="inner cols">${card(1)}${card(2)}${card(3)}</div></section>
  <section class="block"><div class="inner cols">${card(4)}${card(5)}${card(6)}</div></section>
  <section class="block"><div class="inner">One column of text.</div></section>
</main>
<footer class="block"><div class="inner">Footer</div></footer>`,
    css,
  ),
  // Plain divs only: the header and footer are found by where they sit.
  "/divs": html(
    `<div class="bar" style="width:100%"><b>Logo</b><div class="links"><a href="/a">Home</a><a href="/b">About</a><a href="/c">Blog</a></div></div>
<div style="height:1400px"><h1>Content</h1></div>
<div style="height:200px;width:100%"><p>© Footer links <a href="/t">Terms</a></p></div>`,
    css,
  ),
});

describe("layout gatherer", () => {
  test("regions come from landmarks, in page order", async () => {
    const l = await gather(await h.shared("/landmarks"), "layout");
    expect(l.regions.map((r) => r.kind)).toEqual(["header", "nav", "main", "hero", "section", "section", "section", "footer"]);
    const hero = l.regions.find((r) => r.kind === "hero")!;
    expect(hero.box).toMatchObject({ x: 0, width: 1440, height: 420 });
  });

  test("columns, radius and spacing tokens", async () => {
    const l = await gather(await h.shared("/landmarks"), "layout");
    // Two three-column sections beat the one-column hero and text section (ties go to more columns).
    expect(l.columns).toBe(3);
    expect(l.radiusPx).toBe(12);
    expect(l.spacingPx).toBe(GAP);
  });

  test("without landmarks, a wide bar of links at the top is the header (its group of links the nav) and the block at the bottom the footer", async () => {
    const l = await gather(await h.shared("/divs"), "layout");
    const kinds = l.regions.map((r) => r.kind);
    expect(kinds[0]).toBe("header");
    expect(kinds).toContain("nav");
    expect(kinds.at(-1)).toBe("footer");
    const footer = l.regions.at(-1)!;
    expect(footer.box.height).toBe(200);
  });

  test("regions below the captured height are cut at it", async () => {
    const l = await gather(await h.shared("/landmarks"), "layout", 500);
    const hero = l.regions.find((r) => r.kind === "hero")!;
    expect(hero.box.y + hero.box.height).toBeLessThanOrEqual(500);
    expect(l.regions.map((r) => r.kind)).not.toContain("footer");
  });
});
