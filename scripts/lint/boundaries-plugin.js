// Design Intel's architecture rules as an oxlint JS plugin. oxlint parses TypeScript natively;
// these rules resolve each import (relative paths and tsconfig `paths` aliases) to a repository
// file and judge where it may point. Why oxlint and these rules: docs/decisions/0007-lint-boundaries.md.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const EXTENSIONS = ["", ".ts", ".tsx", ".js", "/index.ts", "/index.tsx"];
/** Files a server module offers to the others; anything else is its own business. */
const PUBLIC_MODULE_FILES = new Set(["index.ts", "model.ts", "public.ts"]);

function readAliases() {
  try {
    // tsconfig.json is JSON with comments at most; strip line comments that start a line.
    const text = readFileSync(path.join(ROOT, "tsconfig.json"), "utf8").replace(/^\s*\/\/.*$/gm, "");
    const paths = JSON.parse(text).compilerOptions?.paths ?? {};
    return Object.entries(paths).map(([alias, targets]) => ({
      prefix: alias.replace(/\*$/, ""),
      target: String(targets[0]).replace(/\*$/, ""),
    }));
  } catch {
    return [];
  }
}
const aliases = readAliases();

/** The repository-relative file an import points at, or null for packages. */
function resolve(fromFile, specifier) {
  let base = null;
  if (specifier.startsWith(".")) base = path.resolve(path.dirname(fromFile), specifier);
  else {
    const alias = aliases.find((a) => specifier.startsWith(a.prefix));
    if (alias) base = path.resolve(ROOT, alias.target + specifier.slice(alias.prefix.length));
  }
  if (!base) return null;
  const found = EXTENSIONS.map((ext) => base + ext).find((p) => existsSync(p) && !p.endsWith("/")) ?? base;
  return path.relative(ROOT, found).split(path.sep).join("/");
}

/** `import type {…}`, `import { type A, type B }`, `export type {…} from`: erased at build time. */
function isTypeOnly(node) {
  if (node.importKind === "type" || node.exportKind === "type") return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((s) => s.importKind === "type" || s.exportKind === "type");
}

function featureOf(file) {
  return /^web\/features\/([^/]+)\//.exec(file)?.[1] ?? null;
}
function moduleOf(file) {
  return /^src\/modules\/([^/]+)\//.exec(file)?.[1] ?? null;
}

/** Runs `check(from, to, node)` for every static import/re-export with a resolvable target. */
function onImports(context, check) {
  const from = path.relative(ROOT, context.filename).split(path.sep).join("/");
  const visit = (node) => {
    if (!node.source || typeof node.source.value !== "string") return;
    const to = resolve(context.filename, node.source.value);
    if (to) check(from, to, node);
  };
  return { ImportDeclaration: visit, ExportNamedDeclaration: visit, ExportAllDeclaration: visit, ImportExpression: visit };
}

export default {
  meta: { name: "design-intel" },
  rules: {
    "features-isolated": {
      meta: { type: "problem", docs: { description: "web/features/<a> does not import web/features/<b>" } },
      create: (context) =>
        onImports(context, (from, to, node) => {
          const a = featureOf(from);
          const b = featureOf(to);
          if (a && b && a !== b)
            context.report({
              node,
              message: `Feature "${a}" imports feature "${b}" (${to}). Features do not import each other: move the shared part to web/lib or web/components, or compose both in a route.`,
            });
        }),
    },
    "web-imports-server-types-only": {
      meta: { type: "problem", docs: { description: "web/ imports src/ only as types" } },
      create: (context) =>
        onImports(context, (from, to, node) => {
          // Tests beside web code never ship to the browser; they may use server values (defaults, fixtures).
          if (from.startsWith("web/") && !/\.test\.tsx?$/.test(from) && to.startsWith("src/") && !isTypeOnly(node))
            context.report({
              node,
              message: `web/ imports server code (${to}) as a value. The client may only import server types: use \`import type\`.`,
            });
        }),
    },
    "modules-through-public-files": {
      meta: { type: "problem", docs: { description: "src/modules/<a> uses src/modules/<b> only through its public files" } },
      create: (context) =>
        onImports(context, (from, to, node) => {
          const a = moduleOf(from);
          const b = moduleOf(to);
          if (!a || !b || a === b || isTypeOnly(node)) return;
          const rest = to.slice(`src/modules/${b}/`.length);
          if (!PUBLIC_MODULE_FILES.has(rest))
            context.report({
              node,
              message: `Module "${a}" reaches into module "${b}" (${to}). Import it through ${b}/index.ts, model.ts or public.ts.`,
            });
        }),
    },
  },
};
