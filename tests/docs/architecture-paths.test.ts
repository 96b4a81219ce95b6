// docs/architecture.md walks a newcomer through the code by file path, so every path it names must
// exist: a path in backticks, or a link target, that starts at one of the repository's top-level
// folders (src/, web/, tests/, bench/, scripts/, docs/, migrations/), and every relative link
// resolved from docs/. Placeholders (`src/modules/<m>/`, `*.worker.ts`) are patterns, not paths.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const ROOT = normalize(join(import.meta.dir, "..", ".."));
const DOC = "docs/architecture.md";
const ROOTS = ["src/", "web/", "tests/", "bench/", "scripts/", "docs/", "migrations/"];

/** Repository paths (relative to the root) that a markdown text names. */
export function namedPaths(markdown: string, docPath: string): string[] {
  // Fenced blocks are drawings (the ASCII run, mermaid): their words are not links.
  const text = markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, "");
  const found = new Set<string>();
  const add = (candidate: string, base: "root" | "doc") => {
    const path = candidate
      .trim()
      .replace(/[#?].*$/, "")
      .replace(/[.,;:)]+$/, "");
    if (!path || /[<>*{}…\s]/.test(path) || /^[a-z]+:/i.test(path)) return;
    const fromRoot = base === "root" ? path : relative(ROOT, join(ROOT, dirname(docPath), path));
    if (fromRoot.startsWith("..")) return;
    found.add(fromRoot);
  };
  for (const [, span] of text.matchAll(/`([^`\n]+)`/g)) {
    if (ROOTS.some((r) => span!.startsWith(r))) add(span!, "root");
  }
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (ROOTS.some((r) => target!.startsWith(r))) add(target!, "root");
    else if (!target!.startsWith("#") && !/^[a-z]+:/i.test(target!)) add(target!, "doc");
  }
  return [...found].sort();
}

const paths = namedPaths(readFileSync(join(ROOT, DOC), "utf8"), DOC);
const missing = paths.filter((p) => !existsSync(join(ROOT, p)));

describe(`${DOC} names only paths that exist`, () => {
  test("it names the files a run goes through", () => {
    expect(paths.length).toBeGreaterThan(20);
    expect(paths).toContain("src/live/hub.ts");
  });

  test("every named path exists", () => {
    if (missing.length > 0) {
      throw new Error(`${DOC} names ${missing.length} of ${paths.length} paths that do not exist:\n  ${missing.join("\n  ")}`);
    }
  });

  // One line per path, so a failure shows which ones hold.
  test.each(paths)("%s", (path) => {
    expect(existsSync(join(ROOT, path))).toBe(true);
  });
});

describe("path extraction", () => {
  test("backticked and linked repository paths, relative links from the doc's folder; patterns and drawings left out", () => {
    const md = [
      "The route is `src/modules/comparisons/index.ts`, see [0005](decisions/0005-run-state-machine.md)",
      "and [the bench](bench/analysis.bench.ts#L3), [perf](performance.md#api), [site](https://example.com/src/x.ts).",
      "Patterns: `src/modules/<m>/`, `*.worker.ts`; a command `bun bench/x.ts`; an anchor [a](#here).",
      "```",
      "`src/not/a/link.ts` inside a drawing",
      "```",
    ].join("\n");
    expect(namedPaths(md, "docs/architecture.md")).toEqual([
      "bench/analysis.bench.ts",
      "docs/decisions/0005-run-state-machine.md",
      "docs/performance.md",
      "src/modules/comparisons/index.ts",
    ]);
  });
});
