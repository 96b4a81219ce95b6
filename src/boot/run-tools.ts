// The parts of a run's tools this process provides itself: its capture pool, its analyser and the
// findings step (rules, then the language model when LLM_* configures one). The server and the
// `check` command wire the same ones, so `check` reports what the product would.
import type { Env } from "#server/env";
import { createFindingsStep, llmConfigFromEnv, type Analyser } from "#server/modules/analysis";
import type { CapturePool } from "#server/modules/capture/browser/pool";
import { createStepSessions } from "#server/modules/capture/public";
import type { RunTools } from "#server/modules/comparisons/active-runs";

export function poolRunTools(pool: CapturePool, analyser: Analyser, env: Env, log: (msg: string, err?: unknown) => void): RunTools {
  return {
    capture: (ownerId, job, onStage) => pool.submit(ownerId, job, onStage),
    time: (ownerId, job) => pool.submitTiming(ownerId, job),
    // A site's login runs once a run, its session shared by the site's other pages.
    stepSessions: createStepSessions,
    analyser,
    findingsFor: createFindingsStep({ llm: llmConfigFromEnv(env), log }),
  };
}
