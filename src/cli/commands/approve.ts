// `design-intel approve --config FILE`: the captures the last `check` kept become your page's new
// visual baseline (as Backstop's approve), so an intended change stops failing the build.
import { existsSync, rmSync } from "node:fs";
import { parseFlags, UsageError } from "../args";
import { captureFiles, DEFAULT_BASELINE_DIR, DEFAULT_RESULTS_DIR, readCapture, writeCapture } from "../check/baseline-files";
import { ConfigError, parseConfig } from "../check/config";

export const APPROVE_HELP = `Usage: design-intel approve --config FILE [--baseline-dir DIR] [--results-dir DIR]

Makes the captures of your page that the last design-intel check kept (in the results
directory) the new visual baseline, for every viewport in the config. Commit the baseline
directory afterwards.

  --config FILE       The config the check ran with (default design-intel.json)
  --baseline-dir DIR  The baseline to replace (default ${DEFAULT_BASELINE_DIR})
  --results-dir DIR   Where the check kept its captures (default ${DEFAULT_RESULTS_DIR})`;

export async function approveCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const flags = parseFlags("approve", argv, {
    config: { type: "string" },
    "baseline-dir": { type: "string" },
    "results-dir": { type: "string" },
  });
  if (flags.help) return (out(APPROVE_HELP), 0);
  const path = flags.config ?? "design-intel.json";
  if (!existsSync(path)) throw new UsageError(`approve: --config ${path} does not exist`);
  let config;
  try {
    config = parseConfig(await Bun.file(path).text(), path);
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(`approve: ${e.message}`);
    throw e;
  }
  const baselineDir = flags["baseline-dir"] ?? DEFAULT_BASELINE_DIR;
  const resultsDir = flags["results-dir"] ?? DEFAULT_RESULTS_DIR;
  const { label, url } = config.site;
  // Every viewport is checked before anything is written: a half-approved baseline would pass one
  // viewport against captures of another run.
  const captures = config.viewports.map((viewport) => {
    const current = readCapture(resultsDir, label, viewport);
    if (!current?.note)
      throw new UsageError(
        `approve: no capture of ${label} (${viewport}) in ${resultsDir}; run design-intel check with a visual budget first`,
      );
    if (current.note.url !== url)
      throw new UsageError(
        `approve: the capture of ${label} (${viewport}) in ${resultsDir} is of ${current.note.url}, not ${url}; run design-intel check first`,
      );
    return { viewport, current };
  });
  for (const { viewport, current } of captures) {
    const written = writeCapture(baselineDir, current.note!, current.png);
    // The diff was against the baseline just replaced.
    rmSync(captureFiles(resultsDir, label, viewport).diff, { force: true });
    out(`approved ${label} (${viewport}): ${written.png}`);
  }
  return 0;
}
