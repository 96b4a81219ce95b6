// Run history storage: bytes per run and for 50 runs of a 3-site comparison, with and without
// content-hash dedupe. Run: bun bench/history-storage.bench.ts   (needs Chromium)
//
// 1. Real captures: the three fixture sites (alpha, beta, gamma on 127.0.0.1) at both viewports,
//    each captured twice in real Chromium, to measure a run's real PNG and extraction sizes and
//    whether re-capturing an unchanged page gives the same bytes (what dedupe relies on).
// 2. 50 runs through the real run pipeline (app, active runs, storage, retention) with run tools that
//    hand back those real screenshots and extractions, in three scenarios: nothing changes; one
//    site of three changes every run; every page changes every run (a changed page is the real
//    PNG with a text chunk added: same picture and size, new bytes). "Without dedupe" is what one
//    file per snapshot would take: the sum of every snapshot's file size.
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { capturePage } from "#server/modules/capture/capture";
import type { Extraction, Viewport } from "#server/modules/capture/model";
import type { RunTools } from "#server/modules/comparisons/active-runs";
import { makeTestApp } from "#tests/support/app";
import { launchBrowser } from "#tests/support/browser";
import { startFixtureServer } from "#tests/support/fixture-server";

const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const SITES = ["alpha", "beta", "gamma"];
const VIEWPORTS: Viewport[] = ["desktop", "mobile"];
const work = mkdtempSync(join(tmpdir(), "di-history-bench-"));
const fixtures = startFixtureServer();

const sha = (path: string) => new Bun.CryptoHasher("sha256").update(new Uint8Array(readFileSync(path))).digest("hex");
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MiB`;

interface Shot {
  path: string;
  extraction: Extraction;
}
const shots = new Map<string, Shot>();
const key = (url: string, viewport: Viewport) => `${url}|${viewport}`;

// ---- 1. real captures ----------------------------------------------------------------------------
const browser = await launchBrowser();
let identical = 0;
let pages = 0;
let pngBytes = 0;
let extractionBytes = 0;
for (const site of SITES) {
  const url = fixtures.url(`/${site}/`);
  for (const viewport of VIEWPORTS) {
    const hashes: string[] = [];
    for (const round of [0, 1]) {
      const path = join(work, `${site}-${viewport}-${round}.png`);
      const job = {
        jobId: `${site}-${viewport}-${round}`,
        url,
        viewport,
        screenshotPath: path,
        allowPrivate: true,
        navigationTimeoutMs: 30_000,
        totalTimeoutMs: 60_000,
        maxHeightPx: 16_000,
      };
      const r = await capturePage(browser, job, () => {});
      hashes.push(sha(path));
      if (round === 0) {
        shots.set(key(url, viewport), { path, extraction: r.extraction });
        pngBytes += statSync(path).size;
        extractionBytes += JSON.stringify(r.extraction).length;
      }
    }
    pages++;
    if (hashes[0] === hashes[1]) identical++;
  }
}
await browser.close();
console.log(`real captures: ${pages} pages (3 sites x 2 viewports)`);
console.log(`  one run: ${kb(pngBytes)} of PNG + ${kb(extractionBytes)} of extraction JSON`);
console.log(`  re-capturing an unchanged page gave byte-identical PNGs: ${identical} of ${pages}`);

// ---- 2. 50 runs through the pipeline ---------------------------------------------------------------
/**
 * The real PNG with a text chunk naming the run after its header: the same picture and size
 * (+ ~30 bytes), different bytes, as a page that changed a little would be.
 */
function altered(src: string, dest: string, run: number) {
  const png = readFileSync(src);
  const data = Buffer.from(`run\0${run}`, "latin1");
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write("tEXt", 4, "latin1");
  data.copy(chunk, 8);
  chunk.writeUInt32BE(Bun.hash.crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  // Signature (8) + IHDR chunk (25): the new chunk goes right after.
  writeFileSync(dest, Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]));
}

type Scenario = { name: string; changes: (url: string, run: number) => boolean };
const scenarios: Scenario[] = [
  { name: "nothing changes", changes: () => false },
  { name: "1 of 3 sites changes every run", changes: (url) => url.includes("/alpha/") },
  { name: "every page changes every run", changes: () => true },
];

function dirBytes(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith(".png")) {
        files++;
        bytes += statSync(join(d, e.name)).size;
      }
    }
  };
  try {
    walk(dir);
  } catch {
    /* none yet */
  }
  return { files, bytes };
}

for (const s of scenarios) {
  const dataDir = mkdtempSync(join(work, "data-"));
  let run = 0;
  const tools: RunTools = {
    capture: async (_owner, job) => {
      const shot = shots.get(key(job.url, job.viewport))!;
      if (s.changes(job.url, run)) altered(shot.path, job.screenshotPath, run);
      else copyFileSync(shot.path, job.screenshotPath);
      return { ok: true, extraction: shot.extraction, screenshotPath: job.screenshotPath };
    },
    analyser: {
      scorePair: () => ({ colorSimilarity: 0.5, layoutSimilarity: 0.5, contentSimilarity: 0.5, overallSimilarity: 0.5, components: {} }),
    },
  };
  const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1", HISTORY_KEEP: String(RUNS) }, runTools: tools });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Bench" }, headers: h })).json;
  for (const site of SITES)
    await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url: fixtures.url(`/${site}/`), label: site }, headers: h });
  const t0 = performance.now();
  for (run = 1; run <= RUNS; run++) {
    const r = await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h });
    if (r.status !== 202) throw new Error(`start: ${r.status} ${r.text}`);
    await t.services.comparisons.whenIdle();
  }
  const ms = performance.now() - t0;
  const disk = dirBytes(join(dataDir, "screenshots"));
  const st = await t.services.history.storage();
  const page = t.db.query<{ n: number }, []>("SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()").get()!.n;
  console.log(`\n${s.name}: ${RUNS} runs (${(ms / RUNS).toFixed(0)} ms each through the pipeline)`);
  console.log(
    `  screenshots with dedupe:    ${mb(disk.bytes)} in ${disk.files} files on disk (the history reports ${mb(st.bytes)}, ${st.files} files)`,
  );
  console.log(`  screenshots without dedupe: ${mb(st.bytesWithoutDedupe)} (${st.snapshots} snapshots, one file each)`);
  console.log(
    `  per run: ${kb(disk.bytes / RUNS)} with dedupe, ${kb(st.bytesWithoutDedupe / RUNS)} without; database ${mb(page)} in all (${kb(page / RUNS)} per run)`,
  );
  console.log(`  bytes: dedupe=${disk.bytes} nodedupe=${st.bytesWithoutDedupe} db=${page}`);
  if (disk.bytes !== st.bytes) throw new Error("disk and history disagree");
  rmSync(dataDir, { recursive: true, force: true });
}

await fixtures.close();
rmSync(work, { recursive: true, force: true });
