// `design-intel check --config design-intel.json`: runs the comparison in-process and holds the
// site to its budgets. Exit 0: every budget holds; 1: one failed; 2: the check could not be made.
import { existsSync, writeFileSync } from "node:fs";
import { EnvError, loadEnv } from "#server/env";
import { parseFlags } from "../args";
import { evaluateBudgets } from "../check/budgets";
import { ConfigError, configJsonSchema, parseConfig } from "../check/config";
import { CheckRunError, runInProcess } from "../check/in-process";
import { runOnServer } from "../check/remote";
import { type CheckSummary, renderJunit, renderMarkdown, renderTable } from "../check/outputs";
import { UsageError } from "../args";

export const CHECK_HELP = `Usage: design-intel check --config FILE [--json FILE] [--junit FILE] [--markdown FILE]
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
  --print-schema    Print the config's JSON Schema and exit

Budgets (per viewport, on your site):
  lcpMs, fcpMs, cls, lowContrast, imagesWithoutAlt, inputsWithoutLabel: { "max": number }
  lcpMs.maxVsBestCompetitor: your LCP over the fastest competitor's (1.2 = 20 % slower at most)
  rank.lcpMs.max, rank.bodyContrast.max: your place among the set (1 = best)
  similarity.<competitor label>.max / .min: overall similarity 0..1 to that competitor "viewports" picks the captures the budgets
apply to (the engine captures desktop and mobile either way).`;

/** A check that cannot be made exits 2, like a usage error, but is reported as what it is. */
export class CheckError extends Error {
  override name = "CheckError";
}

export async function checkCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const flags = parseFlags("check", argv, {
    config: { type: "string" },
    json: { type: "string" },
    junit: { type: "string" },
    markdown: { type: "string" },
    server: { type: "string" },
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
    if (!URL.canParse(flags.server) || !/^https?:$/.test(new URL(flags.server).protocol)) throw new UsageError(`check: --server expects an http(s) URL`);
    if (!key) throw new UsageError("check: --server needs an API key (a run key) in DESIGN_INTEL_API_KEY");
  }
  let report;
  try {
    report = flags.server !== undefined ? await runOnServer(config, flags.server, key!) : await runInProcess(config, env);
  } catch (e) {
    if (e instanceof CheckRunError) throw new CheckError(e.message);
    throw e;
  }
  const results = evaluateBudgets(config, report);
  const summary: CheckSummary = { site: config.site, competitors: config.competitors, results, durationMs: performance.now() - started };
  out(renderTable(summary));
  if (flags.json) writeFileSync(flags.json, JSON.stringify({ ...summary, report }, null, 2) + "\n");
  if (flags.junit) writeFileSync(flags.junit, renderJunit(summary));
  if (flags.markdown) writeFileSync(flags.markdown, renderMarkdown(summary));
  return results.every((r) => r.pass) ? 0 : 1;
}
