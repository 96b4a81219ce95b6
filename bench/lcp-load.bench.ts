// A page's LCP and FCP in a 2-site comparison against the same page's inside an 8-site one: the
// measure a visitor's timing must hold whatever else we capture, with both viewports printed.
// Real runs through the product's path (capture pool at its default concurrency, timing loads,
// scoring, findings; tests/support/comparison-load.ts), alternating round by round, on fixture
// sites and corpus templates (CORPUS_DIR, default ../shared/corpus).
//
// Target: for every measured page, desktop, |8-site median / 2-site median − 1| ≤ 0.15 for LCP and
// FCP. Mobile is printed for reading.
//
//   CORPUS_DIR=… bun bench/lcp-load.bench.ts
//   BENCH_ROUNDS (default 9), BENCH_PAGES (measured pages per set, 1–3, default 2), BENCH_SIZE (default 8)
import { verdict } from "./lib";
import { CORPUS_DIR, corpusFound, describe, measuredPages, openComparisonLab, studyLoad } from "#tests/support/comparison-load";
import { loadavg } from "node:os";

const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 9));
const PER_SET = Math.max(1, Math.min(3, Number(process.env.BENCH_PAGES ?? 2)));
const SIZE = Math.max(PER_SET * 2 + 1, Number(process.env.BENCH_SIZE ?? 8));
const TOLERANCE = 0.15;

if (!corpusFound()) {
  console.error(`the corpus is not at ${CORPUS_DIR}: set CORPUS_DIR`);
  process.exit(2);
}

const lab = await openComparisonLab();
const started = performance.now();
try {
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  await lab.run(measuredPages(1).reverse()); // warm-up, not counted
  const study = await studyLoad(lab, { measured: measuredPages(PER_SET), size: SIZE, rounds: ROUNDS, log: (l) => console.log(l) });
  for (const viewport of ["desktop", "mobile"] as const) {
    console.log(`\n${viewport}: 8-site median / 2-site median, ${ROUNDS} rounds`);
    for (const v of study.verdicts.filter((x) => x.viewport === viewport)) console.log(`  ${describe(v, SIZE)}`);
  }
  const small = study.runs.filter((r) => r.kind === "small").map((r) => r.ms);
  const large = study.runs.filter((r) => r.kind === "large").map((r) => r.ms);
  const avg = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
  console.log(
    `\nrun time: 2-site ${avg(small)} ms, ${SIZE}-site ${avg(large)} ms (mean); whole bench ${Math.round((performance.now() - started) / 1000)} s`,
  );
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}\n`,
  );
  const desktop = study.verdicts.filter((v) => v.viewport === "desktop");
  for (const set of ["fixture", "corpus"] as const) {
    for (const metric of ["lcpMs", "fcpMs"] as const) {
      const ratios = desktop.filter((v) => v.page.set === set && v.metric === metric).map((v) => v.ratio ?? Infinity);
      const worst = ratios.reduce((w, r) => (Math.abs(r - 1) > Math.abs(w - 1) ? r : w), 1);
      verdict(`${set} desktop ${metric === "lcpMs" ? "LCP" : "FCP"}, worst page |${SIZE}-site / 2-site − 1|`, Math.abs(worst - 1), {
        atMost: TOLERANCE,
      });
    }
  }
} finally {
  await lab.close();
}
