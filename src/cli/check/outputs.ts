// What `check` reports: a table for the log, JUnit for CI test views, Markdown for a PR comment.
import type { BudgetResult } from "./budgets";

export interface CheckSummary {
  site: { label: string; url: string };
  competitors: { label: string; url: string }[];
  results: BudgetResult[];
  durationMs: number;
}

const shown = (v: number | null) => (v === null ? "not measured" : String(v));
const verdict = (r: BudgetResult) => (r.pass ? "pass" : "FAIL");

export function renderTable(s: CheckSummary): string {
  const rows = [["budget", "viewport", "value", "limit", "result"], ...s.results.map((r) => [r.budget, r.viewport, shown(r.value), String(r.limit), verdict(r)])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  const failed = s.results.filter((r) => !r.pass).length;
  const head = `${s.site.label} (${s.site.url})${s.competitors.length ? ` vs ${s.competitors.map((c) => c.label).join(", ")}` : ""}`;
  const tail = s.results.length === 0 ? "no budgets configured" : failed ? `${failed} of ${s.results.length} budgets failed` : `all ${s.results.length} budgets hold`;
  return [head, "", line(rows[0]!), ...rows.slice(1).map(line), "", `${tail} (${(s.durationMs / 1000).toFixed(1)} s)`].join("\n");
}

const xml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

/** One testcase per budget and viewport; a failure carries the measured value and the limit. */
export function renderJunit(s: CheckSummary): string {
  const failures = s.results.filter((r) => !r.pass).length;
  const cases = s.results.map((r) => {
    const open = `    <testcase classname="design-intel.${xml(s.site.label)}" name="${xml(`${r.budget} (${r.viewport})`)}">`;
    if (r.pass) return `${open}</testcase>`;
    const message = `${r.budget} (${r.viewport}): ${shown(r.value)} ${r.bound === "max" ? ">" : "<"} ${r.limit}`;
    return `${open}\n      <failure message="${xml(message)}" type="budget">value: ${xml(shown(r.value))}\nlimit: ${r.limit}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="design-intel check" tests="${s.results.length}" failures="${failures}" time="${(s.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${xml(s.site.label)} budgets" tests="${s.results.length}" failures="${failures}" errors="0">`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}

const md = (s: string) => s.replace(/[|\\`*_[\]<>]/g, (c) => `\\${c}`);

export function renderMarkdown(s: CheckSummary): string {
  const failed = s.results.filter((r) => !r.pass);
  const title = failed.length ? `❌ Design Intel: ${failed.length} of ${s.results.length} budgets failed` : `✅ Design Intel: all ${s.results.length} budgets hold`;
  const rows = s.results.map((r) => `| ${md(r.budget)} | ${r.viewport} | ${md(shown(r.value))} | ${r.limit} | ${r.pass ? "✅ pass" : "❌ fail"} |`);
  return [
    `### ${title}`,
    "",
    `Site: **${md(s.site.label)}** (${md(s.site.url)})${s.competitors.length ? ` · competitors: ${s.competitors.map((c) => md(c.label)).join(", ")}` : ""}`,
    "",
    "| Budget | Viewport | Value | Limit | Result |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}
