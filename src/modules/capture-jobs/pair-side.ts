// Pair scoring for the instance driving a run in a deployment: an Analyser whose scorePair is an
// `analysis.pair` job (asking.ts). Its captures are stored by workers (run-side.ts), so the "paths"
// it is given are their stored keys; the job carries the keys and the parts of each extraction
// scoring reads, and a worker scores the pair on its own analyser (pair-worker.ts). This instance
// never reads a screenshot's pixels.
import type { Analyser, PairScores } from "#server/modules/analysis";
import type { Extraction } from "#server/modules/capture/model";
import { isScreenshotKey } from "#server/modules/comparisons/public";
import { asker, type AskDeps } from "./asking";
import { PAIR_KIND, scoredParts, storedResultSchema, type PairPayload } from "./model";
import type { Words } from "./waiter";

const WORDS: Words = { failed: "The pair could not be scored", worker: "the scoring worker", work: "this pair" };

/** Pairs of a lane asked at once: each is a job any free worker scores, so a lane's pairs need not wait on each other. */
export const PAIRS_AT_ONCE = 4;

/** The run's owner, who owns the job (owners take turns at the claim): the first folder under screenshots/ (files.ts). */
const ownerOf = (key: string) => key.split("/")[1]!;

export function jobAnalyser(deps: AskDeps): Analyser {
  const jobs = asker(deps, WORDS);
  let closed = false;
  return {
    concurrency: PAIRS_AT_ONCE,
    async scorePair(aKey: string, aExtraction: Extraction, bKey: string, bExtraction: Extraction): Promise<PairScores> {
      if (closed) throw new Error("analyser is closed");
      for (const key of [aKey, bKey]) if (!isScreenshotKey(key)) throw new Error(`not a stored screenshot: ${key}`);
      const payload: PairPayload = {
        a: { key: aKey, extraction: scoredParts(aExtraction) },
        b: { key: bKey, extraction: scoredParts(bExtraction) },
      };
      const outcome = await jobs.ask(PAIR_KIND, ownerOf(aKey), payload);
      if ("reason" in outcome) throw new Error(outcome.reason);
      try {
        const stored = storedResultSchema.parse(JSON.parse(outcome.row.result));
        if (stored.kind === "scored") return stored.scores;
        throw new Error(stored.kind === "failed" ? stored.reason : `The scoring worker answered with a ${stored.kind}`);
      } finally {
        await jobs.letGo(outcome.row);
      }
    },
    // The worker that captured a page keeps its thumbnail (stored-copies.ts): nothing to hand over from here.
    prime() {},
    close() {
      closed = true;
    },
  };
}
