// `design-intel check --config design-intel.json`: runs the comparison in-process and holds the
// site to its budgets. Exit 0: every budget holds; 1: one failed; 2: the check could not be made.
import { existsSync, writeFileSync } from "node:fs";
import { EnvError, loadEnv } from "#server/env";
import { parseFlags } from "../args";
import { evaluateBudgets, verdict } from "../check/budgets";
import { DEFAULT_BASELINE_DIR, DEFAULT_RESULTS_DIR } from "../check/baseline-files";
import { ConfigError, configJsonSchema, parseConfig } from "../check/config";
import { openIgnoreLocator } from "../check/ignore-selectors";
import { runInProcess } from "../check/in-process";
import { runOnServer } from "../check/remote";
import { type CheckSummary, renderJunit, renderMarkdown, renderTable } from "../check/outputs";
import { CheckRunError } from "../check/run";
import { compareWithBaseline } from "../check/visual";
import { UsageError } from "../args";

export const CHECK_HELP = `Usage: design-intel check --config FILE [--server URL] [--json FILE] [--junit FILE] [--markdown FILE]
                         [--baseline-dir DIR] [--results-dir DIR]
       design-intel check --print-schema

Captures your site and its competitors (in this process, with a temporary data directory,
or on a server with --server)
and checks the budgets in the config. Prints a table; exit 0 when every budget holds,
1 when one fails, 2 when the check could not be made (bad config, a page unreachable).

  --config FILE     The config (default design-intel.json)
  --server URL      Run the comparison on that Design Intel server instead, with the
                    run-scoped API key in DESIGN_INTEL_API_KEY (the run stays in your list)
  --json FILE       Write the full results (budgets and the comparison report)
  --junit FILE      Write a JUnit file: one testcase per budget and viewport
  --markdown FILE   Write a Markdown summary (a pull-request comment or job summary)
  --baseline-dir DIR  Your page's visual baseline, one PNG per viewport, meant to be committed
                    (default ${DEFAULT_BASELINE_DIR}); the first run with a visual budget writes it
  --results-dir DIR The run's captures and its *.diff.png images (default ${DEFAULT_RESULTS_DIR});
                    design-intel approve makes these captures the new baseline
  --print-schema    Print the config's JSON Schema and exit

Budgets (per viewport, on your site):
  lcpMs, fcpMs, cls, lowContrast, imagesWithoutAlt, inputsWithoutLabel, accessibilityViolations,
  failedRequests: { "max": number }   (the accessibility counts come from axe-core's audit)
  lcpMs.maxVsBestCompetitor: your LCP over the fastest competitor's (1.2 = 20 % slower at most)
  rank.lcpMs.max, rank.bodyContrast.max: your place among the set (1 = best)
  similarity.<competitor label>.max / .min: overall similarity 0..1 to that competitor
  visual.maxChangedShare: share 0..1 of your page's pixels changed against the baseline, with
    the config's "ignore": { "selectors": [...], "regions": [{ x, y, width, height }] } masked out
"viewports" picks the captures the budgets apply to (the engine captures desktop and mobile either way).`;

/** A check that cannot be made exits 2, like a usage error, but is reported as what it is. */
export class CheckError extends Error {
  override name = "CheckError";
}

/** A page that could not be checked is a CheckError (exit 2, one line); anything else is a bug. */
const named = (e: unknown) => (e instanceof CheckRunError ? new CheckError(e.message) : e);

export async function checkCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const flags = parseFlags("check", argv, {
    config: { type: "string" },
    json: { type: "string" },
    junit: { type: "string" },
    markdown: { type: "string" },
    server: { type: "string" },
    "baseline-dir": { type: "string" },
    "results-dir": { type: "string" },
    "print-schema": { type: "boolean" },
  });
  if (flags.help) return (out(CHECK_HELP), 0);
  if (flags["print-schema"]) return (out(JSON.stringify(configJsonSchema(), null, 2)), 0);
  const started = performance.now();
  const path = flags.config ?? "design-intel.json";
  if (!existsSync(path)) throw new UsageError(`check: --config ${path} does not exist`);
  let config;
  let env;
  try {
    config = parseConfig(await Bun.file(path).text(), path);
    env = loadEnv();
  } catch (e) {
    if (e instanceof ConfigError || e instanceof EnvError) throw new CheckError(e.message);
    throw e;
  }
  process.umask(0o077);
  const key = process.env.DESIGN_INTEL_API_KEY;
  if (flags.server !== undefined) {
    if (!URL.canParse(flags.server) || !/^https?:$/.test(new URL(flags.server).protocol))
      throw new UsageError(`check: --server expects an http(s) URL`);
    if (!key) throw new UsageError("check: --server needs an API key (a run key) in DESIGN_INTEL_API_KEY");
  }
  const visualOn = config.budgets.visual !== undefined;
  // The ignore selectors' browser starts first and checks their syntax, so a typo costs no run;
  // then it locates them while the comparison runs. Both are waited for, so a failure of one never
  // leaves the other (its browser, its temp dir) behind.
  const locator = visualOn
    ? await openIgnoreLocator(config.ignore.selectors, env.CHROMIUM_PATH).catch((e: unknown) => {
        throw named(e);
      })
    : null;
  const [ran, located] = await Promise.allSettled([
    flags.server !== undefined ? runOnServer(config, flags.server, key!) : runInProcess(config, env),
    locator ? locator.locate(config.site.url, config.viewports) : Promise.resolve(new Map()),
  ]);
  await locator?.close();
  if (ran.status === "rejected") throw named(ran.reason);
  if (located.status === "rejected") throw named(located.reason);
  const run = ran.value;
  const selectorBoxes = located.value;
  const { report } = run;
  const results = evaluateBudgets(config, report);
  const visual = visualOn
    ? compareWithBaseline({
        config,
        screenshots: run.screenshots,
        selectorBoxes,
        baselineDir: flags["baseline-dir"] ?? DEFAULT_BASELINE_DIR,
        resultsDir: flags["results-dir"] ?? DEFAULT_RESULTS_DIR,
      })
    : [];
  const limit = config.budgets.visual?.maxChangedShare;
  if (limit !== undefined)
    for (const vp of config.viewports)
      results.push(verdict("visual.maxChangedShare", vp, visual.find((v) => v.viewport === vp)?.changedShare ?? null, limit, "max"));
  const summary: CheckSummary = {
    site: config.site,
    competitors: config.competitors,
    results,
    visual,
    durationMs: performance.now() - started,
  };
  out(renderTable(summary));
  if (flags.json) writeFileSync(flags.json, JSON.stringify({ ...summary, report }, null, 2) + "\n");
  if (flags.junit) writeFileSync(flags.junit, renderJunit(summary));
  if (flags.markdown) writeFileSync(flags.markdown, renderMarkdown(summary));
  return results.every((r) => r.pass) ? 0 : 1;
}
