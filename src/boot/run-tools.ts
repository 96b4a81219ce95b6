// The parts of a run's tools a process provides: how pages are captured and timed (its own capture
// pool, or capture jobs a worker claims), its analyser and the findings step (rules, then the
// language model when LLM_* configures one). The server and the `check` command wire the same
// ones, so `check` reports what the product would.
import type { Env } from "#server/env";
import { createFindingsStep, llmConfigFromEnv, type Analyser } from "#server/modules/analysis";
import type { CapturePool } from "#server/modules/capture/browser/pool";
import { createStepSessions } from "#server/modules/capture/public";
import type { RunTools } from "#server/modules/comparisons/active-runs";

/** How a run's pages are captured and timed. */
export type CaptureTools = Required<Pick<RunTools, "capture" | "time">>;

/** Captures and timings by this process's own browsers. */
export function poolCaptureTools(pool: CapturePool): CaptureTools {
  return {
    capture: (ownerId, job, onStage) => pool.submit(ownerId, job, onStage),
    time: (ownerId, job) => pool.submitTiming(ownerId, job),
  };
}

export function runToolsWith(capture: CaptureTools, analyser: Analyser, env: Env, log: (msg: string, err?: unknown) => void): RunTools {
  return {
    ...capture,
    // A site's login runs once a run, its session shared by the site's other pages.
    stepSessions: createStepSessions,
    analyser,
    findingsFor: createFindingsStep({ llm: llmConfigFromEnv(env), log }),
  };
}

export function poolRunTools(pool: CapturePool, analyser: Analyser, env: Env, log: (msg: string, err?: unknown) => void): RunTools {
  return runToolsWith(poolCaptureTools(pool), analyser, env, log);
}
