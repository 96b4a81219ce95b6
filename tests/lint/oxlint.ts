// Runs the repository's oxlint (the npm devDependency, its native binary and our JS plugin) and
// returns its diagnostics as plain records, so tests can say exactly which rule fired where.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "../..");
const OXLINT = join(ROOT, "node_modules/.bin/oxlint");

export interface Diagnostic {
  file: string;
  line: number;
  rule: string;
  message: string;
}

interface OxlintJson {
  diagnostics: { message: string; code: string; filename: string; labels?: { span: { line: number } }[] }[];
}

/** `oxlint -f json` from the repository root, with the given extra arguments. */
export async function oxlint(args: string[]): Promise<Diagnostic[]> {
  const proc = Bun.spawn([OXLINT, "-f", "json", ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  let parsed: OxlintJson;
  try {
    parsed = JSON.parse(out) as OxlintJson;
  } catch {
    throw new Error(`oxlint exited ${code} without a JSON report.\nstdout: ${out}\nstderr: ${err}`);
  }
  return parsed.diagnostics.map((d) => ({
    file: d.filename,
    line: d.labels?.[0]?.span.line ?? 0,
    rule: d.code,
    message: d.message,
  }));
}

/**
 * The repository's own rule settings for the design-intel plugin, as a config file that lints
 * whatever path it is given (the repository config ignores the fixtures on purpose).
 */
export function pluginOnlyConfig(): { path: string; dispose(): void } {
  const text = readFileSync(join(ROOT, ".oxlintrc.json"), "utf8").replace(/^\s*\/\/.*$/gm, "");
  const config = JSON.parse(text) as { rules: Record<string, unknown> };
  const rules = Object.fromEntries(Object.entries(config.rules).filter(([name]) => name.startsWith("design-intel/")));
  const dir = mkdtempSync(join(tmpdir(), "oxlint-config-"));
  const path = join(dir, "oxlintrc.json");
  writeFileSync(
    path,
    JSON.stringify({ jsPlugins: [join(ROOT, "scripts/lint/boundaries-plugin.js")], categories: { correctness: "off" }, rules }),
  );
  return { path, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export const describeDiagnostic = (d: Diagnostic) => `${d.file}:${d.line} ${d.rule}: ${d.message}`;
