import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAnalyser } from "#server/modules/analysis/analyser";
import { createFindingsStep } from "#server/modules/analysis/findings-step";
import { summariseScreenshot } from "#server/modules/capture/screenshot/screenshot-summary";
import { scorePairFromFiles } from "#server/modules/analysis/similarity";
import type { RunTools } from "#server/modules/comparisons/active-runs";
import { alpha, beta } from "./pages";

const dir = mkdtempSync(join(tmpdir(), "analyser-"));
const A = alpha();
const B = beta();
const aPath = join(dir, "a.png");
const bPath = join(dir, "b.png");
await Bun.write(aPath, A.png);
await Bun.write(bPath, B.png);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("createAnalyser (worker)", () => {
  test("scores in the worker exactly as in-process, repeatedly (cached thumbnails)", async () => {
    const analyser = createAnalyser();
    try {
      const direct = await scorePairFromFiles(aPath, A.extraction, bPath, B.extraction);
      const first = await analyser.scorePair(aPath, A.extraction, bPath, B.extraction);
      const [again, same] = await Promise.all([
        analyser.scorePair(aPath, A.extraction, bPath, B.extraction),
        analyser.scorePair(aPath, A.extraction, aPath, A.extraction),
      ]);
      expect(first).toEqual(direct);
      expect(again).toEqual(direct);
      expect(same.overallSimilarity).toBeCloseTo(1, 3);
    } finally {
      analyser.close();
    }
  });

  test("a primed thumbnail is used instead of decoding the file, until the file changes", async () => {
    const analyser = createAnalyser();
    const cPath = join(dir, "c.png");
    await Bun.write(cPath, A.png);
    try {
      const direct = await scorePairFromFiles(cPath, A.extraction, bPath, B.extraction);
      // The capture-time summary is the very thumbnail the file would give: same scores.
      const summary = await summariseScreenshot(A.png);
      analyser.prime(cPath, summary.thumb, A.extraction.palette.dominant);
      expect(await analyser.scorePair(cPath, A.extraction, bPath, B.extraction)).toEqual(direct);

      // Proof the worker read the primed one: a blank thumbnail changes the pixel-side layout score.
      const blank = {
        width: summary.thumb.width,
        height: summary.thumb.height,
        data: new Float32Array(summary.thumb.data.length).fill(255),
      };
      analyser.prime(cPath, blank, A.extraction.palette.dominant);
      const primed = await analyser.scorePair(cPath, A.extraction, bPath, B.extraction);
      expect(primed.components).not.toEqual(direct.components);

      // A rewritten file is decoded afresh.
      await Bun.sleep(20);
      await Bun.write(cPath, A.png);
      expect(await analyser.scorePair(cPath, A.extraction, bPath, B.extraction)).toEqual(direct);
      // Priming a file that no longer exists is harmless.
      analyser.prime(join(dir, "gone.png"), (await summariseScreenshot(A.png)).thumb, []);
      expect(await analyser.scorePair(aPath, A.extraction, bPath, B.extraction)).toEqual(
        await scorePairFromFiles(aPath, A.extraction, bPath, B.extraction),
      );
    } finally {
      analyser.close();
    }
  }, 120_000); // several full-page scorings in the worker: past 30 s on a busy machine

  test("a missing or corrupt screenshot rejects that job only", async () => {
    const analyser = createAnalyser();
    try {
      await expect(analyser.scorePair(join(dir, "missing.png"), A.extraction, bPath, B.extraction)).rejects.toThrow();
      const junk = join(dir, "junk.png");
      await Bun.write(junk, "not a png");
      await expect(analyser.scorePair(junk, A.extraction, bPath, B.extraction)).rejects.toThrow();
      const ok = await analyser.scorePair(aPath, A.extraction, bPath, B.extraction);
      expect(ok.overallSimilarity).toBeGreaterThan(0);
    } finally {
      analyser.close();
    }
  });

  test("plugs into a comparison run's tools as is", () => {
    const analyser = createAnalyser();
    const engine: RunTools = { analyser, findingsFor: createFindingsStep() };
    expect(typeof engine.analyser?.scorePair).toBe("function");
    analyser.close();
  });

  test("after close, calls are refused", async () => {
    const analyser = createAnalyser();
    analyser.close();
    await expect(analyser.scorePair(aPath, A.extraction, bPath, B.extraction)).rejects.toThrow("analyser is closed");
  });

  test("a stuck worker is killed after the job timeout and replaced on the next call", async () => {
    let spawned = 0;
    const analyser = createAnalyser({
      jobTimeoutMs: 100,
      spawn: () => {
        spawned++;
        // A worker that never answers.
        return new Worker(URL.createObjectURL(new Blob(["self.onmessage = () => {};"], { type: "application/javascript" })));
      },
    });
    try {
      await expect(analyser.scorePair(aPath, A.extraction, bPath, B.extraction)).rejects.toThrow("scoring took too long");
      await expect(analyser.scorePair(aPath, A.extraction, bPath, B.extraction)).rejects.toThrow("scoring took too long");
      expect(spawned).toBe(2);
    } finally {
      analyser.close();
    }
  });
});
