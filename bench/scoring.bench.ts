// Per-pair scoring cost against the cheapest thing anyone would do instead: one pixelmatch pass.
// Two different 1440 x 4000 pages are rendered by Chromium (realistic PNGs), then we time
//   ours      scoring from PNG bytes: decode both, thumbnails, SSIM, palettes, structure, text
//             (the streaming decoder the analyse worker uses, and the pngjs full-decode path)
//   baseline  pixelmatch over the same two already-decoded bitmaps (no decode: the stricter baseline)
// and print the ratio (target <= 10). Peak RSS of each contender is measured in its own child
// process (maxRSS only ever grows). Run: bun bench/scoring.bench.ts   (BENCH_RUNS=9 by default)
import pixelmatch from "pixelmatch";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAnalyser } from "#server/modules/analysis/analyser";
import { decodePng } from "#server/lib/image/image";
import { dominantColors, isDarkImage } from "#server/lib/image/palette";
import { scorePair, scorePairStreaming } from "#server/modules/analysis/similarity";
import type { Extraction } from "#server/modules/capture/model";
import { makeExtraction } from "#tests/analysis/support";
import { launchBrowser } from "#tests/support/browser";
import { verdict } from "./lib";

const WIDTH = 1440;
const HEIGHT = 4000;
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

const WORDS = {
  light: "invoices reminders clients payments accounting freelancers agencies send track chase paid faster bank reconcile".split(" "),
  dark: "coffee roast beans origin farms grinder brew espresso filter flavour growers shipping subscription kettle".split(" "),
};
let vocabulary = WORDS.light;
function prose(seed: number, words: number): string {
  let s = seed;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    out.push(vocabulary[s % vocabulary.length]!);
  }
  return out.join(" ");
}

interface Site {
  html: string;
  text: string;
  headline: string;
  dark: boolean;
}

function site(kind: "light" | "dark", edited = false): Site {
  const dark = kind === "dark";
  vocabulary = WORDS[kind];
  const headline = dark
    ? "Roast your own coffee at home"
    : edited
      ? "Get paid on time without chasing anyone"
      : "Invoices that pay themselves";
  // The edited copy rewrites the headline and one section's paragraph.
  const seedOf = (i: number) => i + (dark ? 100 : 0) + (edited && i === 4 ? 50 : 0);
  const fg = dark ? "#e2e8f0" : "#111827";
  const bg = dark ? "#0f172a" : "#ffffff";
  const accent = dark ? "#f97316" : "#2563eb";
  const sections = Array.from({ length: 10 }, (_, i) => {
    const text = prose(seedOf(i), 120);
    const cards = Array.from(
      { length: dark ? 2 : 3 },
      (_, c) =>
        `<div style="flex:1;border-radius:${dark ? 0 : 12}px;background:${dark ? "#334155" : "#e5e7eb"};height:160px;background-image:linear-gradient(${c * 40}deg,${accent}33,transparent)"></div>`,
    ).join("");
    return `<section style="padding:56px 120px;background:${i % 2 ? (dark ? "#111827" : "#f3f4f6") : bg}"><h2 style="font:700 34px ${dark ? "Georgia,serif" : "sans-serif"};margin:0 0 16px">${prose(i + 7, 6)}</h2><p style="font:18px/1.6 sans-serif;max-width:900px">${text}</p><div style="display:flex;gap:24px">${cards}</div></section>`;
  }).join("");
  const html = `<!doctype html><body style="margin:0;background:${bg};color:${fg}">
    <header style="height:72px;background:${dark ? "#020617" : "#111827"}"></header>
    <div style="display:flex;gap:48px;padding:96px 120px;min-height:520px;background:${dark ? "#7c2d12" : "#dbeafe"}">
      <div style="flex:1"><h1 style="font:800 56px sans-serif;margin:0">${headline}</h1><p style="font:20px/1.5 sans-serif">${prose(dark ? 3 : 4, 40)}</p>
      <a style="display:inline-block;padding:16px 28px;background:${accent};color:#fff;border-radius:8px;font:600 18px sans-serif">Get started</a></div>
      <div style="flex:1;border-radius:16px;background:radial-gradient(circle at 30% 30%,${accent},#000)"></div>
    </div>${sections}</body>`;
  return {
    html,
    text: `${headline} ${prose(dark ? 3 : 4, 40)} ${Array.from({ length: 10 }, (_, i) => prose(i + 7, 6) + " " + prose(seedOf(i), 120)).join(" ")}`,
    headline,
    dark,
  };
}

async function render(sites: Site[]): Promise<Uint8Array[]> {
  const browser = await launchBrowser();
  try {
    const out: Uint8Array[] = [];
    for (const s of sites) {
      const page = await browser.newPage({ viewport: { width: WIDTH, height: 900 } });
      await page.setContent(s.html);
      out.push(new Uint8Array(await page.screenshot({ fullPage: true, clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } })));
      await page.close();
    }
    return out;
  } finally {
    await browser.close();
  }
}

function extractionFor(s: Site, png: Uint8Array): Extraction {
  const img = decodePng(png);
  return makeExtraction({
    pageHeight: HEIGHT,
    capturedHeight: HEIGHT,
    palette: { dominant: dominantColors(img.data, img.width, img.height), isDark: isDarkImage(img.data, img.width, img.height) },
    copy: { headline: s.headline, visibleText: s.text, wordCount: s.text.split(" ").length },
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Peak RSS of this process image. VmHWM rather than getrusage: ru_maxrss survives exec on Linux, so a child spawned from a big parent reports the parent's peak. */
function peakMb(): number {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
    if (hwm) return Number(hwm) / 1024;
  } catch {
    /* not Linux */
  }
  return process.resourceUsage().maxRSS / 1024;
}
const rssMb = () => process.memoryUsage().rss / (1024 * 1024);

interface Pair {
  a: { extraction: Extraction; png: Uint8Array };
  b: { extraction: Extraction; png: Uint8Array };
}

async function loadPair(dir: string, names: [string, string] = ["a", "b"]): Promise<Pair> {
  const load = async (name: string) => ({
    extraction: (await Bun.file(join(dir, `${name}.json`)).json()) as Extraction,
    png: await Bun.file(join(dir, `${name}.png`)).bytes(),
  });
  return { a: await load(names[0]), b: await load(names[1]) };
}

type Mode = "pixelmatch" | "scorePair" | "streaming";

/** One operation in a fresh process, so its peak RSS is its own. */
async function child(mode: Mode, dir: string) {
  const { a, b } = await loadPair(dir);
  Bun.gc(true);
  const before = rssMb();
  if (mode === "pixelmatch") {
    const da = decodePng(a.png);
    const db = decodePng(b.png);
    pixelmatch(da.data, db.data, undefined, WIDTH, HEIGHT, { threshold: 0.1 });
  } else if (mode === "scorePair") {
    scorePair(a, b);
  } else {
    await scorePairStreaming(a, b);
  }
  console.log(JSON.stringify({ before, peak: peakMb() }));
}

async function timePair(label: string, { a, b }: Pair) {
  const imgA = decodePng(a.png);
  const imgB = decodePng(b.png);
  if (imgA.width !== WIDTH || imgA.height !== HEIGHT || imgB.width !== WIDTH || imgB.height !== HEIGHT)
    throw new Error("unexpected screenshot size");
  // Warm up (JIT), then interleave so every contender sees the same machine load.
  pixelmatch(imgA.data, imgB.data, undefined, WIDTH, HEIGHT, { threshold: 0.1 });
  scorePair(a, b);
  await scorePairStreaming(a, b);
  const t = { pixelmatch: [] as number[], pixelmatchDecode: [] as number[], scorePair: [] as number[], streaming: [] as number[] };
  let diffPixels = 0;
  let scores = scorePair(a, b);
  for (let i = 0; i < RUNS; i++) {
    let t0 = performance.now();
    diffPixels = pixelmatch(imgA.data, imgB.data, undefined, WIDTH, HEIGHT, { threshold: 0.1 });
    t.pixelmatch.push(performance.now() - t0);

    t0 = performance.now();
    pixelmatch(decodePng(a.png).data, decodePng(b.png).data, undefined, WIDTH, HEIGHT, { threshold: 0.1 });
    t.pixelmatchDecode.push(performance.now() - t0);

    t0 = performance.now();
    scores = scorePair(a, b);
    t.scorePair.push(performance.now() - t0);

    t0 = performance.now();
    await scorePairStreaming(a, b);
    t.streaming.push(performance.now() - t0);
  }
  const pm = median(t.pixelmatch);
  const ours = median(t.streaming);
  console.log(
    `\n${label}: PNG ${(a.png.length / 1024).toFixed(0)} KB + ${(b.png.length / 1024).toFixed(0)} KB, ${RUNS} interleaved runs, medians`,
  );
  console.log(`  pixelmatch, decoded bitmaps        ${pm.toFixed(1).padStart(7)} ms   (${diffPixels} px differ)`);
  console.log(`  pixelmatch incl. 2x PNG decode     ${median(t.pixelmatchDecode).toFixed(1).padStart(7)} ms`);
  console.log(`  scorePair (pngjs full decode)      ${median(t.scorePair).toFixed(1).padStart(7)} ms`);
  console.log(`  scorePairStreaming (server path)   ${ours.toFixed(1).padStart(7)} ms`);
  console.log(
    `  scores: overall ${scores.overallSimilarity} (colour ${scores.colorSimilarity}, layout ${scores.layoutSimilarity}, content ${scores.contentSimilarity})`,
  );
  console.log(`  pngjs path / one pixelmatch pass = ${(median(t.scorePair) / pm).toFixed(2)}`);
  verdict(`scoring (${label}) / one pixelmatch pass`, ours / pm, { atMost: 10 });
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "scoring-bench-"));
  try {
    const sites = { a: site("light"), b: site("dark"), e: site("light", true) };
    const pngs = await render([sites.a, sites.b, sites.e]);
    for (const [i, name] of (["a", "b", "e"] as const).entries()) {
      await Bun.write(join(dir, `${name}.png`), pngs[i]!);
      await Bun.write(join(dir, `${name}.json`), JSON.stringify(extractionFor(sites[name], pngs[i]!)));
    }
    console.log(`scoring bench: ${WIDTH}x${HEIGHT} full-page screenshots rendered by Chromium`);
    const far = await loadPair(dir, ["a", "b"]);
    await timePair("different brands (light vs dark site)", far);
    await timePair("light edit (same site, new headline and one paragraph)", await loadPair(dir, ["a", "e"]));

    // Through the worker, as the server runs it; fresh file names each time so nothing is cached.
    const analyser = createAnalyser();
    const viaWorker: number[] = [];
    try {
      for (let i = 0; i < Math.min(RUNS, 5) + 1; i++) {
        const pa = join(dir, `w${i}a.png`);
        const pb = join(dir, `w${i}b.png`);
        await Bun.write(pa, far.a.png);
        await Bun.write(pb, far.b.png);
        const t0 = performance.now();
        await analyser.scorePair(pa, far.a.extraction, pb, far.b.extraction);
        if (i > 0) viaWorker.push(performance.now() - t0); // the first call includes worker start-up
      }
    } finally {
      analyser.close();
    }
    console.log(`\nvia the analyse worker (different brands, uncached): ${median(viaWorker).toFixed(1)} ms per pair`);

    console.log("peak memory, each in a fresh process (different-brands pair):");
    for (const mode of ["pixelmatch", "scorePair", "streaming"] as const) {
      const proc = Bun.spawnSync(["bun", import.meta.path, "--child", mode, dir], { stderr: "inherit" });
      const m = JSON.parse(proc.stdout.toString().trim().split("\n").pop()!) as { before: number; peak: number };
      const name = { pixelmatch: "decode + pixelmatch", scorePair: "scorePair (pngjs)", streaming: "scorePairStreaming" }[mode];
      console.log(`  ${name.padEnd(22)} peak RSS ${m.peak.toFixed(0)} MB (+${(m.peak - m.before).toFixed(0)} MB over the loaded process)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--child") await child(process.argv[3] as Mode, process.argv[4]!);
else await main();
