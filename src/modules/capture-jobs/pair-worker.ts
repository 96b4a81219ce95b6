// The worker side of pair scoring: a JobRunner handler that takes an `analysis.pair` job, gets both
// stored screenshots as local copies (stored-copies.ts: kept from this worker's own captures, or
// fetched once), scores them on this process's analyser (the same scorePair an embedded install
// runs) and writes the scores as the job's answer.
import type { SqlDb } from "#server/db/sql";
import type { Analyser } from "#server/modules/analysis";
import type { Extraction } from "#server/modules/capture/model";
import { isScreenshotKey } from "#server/modules/comparisons/public";
import { GiveUp, type JobHandler, type JobHandlers } from "#server/modules/jobs/public";
import { answering } from "./answer";
import { PAIR_KIND, pairPayloadSchema } from "./model";
import { jobSealer } from "./seal";
import type { StoredCopies, StoredCopy } from "./stored-copies";

export interface PairWorkerDeps {
  db: SqlDb;
  analyser: Pick<Analyser, "scorePair">;
  copies: StoredCopies;
  /** The app secret: answers are written by the same code as the capture jobs' (nothing of a pair's is sealed). */
  secret: Uint8Array;
  now?: () => number;
  /** Wait after failed attempt n before another worker tries; default 1 s, 2 s. */
  backoff?: (attempt: number) => number;
  log?: (msg: string, err?: unknown) => void;
}

export function pairJobHandlers(deps: PairWorkerDeps): JobHandlers {
  const { answer, tell } = answering({ db: deps.db, sealer: jobSealer(deps.secret), now: deps.now ?? Date.now, log: deps.log });

  const score: JobHandler = {
    async run(raw, ctx) {
      const payload = pairPayloadSchema.safeParse(raw);
      if (!payload.success) throw new GiveUp(`The pair job's payload is not one: ${payload.error.issues[0]?.message ?? "invalid"}`);
      const { a, b } = payload.data;
      for (const key of [a.key, b.key]) if (!isScreenshotKey(key)) throw new GiveUp(`The pair job names no stored screenshot: ${key}`);
      const held: StoredCopy[] = [];
      try {
        for (const key of [a.key, b.key]) {
          const copy = await deps.copies.hold(key);
          // Removed since (its comparison deleted): no worker will find it.
          if (!copy) throw new GiveUp("A screenshot of the pair is no longer stored");
          held.push(copy);
        }
        // The parts of each extraction scoring reads (model.ts scoredParts): all scorePair looks at.
        const scores = await deps.analyser.scorePair(held[0]!.path, a.extraction as Extraction, held[1]!.path, b.extraction as Extraction);
        await answer(ctx, { kind: "scored", scores }, null);
      } finally {
        for (const copy of held) copy.release();
      }
    },
    backoff: deps.backoff ?? ((attempt: number) => 1_000 * attempt),
    dead: (job) => tell(job.id, { done: true }),
  };

  return { [PAIR_KIND]: score };
}
