// The noise floor of change detection, measured on the product path: BENCH_RUNS (default 8) real
// runs of one comparison over pages that never change but move by themselves (tests/changes/
// noise-sites.ts: a page with CSS animations, a timed carousel, lazy images and a late web font,
// and three corpus templates). Prints, per page:
// - changes the run history stored (the filters on) and what detection finds on the same pairs
//   with the volatility reports and the pixel mask left out (what the filters remove);
// - each timing metric's median, robust spread (1.4826 × MAD), the band a change has to leave
//   (max(4 × spread, relative floor, absolute floor)) and the largest distance from the median seen.
// Run: bun bench/watch-noise.bench.ts   (needs Chromium; ~1 min per run on a quiet 2-core host)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findChromium } from "#server/lib/chromium";
import { decodePng } from "#server/lib/image/image";
import type { Extraction } from "#server/modules/capture/model";
import { CapturePool } from "#server/modules/capture/browser/pool";
import { detectChanges } from "#server/modules/changes/detect/detect";
import { timingBand, type TimingSample } from "#server/modules/changes/detect/timing";
import { visualDiff } from "#server/modules/changes/detect/visual";
import { makeTestApp } from "#tests/support/app";
import { startNoiseSites } from "#tests/changes/noise-sites";

const RUNS = Math.max(2, Number(process.env.BENCH_RUNS ?? 8));
const dataDir = mkdtempSync(join(tmpdir(), "di-noise-bench-"));
const noise = startNoiseSites();
const pool = new CapturePool({ concurrency: 2, chromiumPath: findChromium(process.env.CHROMIUM_PATH), allowPrivate: true });

try {
  const t = makeTestApp({
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" },
    runTools: { capture: (o, job, s) => pool.submit(o, job, s) },
  });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Noise" }, headers: h })).json;
  for (const [label, url] of noise.sites) await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: h });
  for (let i = 1; i <= RUNS; i++) {
    const started = performance.now();
    await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h });
    await t.services.comparisons.whenIdle();
    const done = (await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json;
    console.log(`run ${i}: ${done.status}, ${done.progress.done} pages, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }

  type Snap = {
    run_number: number;
    label: string;
    viewport: string;
    extraction: string;
    screenshot_path: string;
    content_hash: string;
    run_id: string;
    target_id: string;
  };
  const snaps = t.db
    .query<Snap, [string]>(
      `SELECT r.number AS run_number, t.label, s.viewport, s.extraction, s.screenshot_path, s.content_hash, s.run_id, s.target_id
         FROM snapshots s JOIN runs r ON r.id = s.run_id JOIN targets t ON t.id = s.target_id WHERE s.comparison_id = ? ORDER BY r.number`,
    )
    .all(c.id);
  const stored = t.db
    .query<{ run_id: string; target_id: string; viewport: string; summary: string }, [string]>(
      "SELECT run_id, target_id, viewport, summary FROM run_changes WHERE comparison_id = ?",
    )
    .all(c.id);
  const pages = [...new Set(snaps.map((s) => `${s.label}|${s.viewport}`))];
  const png = async (rel: string) => decodePng(await Bun.file(join(dataDir, rel)).bytes());

  console.log(`\n${RUNS} runs, ${RUNS - 1} consecutive pairs per page`);
  console.log("page                        stored  unfiltered (kinds)            identical PNGs");
  const unfilteredExamples: string[] = [];
  for (const p of pages) {
    const [label, viewport] = p.split("|");
    const mine = snaps.filter((s) => s.label === label && s.viewport === viewport);
    let storedN = 0;
    let raw = 0;
    let same = 0;
    const kinds = new Map<string, number>();
    for (let i = 1; i < mine.length; i++) {
      const a = mine[i - 1]!;
      const b = mine[i]!;
      storedN += stored.filter((x) => x.run_id === b.run_id && x.target_id === b.target_id && x.viewport === b.viewport).length;
      if (a.content_hash === b.content_hash) same++;
      const history = mine.slice(0, i).map((s) => (JSON.parse(s.extraction) as Extraction).timing as TimingSample);
      const visual = a.content_hash === b.content_hash ? null : visualDiff(await png(a.screenshot_path), await png(b.screenshot_path));
      const found = detectChanges({ before: JSON.parse(a.extraction), after: JSON.parse(b.extraction), timingHistory: history, visual });
      raw += found.length;
      for (const f of found) {
        kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
        if (unfilteredExamples.length < 12) unfilteredExamples.push(`${p}: ${f.summary}`);
      }
    }
    const k = [...kinds].map(([x, n]) => `${n} ${x}`).join(", ") || "-";
    console.log(
      `${p.padEnd(28)}${String(storedN).padStart(6)}  ${String(raw).padStart(4)} (${k})`.padEnd(66) + `${same}/${mine.length - 1}`,
    );
  }
  const kept = stored.slice(0, 12).map((x) => `${snaps.find((s) => s.target_id === x.target_id)?.label}|${x.viewport}: ${x.summary}`);
  if (kept.length) console.log("\nstored despite the filters (examples):\n  " + kept.join("\n  "));
  if (unfilteredExamples.length) console.log("\nwhat the filters removed (examples):\n  " + unfilteredExamples.join("\n  "));

  console.log("\ntiming noise per page (ms): median / spread (1.4826 MAD) / band a change must leave / largest |x - median| seen");
  for (const p of pages) {
    const [label, viewport] = p.split("|");
    const samples = snaps
      .filter((s) => s.label === label && s.viewport === viewport)
      .map((s) => (JSON.parse(s.extraction) as Extraction).timing);
    const cells = (["ttfbMs", "fcpMs", "lcpMs", "loadMs"] as const).map((key) => {
      const xs = samples.map((x) => x[key]).filter((x): x is number => typeof x === "number" && Number.isFinite(x));
      if (xs.length < 2) return `${key} -`;
      const b = timingBand(key, xs);
      const worst = Math.max(...xs.map((x) => Math.abs(x - b.median)));
      return `${key.replace("Ms", "")} ${b.median.toFixed(0)}/${b.spread.toFixed(0)}/${b.limit.toFixed(0)}/${worst.toFixed(0)}`;
    });
    console.log(`${p.padEnd(28)}${cells.join("  ")}`);
  }
} finally {
  await pool.close();
  noise.close();
  rmSync(dataDir, { recursive: true, force: true });
}
