// @radix-ui/react-icons ships every icon in one module. The bundler splits code per module, so any
// chunk shared by two pages carried the union of all icons the app uses (~22 KB gzip on every
// page). This plugin serves each icon as its own module, so a page's chunks hold only its icons.
import type { BunPlugin } from "bun";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const HELPER = `function _objectWithoutPropertiesLoose(source, excluded) {
  if (source == null) return {};
  var target = {};
  for (var key of Object.keys(source)) if (excluded.indexOf(key) < 0) target[key] = source[key];
  return target;
}`;

/** Icon name -> its declaration, cut from the package's single ES module. */
function readIcons(root: string): Map<string, string> {
  const pkgDir = dirname(createRequire(join(root, "package.json")).resolve("@radix-ui/react-icons/package.json"));
  const text = readFileSync(join(pkgDir, "dist/react-icons.esm.js"), "utf8");
  const body = text.slice(0, text.lastIndexOf("\nexport {"));
  const icons = new Map<string, string>();
  for (const part of body.split(/^var _excluded(?:\$\w+)? = \["color"\];$/m).slice(1)) {
    const name = /^var (\w+) = \/\*#__PURE__\*\/forwardRef\(/m.exec(part)?.[1];
    if (!name) throw new Error("client-icons: unexpected @radix-ui/react-icons layout");
    icons.set(name, part.replace(/_excluded\$\w+/g, "_excluded"));
  }
  if (icons.size < 100) throw new Error(`client-icons: found only ${icons.size} icons`);
  return icons;
}

export function splitRadixIcons(root: string): BunPlugin {
  return {
    name: "split-radix-icons",
    setup(build) {
      const icons = readIcons(root);
      // The app's own files name their icons; each named import becomes an import of that icon alone.
      build.onLoad({ filter: /[\\/]web[\\/].*\.tsx?$/ }, async (args) => {
        const text = await Bun.file(args.path).text();
        const loader = args.path.endsWith(".tsx") ? "tsx" : "ts";
        if (!text.includes("@radix-ui/react-icons")) return { contents: text, loader };
        const contents = text.replace(/import\s*\{([^}]*)\}\s*from\s*["']@radix-ui\/react-icons["'];?/g, (_m, names: string) =>
          names
            .split(",")
            .map((n) => n.trim())
            .filter(Boolean)
            .map((n) => {
              const [name, alias] = n.split(/\s+as\s+/);
              return `import { ${name} as ${alias ?? name} } from "radix-icon:${name}";`;
            })
            .join("\n"),
        );
        return { contents, loader };
      });
      build.onResolve({ filter: /^radix-icon:/ }, (args) => ({ path: args.path.slice("radix-icon:".length), namespace: "radix-icon" }));
      build.onResolve({ filter: /^react$/, namespace: "radix-icon" }, () => ({ path: require.resolve("react", { paths: [root] }) }));
      build.onLoad({ filter: /.*/, namespace: "radix-icon" }, (args) => {
        const decl = icons.get(args.path);
        if (!decl) throw new Error(`client-icons: no icon ${args.path}`);
        return {
          contents: `import { forwardRef, createElement } from "react";\n${HELPER}\nvar _excluded = ["color"];\n${decl}\nexport { ${args.path} };\n`,
          loader: "js",
        };
      });
    },
  };
}
