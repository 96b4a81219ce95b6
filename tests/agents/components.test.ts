import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { COMPONENT_KINDS, buildComponent, type VariantLabel } from "#server/modules/agents/logic/component-templates";
import { DEFAULT_SOURCE_LABEL, DEFAULT_TOKENS, tokensFromExtraction, type DesignTokens } from "#server/modules/agents/logic/design-tokens";
import { printTsx, renderSpec } from "#server/modules/agents/logic/jsx-tree";
import { makeExtraction } from "./fixtures";

// Inside the repository so the generated files resolve `react` like any app file would.
const dir = join(import.meta.dir, `.generated-${process.pid}`);
mkdirSync(dir, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hostile = makeExtraction({
  url: "https://evil.example/",
  font: 'Evil"}); alert(1); //\n<script>',
  accent: "javascript:alert(1)",
  background: "#000000",
  textColor: "#0a0a0a", // unreadable on black: must be replaced
  radiusPx: 9999,
  spacingPx: -40,
});
hostile.elements.ctas[0]!.fg = "red; background:url(x)";

const SOURCES: { tokens: DesignTokens; host: string | null; label: string }[] = [
  { tokens: DEFAULT_TOKENS, host: null, label: DEFAULT_SOURCE_LABEL },
  {
    tokens: tokensFromExtraction(makeExtraction({ url: "https://acme.example/", accent: "#e11d48", font: "Poppins", isDark: true })),
    host: "acme.example",
    label: "acme.example",
  },
  { tokens: tokensFromExtraction(hostile), host: "9lives.example", label: 'evil.example"*/' },
];

const generated = SOURCES.flatMap((s) =>
  COMPONENT_KINDS.flatMap((kind) =>
    (["A", "B"] as VariantLabel[]).map((variant) => {
      const built = buildComponent({
        kind,
        variant,
        tokens: s.tokens,
        sourceHost: s.host,
        sourceLabel: s.label,
        capturedAt: "2025-01-01T00:00:00.000Z",
      });
      return { built, code: printTsx(built.spec), preview: renderSpec(built.spec) };
    }),
  ),
);

describe("DesignNinja's generated TSX", () => {
  test("hostile tokens are neutralised before they reach the source", () => {
    const t = tokensFromExtraction(hostile);
    expect(t.fontFamily).toBe('"Evil alert1 script", system-ui, sans-serif');
    expect(t.primary).toMatch(/^#[0-9a-f]{6}$/);
    expect(t.onPrimary).toMatch(/^#[0-9a-f]{6}$/);
    expect(t.radius).toBe(32);
    expect(t.space).toBe(8);
    expect(t.text).not.toBe("#0a0a0a");
    for (const g of generated) {
      expect(g.code).not.toContain("alert(1)");
      expect(g.code).not.toContain("<script>");
      expect(g.code).not.toContain("*/");
    }
  });

  test("every generated file transpiles", () => {
    const transpiler = new Bun.Transpiler({ loader: "tsx" });
    for (const g of generated) expect(() => transpiler.transformSync(g.code)).not.toThrow();
    expect(generated).toHaveLength(SOURCES.length * COMPONENT_KINDS.length * 2);
  });

  test("every generated file runs and renders exactly its stored preview", async () => {
    for (const [i, g] of generated.entries()) {
      const file = join(dir, `${i}-${g.built.fileName}`);
      writeFileSync(file, g.code);
      const mod = (await import(file)) as { default: (p: object) => unknown };
      expect(typeof mod.default).toBe("function");
      expect(renderToStaticMarkup(createElement(mod.default as never, {}))).toBe(g.preview);
    }
  });

  test("every generated file type-checks under strict TypeScript", () => {
    const files = generated.map((g, i) => {
      const file = join(dir, `tc-${i}-${g.built.fileName}`);
      writeFileSync(file, g.code);
      return file;
    });
    const proc = Bun.spawnSync(
      [
        "bunx",
        "tsc",
        "--ignoreConfig",
        "--noEmit",
        "--strict",
        "--jsx",
        "react-jsx",
        "--module",
        "preserve",
        "--moduleResolution",
        "bundler",
        "--target",
        "esnext",
        "--skipLibCheck",
        "--types",
        "react",
        ...files,
      ],
      { cwd: join(import.meta.dir, "../.."), stdout: "pipe", stderr: "pipe" },
    );
    const out = proc.stdout.toString() + proc.stderr.toString();
    expect(out).toBe("");
    expect(proc.exitCode).toBe(0);
  });

  test("a broken file is caught by the compile check", async () => {
    const { compiles } = await import("#server/modules/agents/loop/design-ninja");
    expect(compiles(generated[0]!.code)).toBe(true);
    expect(compiles(generated[0]!.code.replace("</div>", "</span>"))).toBe(false);
  });
});
