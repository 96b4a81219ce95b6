// What `check` reports: a table for the log, JUnit for CI test views, Markdown for a PR comment.
import type { BudgetResult } from "./budgets";
import type { VisualResult } from "./visual";

export interface CheckSummary {
  site: { label: string; url: string };
  competitors: { label: string; url: string }[];
  results: BudgetResult[];
  /** Your page against its visual baseline, per viewport (empty without a visual budget). */
  visual: VisualResult[];
  durationMs: number;
}

const percent = (share: number) => `${(share * 100).toFixed(share >= 0.1 ? 0 : 2)} %`;

/** One line per viewport on what the visual diff did: where the baseline went, or what changed and where to look. */
function visualNotes(s: CheckSummary): string[] {
  return s.visual.map((v) => {
    if (v.baselineWritten) return `visual (${v.viewport}): no baseline yet; this capture is now the baseline (${v.baseline})`;
    const masked = v.masked ? `, ${v.masked} masked` : "";
    if (!v.diff) return `visual (${v.viewport}): unchanged against ${v.baseline}${masked}`;
    return `visual (${v.viewport}): ${percent(v.changedShare)} changed in ${v.regions.length} region${v.regions.length === 1 ? "" : "s"}${masked}; diff image ${v.diff}`;
  });
}

const shown = (v: number | null) => (v === null ? "not measured" : String(v));
const verdict = (r: BudgetResult) => (r.pass ? "pass" : "FAIL");

export function renderTable(s: CheckSummary): string {
  const rows = [
    ["budget", "viewport", "value", "limit", "result"],
    ...s.results.map((r) => [r.budget, r.viewport, shown(r.value), String(r.limit), verdict(r)]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  const failed = s.results.filter((r) => !r.pass).length;
  const head = `${s.site.label} (${s.site.url})${s.competitors.length ? ` vs ${s.competitors.map((c) => c.label).join(", ")}` : ""}`;
  const tail =
    s.results.length === 0
      ? "no budgets configured"
      : failed
        ? `${failed} of ${s.results.length} budgets failed`
        : `all ${s.results.length} budgets hold`;
  const notes = visualNotes(s);
  return [
    head,
    "",
    line(rows[0]!),
    ...rows.slice(1).map(line),
    "",
    ...(notes.length ? [...notes, ""] : []),
    `${tail} (${(s.durationMs / 1000).toFixed(1)} s)`,
  ].join("\n");
}

const xml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

/** One testcase per budget and viewport; a failure carries the measured value and the limit. */
export function renderJunit(s: CheckSummary): string {
  const failures = s.results.filter((r) => !r.pass).length;
  const cases = s.results.map((r) => {
    const open = `    <testcase classname="design-intel.${xml(s.site.label)}" name="${xml(`${r.budget} (${r.viewport})`)}">`;
    if (r.pass) return `${open}</testcase>`;
    const message = `${r.budget} (${r.viewport}): ${shown(r.value)} ${r.bound === "max" ? ">" : "<"} ${r.limit}`;
    const diff = r.budget.startsWith("visual.") ? s.visual.find((v) => v.viewport === r.viewport)?.diff : null;
    const body = `value: ${xml(shown(r.value))}\nlimit: ${r.limit}${diff ? `\ndiff image: ${xml(diff)}` : ""}`;
    return `${open}\n      <failure message="${xml(message)}" type="budget">${body}</failure>\n    </testcase>`;
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
  const title = failed.length
    ? `❌ Design Intel: ${failed.length} of ${s.results.length} budgets failed`
    : `✅ Design Intel: all ${s.results.length} budgets hold`;
  const rows = s.results.map(
    (r) => `| ${md(r.budget)} | ${r.viewport} | ${md(shown(r.value))} | ${r.limit} | ${r.pass ? "✅ pass" : "❌ fail"} |`,
  );
  return [
    `### ${title}`,
    "",
    `Site: **${md(s.site.label)}** (${md(s.site.url)})${s.competitors.length ? ` · competitors: ${s.competitors.map((c) => md(c.label)).join(", ")}` : ""}`,
    "",
    "| Budget | Viewport | Value | Limit | Result |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
    ...visualNotes(s).map((n) => `- ${md(n)}`),
    ...(s.visual.length ? [""] : []),
  ].join("\n");
}
