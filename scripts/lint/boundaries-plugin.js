// Design Intel's architecture rules as an oxlint JS plugin. oxlint parses TypeScript natively;
// these rules resolve each import (relative paths and tsconfig `paths` aliases) to a project file
// and judge where it may point. Why oxlint and these rules: docs/decisions/0008-module-boundaries-and-lint.md.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const EXTENSIONS = ["", ".ts", ".tsx", ".js", "/index.ts", "/index.tsx"];
/** Files a server module offers to the others; anything else is its own business. */
const PUBLIC_MODULE_FILES = new Set(["index.ts", "model.ts", "public.ts"]);

/**
 * A project is the nearest folder up from a file that holds a tsconfig.json: the repository, or a
 * fixture tree under tests/lint/fixtures that has its own, so the rules can be proven on it.
 */
const projects = new Map();
function projectOf(file) {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (projects.has(dir)) return projects.get(dir);
    if (existsSync(path.join(dir, "tsconfig.json"))) {
      const project = { root: dir, aliases: readAliases(dir), resolved: new Map() };
      projects.set(dir, project);
      return project;
    }
    if (path.dirname(dir) === dir) return null;
  }
}

function readAliases(root) {
  try {
    // tsconfig.json is JSON with comments at most; strip line comments that start a line.
    const text = readFileSync(path.join(root, "tsconfig.json"), "utf8").replace(/^\s*\/\/.*$/gm, "");
    const paths = JSON.parse(text).compilerOptions?.paths ?? {};
    return Object.entries(paths)
      .map(([alias, targets]) => ({
        prefix: alias.replace(/\*$/, ""),
        target: path.normalize(String(targets[0]).replace(/\*$/, "")).replace(/\/?$/, "/"),
      }))
      .sort((a, b) => b.target.length - a.target.length);
  } catch {
    return [];
  }
}

const toPosix = (p) => p.split(path.sep).join("/");
const isFile = (p) => statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;

/**
 * The project-relative file an import points at, or null for packages. Every rule resolves every
 * import, so answers are kept per project, by folder and specifier.
 */
function resolve(project, fromFile, specifier) {
  const key = `${path.dirname(fromFile)}\0${specifier}`;
  if (!project.resolved.has(key)) project.resolved.set(key, resolveUncached(project, fromFile, specifier));
  return project.resolved.get(key);
}

function resolveUncached(project, fromFile, specifier) {
  let base = null;
  if (specifier.startsWith(".")) base = path.resolve(path.dirname(fromFile), specifier);
  else {
    const alias = project.aliases.find((a) => specifier.startsWith(a.prefix));
    if (alias) base = path.resolve(project.root, alias.target + specifier.slice(alias.prefix.length));
  }
  if (!base) return null;
  // A folder import ("#server/modules/auth") lands on its index file, so it counts for that module.
  const found = EXTENSIONS.map((ext) => base + ext).find(isFile) ?? base;
  return toPosix(path.relative(project.root, found));
}

/** `import type {…}`, `import { type A, type B }`, `export type {…} from`: erased at build time. */
function isTypeOnly(node) {
  if (node.importKind === "type" || node.exportKind === "type") return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((s) => s.importKind === "type" || s.exportKind === "type");
}

/** Names a public.ts re-exports or declares (`export { a, b as c, type D } from`, `export const x`). */
function publicNames(file) {
  if (!existsSync(file)) return new Set();
  const text = readFileSync(file, "utf8");
  const names = new Set();
  for (const [, list] of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g))
    for (const part of list.split(",")) {
      const name = part
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .at(-1)
        ?.trim();
      if (name) names.add(name);
    }
  for (const [, name] of text.matchAll(/export\s+(?:const|let|function|class|async\s+function|interface|type)\s+([A-Za-z_$][\w$]*)/g))
    names.add(name);
  return names;
}

function featureOf(file) {
  return /^web\/features\/([^/]+)\//.exec(file)?.[1] ?? null;
}
function moduleOf(file) {
  return /^src\/modules\/([^/]+)\//.exec(file)?.[1] ?? null;
}

/**
 * The folder a file belongs to for import style: its server module (src/modules/<m>), its web
 * feature (web/features/<f>), otherwise its top-level folder (src/db, web/lib, tests/api, bench…).
 */
function unitOf(file) {
  const parts = file.split("/");
  if (parts.length > 3 && ((parts[0] === "src" && parts[1] === "modules") || (parts[0] === "web" && parts[1] === "features")))
    return parts.slice(0, 3).join("/");
  return parts.length > 2 ? parts.slice(0, 2).join("/") : parts[0];
}

/** Import specifiers in a source text: `from "x"` (imports, re-exports), `import "x"`, `import("x")`. */
const SPECIFIER = /\bfrom\s*["']([^"'\n]+)["']|\bimport\s*\(?\s*["']([^"'\n]+)["']/g;
/** Comments that start a line; a comment after code is left alone (it may share the line with a string such as "src/**"). */
const LEADING_COMMENTS = /^\s*\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm;

function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * Which server module imports which, type imports included, read once per project from every
 * file under src/modules: `edges.get(a).get(b)` is the first file of a that imports b.
 */
function moduleGraph(project) {
  if (project.moduleGraph) return project.moduleGraph;
  const edges = new Map();
  for (const file of sourceFiles(path.join(project.root, "src/modules"))) {
    const from = toPosix(path.relative(project.root, file));
    const a = moduleOf(from);
    const text = readFileSync(file, "utf8").replace(LEADING_COMMENTS, "");
    for (const [, fromSpecifier, importSpecifier] of text.matchAll(SPECIFIER)) {
      const b = moduleOf(resolve(project, file, fromSpecifier ?? importSpecifier) ?? "");
      if (!b || b === a) continue;
      if (!edges.has(a)) edges.set(a, new Map());
      if (!edges.get(a).has(b)) edges.get(a).set(b, from);
    }
  }
  project.moduleGraph = { edges };
  return project.moduleGraph;
}

/** The shortest chain of modules from `start` to `goal` (both included), or null when there is none. */
function modulePath(graph, start, goal) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift();
    if (at === goal) {
      const chain = [];
      for (let m = goal; m !== null; m = cameFrom.get(m)) chain.unshift(m);
      return chain;
    }
    for (const next of graph.edges.get(at)?.keys() ?? [])
      if (!cameFrom.has(next)) {
        cameFrom.set(next, at);
        queue.push(next);
      }
  }
  return null;
}

/** Runs `check(from, to, node, project)` for every static import/re-export with a resolvable target. */
function onImports(context, check) {
  const project = projectOf(context.filename);
  if (!project) return {};
  const from = toPosix(path.relative(project.root, context.filename));
  const visit = (node) => {
    if (!node.source || typeof node.source.value !== "string") return;
    const to = resolve(project, context.filename, node.source.value);
    if (to) check(from, to, node, project);
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
    "server-not-web": {
      meta: {
        type: "problem",
        docs: { description: "src/ does not import web/ (the SSR entry src/ssr aside); only src/main.ts and src/boot/ import src/ssr" },
      },
      create: (context) =>
        onImports(context, (from, to, node) => {
          if (!from.startsWith("src/") || from.startsWith("src/ssr/")) return;
          if (to.startsWith("web/"))
            context.report({
              node,
              message: `Server code imports the web tree (${to}). src/ does not depend on web/, not even for types: move what both need to src/ (web/ may import its types).`,
            });
          else if (to.startsWith("src/ssr/") && from !== "src/main.ts" && !from.startsWith("src/boot/"))
            context.report({
              node,
              message: `${from} imports the SSR entry (${to}), which imports web/. Only src/main.ts and src/boot/ wire it in; pass what it offers as a parameter (createApp receives the page renderer).`,
            });
        }),
    },
    "web-shared-not-features": {
      meta: { type: "problem", docs: { description: "web/components and web/lib do not import web/features or web/routes" } },
      create: (context) =>
        onImports(context, (from, to, node) => {
          if (!/^web\/(components|lib)\//.test(from)) return;
          const target = /^web\/(features|routes)\//.exec(to)?.[1];
          if (target)
            context.report({
              node,
              message: `Shared web code imports ${target === "features" ? "a feature" : "a route"} (${to}). web/components and web/lib serve every feature: compose features in a route (web/routes) instead.`,
            });
        }),
    },
    "no-module-cycles": {
      meta: { type: "problem", docs: { description: "no import cycle between server modules (src/modules/<m>), type imports included" } },
      create: (context) =>
        onImports(context, (from, to, node, project) => {
          const a = moduleOf(from);
          const b = moduleOf(to);
          if (!a || !b || a === b) return;
          const graph = moduleGraph(project);
          const back = modulePath(graph, b, a);
          if (!back) return;
          const cycle = [a, ...back];
          // The file that makes each further step of the cycle, so the message says where to look.
          const through = back
            .slice(0, -1)
            .map((m, i) => graph.edges.get(m).get(back[i + 1]))
            .join(", ");
          context.report({
            node,
            message: `Import cycle between modules: ${cycle.join(" -> ")} (back through ${through}). One of them must not know the other: move the shared part to the lower module or src/lib, or pass it in.`,
          });
        }),
    },
    "modules-through-public-files": {
      meta: {
        type: "problem",
        fixable: "code",
        docs: { description: "src/modules/<a> uses src/modules/<b> only through its public files" },
      },
      create: (context) =>
        onImports(context, (from, to, node, project) => {
          const a = moduleOf(from);
          const b = moduleOf(to);
          if (!a || !b || a === b || isTypeOnly(node)) return;
          const rest = to.slice(`src/modules/${b}/`.length);
          if (PUBLIC_MODULE_FILES.has(rest)) return;
          // When b/public.ts already offers every name imported here, the fix is just the path.
          const offered = publicNames(path.join(project.root, `src/modules/${b}/public.ts`));
          const wanted = (node.specifiers ?? []).map((s) => (s.type === "ImportSpecifier" ? (s.imported.name ?? s.imported.value) : null));
          const fixable = node.type === "ImportDeclaration" && wanted.length > 0 && wanted.every((n) => n && offered.has(n));
          context.report({
            node,
            message: `Module "${a}" reaches into module "${b}" (${to}). Import it through ${b}/index.ts, model.ts or public.ts.`,
            fix: fixable ? (fixer) => fixer.replaceText(node.source, JSON.stringify(`#server/modules/${b}/public`)) : undefined,
          });
        }),
    },
    "no-deep-relative-imports": {
      meta: {
        type: "suggestion",
        fixable: "code",
        docs: {
          description: "a relative import does not climb out of its module, feature or top-level folder; use #server/*, #web/*, #tests/*",
        },
      },
      create: (context) =>
        onImports(context, (from, _to, node, project) => {
          const specifier = node.source.value;
          if (!specifier.startsWith("../")) return;
          const unit = unitOf(from);
          // The unresolved target keeps the specifier's own spelling (extension or none) for the fix.
          const target = toPosix(path.relative(project.root, path.resolve(path.dirname(context.filename), specifier)));
          if (target === unit || target.startsWith(`${unit}/`)) return;
          const alias = project.aliases.find((a) => `${target}/`.startsWith(toPosix(a.target)));
          if (!alias) return;
          const replacement = alias.prefix + target.slice(toPosix(alias.target).length);
          context.report({
            node: node.source,
            message: `"${specifier}" climbs out of ${unit}/. Use the alias: "${replacement}".`,
            fix: (fixer) => fixer.replaceText(node.source, JSON.stringify(replacement)),
          });
        }),
    },
  },
};
