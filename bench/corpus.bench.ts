// Capture, scoring and findings on real public templates (../shared/corpus), served on 127.0.0.1, with variants made
// in a temp folder: near pairs must beat far pairs on overallSimilarity and on designSimilarity,
// desktop and mobile. Prints the near/far table, the margins, the recolour's colour scores, and
// what each page reports (rendered family, painted-contrast findings, LCP and its element).
// Run: bun bench/corpus.bench.ts   (CORPUS_DIR overrides ../shared/corpus)
//
// near: a template vs its brand recolour (every chromatic hue turned 180°), vs a copy with every
//       visible word replaced, and clean-blog vs clean-blog-2020 (the same site one redesign earlier)
// far:  every pair of different templates, and a template vs another design carrying its words
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scorePairFromFiles, type PairScores } from "#server/modules/analysis/similarity";
import { capturePage } from "#server/modules/capture/capture";
import type { Extraction, Viewport } from "#server/modules/capture/model";
import { launchBrowser } from "#tests/support/browser";
import { makeVariants, serveFolders, TEMPLATES } from "./corpus-lib";
import { verdict } from "./lib";

const SAME_SITE: [string, string][] = [["clean-blog", "clean-blog-2020"]];
const CROSSED: [string, string][] = [
  ["stylish-portfolio", "one-page-wonder"],
  ["one-page-wonder", "resume"],
  ["resume", "clean-blog"],
  ["clean-blog", "stylish-portfolio"],
];

const variants = await makeVariants(TEMPLATES, CROSSED);
const server = serveFolders(variants.roots);
const shots = mkdtempSync(join(tmpdir(), "corpus-shots-"));
const browser = await launchBrowser();

interface Captured {
  extraction: Extraction;
  path: string;
}
const captured = new Map<string, Captured>();

async function capture(name: string, viewport: Viewport): Promise<Captured> {
  const key = `${name} ${viewport}`;
  const hit = captured.get(key);
  if (hit) return hit;
  const path = join(shots, `${name.replace(/[^\w-]/g, "_")}-${viewport}.png`);
  const job = {
    jobId: key,
    url: server.url(name),
    viewport,
    screenshotPath: path,
    allowPrivate: true,
    navigationTimeoutMs: 30_000,
    totalTimeoutMs: 120_000,
    maxHeightPx: 16_000,
  };
  const { extraction } = await capturePage(browser, job, () => {});
  const out = { extraction, path };
  captured.set(key, out);
  return out;
}

type Kind = "near" | "far";
interface Pair {
  kind: Kind;
  what: string;
  a: string;
  b: string;
}
const pairs: Pair[] = [];
for (const t of TEMPLATES) {
  pairs.push({ kind: "near", what: "brand recolour", a: t, b: `${t}~recolour` });
  pairs.push({ kind: "near", what: "every word replaced", a: t, b: `${t}~reword` });
}
for (const [a, b] of SAME_SITE) pairs.push({ kind: "near", what: "same site, earlier version", a, b });
for (let i = 0; i < TEMPLATES.length; i++) {
  for (let j = i + 1; j < TEMPLATES.length; j++) {
    const [a, b] = [TEMPLATES[i]!, TEMPLATES[j]!];
    if (SAME_SITE.some(([x, y]) => (x === a && y === b) || (x === b && y === a))) continue;
    pairs.push({ kind: "far", what: "different templates", a, b });
  }
}
for (const [a, b] of CROSSED) pairs.push({ kind: "far", what: "other design, same words", a: b, b: `${a}~words-of-${b}` });

const pages = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
const f = (n: number) => n.toFixed(3);
const t0 = performance.now();
const results: { viewport: Viewport; pair: Pair; s: PairScores }[] = [];

for (const viewport of ["desktop", "mobile"] as Viewport[]) {
  // Two pages at a time, as the server's default capture concurrency does.
  const queue = [...pages];
  await Promise.all(
    [0, 1].map(async () => {
      for (let name = queue.shift(); name; name = queue.shift()) await capture(name, viewport);
    }),
  );
  for (const pair of pairs) {
    const a = captured.get(`${pair.a} ${viewport}`)!;
    const b = captured.get(`${pair.b} ${viewport}`)!;
    results.push({ viewport, pair, s: await scorePairFromFiles(a.path, a.extraction, b.path, b.extraction) });
  }
}

console.log(
  `corpus: ${TEMPLATES.length} templates + ${pages.length - TEMPLATES.length} variants, ${captured.size} captures in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
);
console.log("| viewport | kind | pair | colour | layout | type | content | design | overall |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const { viewport, pair, s } of results) {
  console.log(
    `| ${viewport} | ${pair.kind} | ${pair.a} vs ${pair.b} (${pair.what}) | ${f(s.colorSimilarity)} | ${f(s.layoutSimilarity)} | ${f(s.components.typography ?? NaN)} | ${f(s.contentSimilarity)} | **${f(s.designSimilarity)}** | **${f(s.overallSimilarity)}** |`,
  );
}

console.log("");
for (const viewport of ["desktop", "mobile"] as Viewport[]) {
  for (const key of ["overallSimilarity", "designSimilarity"] as const) {
    const of = (kind: Kind) => results.filter((r) => r.viewport === viewport && r.pair.kind === kind);
    const worstNear = of("near").reduce((m, r) => (r.s[key] < m.s[key] ? r : m));
    const bestFar = of("far").reduce((m, r) => (r.s[key] > m.s[key] ? r : m));
    console.log(
      `${viewport} ${key}: lowest near ${f(worstNear.s[key])} (${worstNear.pair.a} vs ${worstNear.pair.b}), highest far ${f(bestFar.s[key])} (${bestFar.pair.a} vs ${bestFar.pair.b})`,
    );
    verdict(`${viewport} ${key} margin (lowest near - highest far)`, worstNear.s[key] - bestFar.s[key], { atLeast: 0.000001 });
  }
  const recolours = results.filter((r) => r.viewport === viewport && r.pair.what === "brand recolour");
  const worst = Math.max(...recolours.map((r) => r.s.colorSimilarity));
  verdict(`${viewport} highest colourSimilarity of a brand recolour`, worst, { atMost: 0.7 });
}

console.log(
  "\n| page | viewport | roles (bg / text / primary / secondary) | rendered families | not loaded | low contrast (css / pixels) | failed requests | LCP ms (element) |",
);
console.log("|---|---|---|---|---|---|---|---|");
for (const [key, { extraction: e }] of captured) {
  if (!TEMPLATES.includes(key.split(" ")[0] as never) && !key.includes("~recolour")) continue;
  const r = e.palette.roles;
  const rendered = (e.typography.rendered ?? [])
    .slice(0, 3)
    .map((x) => `${x.family} ${(x.share * 100).toFixed(0)}%`)
    .join(", ");
  const notLoaded = (e.typography.notLoaded ?? []).map((x) => x.family).join(", ") || "-";
  const lc = e.accessibility.lowContrast;
  const css = lc.filter((x) => x.method !== "pixels").length;
  const px = lc.filter((x) => x.method === "pixels").length;
  console.log(
    `| ${key.split(" ")[0]} | ${e.viewport} | ${r?.background} / ${r?.text} / ${r?.primary} / ${r?.secondary} | ${rendered} | ${notLoaded} | ${css} / ${px} | ${e.network?.failedCount ?? 0} | ${e.timing.lcpMs} (${e.timing.lcpElement}) |`,
  );
}

await browser.close();
server.stop();
variants.cleanup();
rmSync(shots, { recursive: true, force: true });
