// The real run tools for a test file: the capture pool drives system Chromium against the
// fixture sites on 127.0.0.1, the analyse worker scores, the rules write findings, and a DATA_DIR of
// the file's own holds the screenshots. One per file (its beforeAll/afterAll are registered here),
// shared by the file's tests: Chromium and the worker start once.
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AppDeps } from "#server/app";
import { findChromium } from "#server/lib/chromium";
import { createAnalyser, createFindingsStep, type Analyser } from "#server/modules/analysis";
import { CapturePool } from "#server/modules/capture/browser/pool";
import { startFixtureServer, type FixtureServer } from "./fixture-server";
import { TEST_TIMING_SAMPLES } from "./server";

type RunTools = NonNullable<AppDeps["runTools"]>;

export interface RealRunTools {
  readonly dataDir: string;
  readonly fixtures: FixtureServer;
  readonly pool: CapturePool;
  readonly analyser: Analyser;
  /** What the capture pool logged (its workers' errors and warnings), as tests may need to read it. */
  readonly poolLog: readonly string[];
  /** What makeTestApp takes as runTools: this pool and analyser, fresh findings rules, plus `extra` (publish, recordActivity). */
  runTools(extra?: Partial<RunTools>): RunTools;
}

/** Registers the file's hooks; the fields are there from its beforeAll on. */
export function useRealRunTools(name: string): RealRunTools {
  let dataDir = "";
  let fixtures: FixtureServer | undefined;
  let pool: CapturePool | undefined;
  let analyser: Analyser | undefined;
  const poolLog: string[] = [];

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), `di-${name}-`));
    fixtures = startFixtureServer();
    pool = new CapturePool({
      // One browser: a second (a worker and a Chromium, over a CPU-second to start) only overlapped
      // a run's few pages, on a machine whose two cores the other test files keep busy.
      concurrency: 1,
      chromiumPath: findChromium(process.env.CHROMIUM_PATH),
      allowPrivate: true,
      timingSamples: Number(TEST_TIMING_SAMPLES),
      log: (m) => (poolLog.push(m), console.warn(m)),
    });
    analyser = createAnalyser();
  });

  afterAll(async () => {
    analyser?.close();
    await pool?.close();
    await fixtures?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const started = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error("the real run tools are used before their beforeAll ran");
    return v;
  };
  return {
    get dataDir() {
      return started(dataDir || undefined);
    },
    get fixtures() {
      return started(fixtures);
    },
    get pool() {
      return started(pool);
    },
    get analyser() {
      return started(analyser);
    },
    poolLog,
    runTools(extra = {}) {
      const p = started(pool);
      return {
        capture: (owner, job, onStage) => p.submit(owner, job, onStage),
        analyser: started(analyser),
        findingsFor: createFindingsStep(),
        ...extra,
      };
    },
  };
}
