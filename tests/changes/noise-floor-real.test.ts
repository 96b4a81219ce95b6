// No change means no change, through the path the product uses: real runs of a comparison (the
// capture pool drives system Chromium, the run history stores each run and finds its changes at
// completion) over pages that move by themselves and pages the team did not write:
// - a fixture page with CSS animations, a carousel that rotates on a timer, lazy images below the
//   fold and a web font that arrives late;
// - three real templates from /work/shared/corpus (served from there on 127.0.0.1, never copied),
//   whose CDN fonts and scripts fail offline on every capture.
// Every run after the first must report zero changes on every target. WATCH_NOISE_RUNS sets the
// number of runs (default 3).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findChromium } from "#server/lib/chromium";
import { CapturePool } from "#server/modules/capture/browser/pool";
import { MIN_SAMPLES } from "#server/modules/changes/detect/timing";
import { makeTestApp } from "#tests/support/app";
import { TEST_TIMING_SAMPLES } from "#tests/support/server";
import { CORPUS_DIR, startNoiseSites } from "./noise-sites";

const RUNS = Math.max(2, Number(process.env.WATCH_NOISE_RUNS ?? 3));
setDefaultTimeout(200_000 * RUNS);

let noise: ReturnType<typeof startNoiseSites>;
let pool: CapturePool;
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "di-noise-real-"));
  noise = startNoiseSites();
  pool = new CapturePool({
    concurrency: 2,
    chromiumPath: findChromium(process.env.CHROMIUM_PATH),
    allowPrivate: true,
    // A timing change needs MIN_SAMPLES + 1 runs of history (changes/detect/timing.ts), more than
    // these runs make unless WATCH_NOISE_RUNS asks for them: until then the extra timing loads
    // feed nothing a change could come from (with more runs, the product's loads).
    timingSamples: RUNS > MIN_SAMPLES ? undefined : Number(TEST_TIMING_SAMPLES),
  });
});

afterAll(async () => {
  await pool?.close();
  noise?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test(`${RUNS} real runs of unchanged pages (animation, carousel, lazy images, late font; 3 corpus templates): zero changes`, async () => {
  expect(existsSync(join(CORPUS_DIR, "clean-blog", "index.html"))).toBe(true);
  const t = makeTestApp({
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" },
    runTools: { capture: (owner, job, onStage) => pool.submit(owner, job, onStage) },
  });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Unchanged" }, headers: h })).json;
  const sites = noise.sites;
  for (const [label, url] of sites)
    expect((await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: h })).status).toBe(201);

  const found: { run: number; target: string; changes: string[] }[] = [];
  for (let i = 1; i <= RUNS; i++) {
    expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
    await t.services.comparisons.whenIdle();
    const done = (await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json;
    expect({ status: done.status, error: done.error, captured: done.progress.done }).toEqual({
      status: "completed",
      error: null,
      captured: sites.length * 2,
    });
    if (i === 1) continue;
    const res = (await t.call("GET", `/api/comparisons/${c.id}/changes`, { headers: h })).json;
    for (const target of res.targets)
      found.push({ run: i, target: target.label, changes: target.changes.map((x: any) => `${x.viewport} ${x.kind}: ${x.summary}`) });
  }
  // Every target of every later run, listed, so a failure names what was reported.
  expect(found.filter((f) => f.changes.length > 0)).toEqual([]);
  expect(found).toHaveLength((RUNS - 1) * sites.length);
  const runs = (await t.call("GET", `/api/comparisons/${c.id}/runs`, { headers: h })).json;
  expect(runs.map((r: any) => r.changeCount)).toEqual([...Array.from({ length: RUNS - 1 }, () => 0), null]);
});
