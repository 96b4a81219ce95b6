// Each design-intel rule fires on a miniature of the repository's layout (tests/lint/fixtures/
// project): every `bad-*` file gets exactly its rule's diagnostic, every `good-*` file none.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, oxlint, pluginOnlyConfig, type Diagnostic } from "./oxlint";

const FIXTURE = "tests/lint/fixtures/project";
const LIMIT = 300_000; // guards against a hung oxlint only; a run takes seconds

let config: ReturnType<typeof pluginOnlyConfig>;
let diagnostics: Diagnostic[];
beforeAll(async () => {
  config = pluginOnlyConfig();
  diagnostics = await oxlint(["-c", config.path, FIXTURE]);
}, LIMIT);
afterAll(() => config.dispose());

const at = (file: string) => diagnostics.filter((d) => d.file === `${FIXTURE}/${file}`);

describe("design-intel rules on the fixture project", () => {
  test.each([
    ["web/features/a/bad-imports-feature-b.ts", "design-intel(features-isolated)", /Feature "a" imports feature "b"/],
    [
      "web/features/a/bad-server-value.ts",
      "design-intel(web-imports-server-types-only)",
      /imports server code \(src\/modules\/alpha\/model\.ts\) as a value/,
    ],
    ["src/modules/beta/bad-internal-reach.ts", "design-intel(modules-through-public-files)", /Module "beta" reaches into module "alpha"/],
    ["src/modules/beta/bad-deep-relative.ts", "design-intel(no-deep-relative-imports)", /Use the alias: "#server\/lib\/clock"/],
    ["src/modules/beta/bad-imports-web.ts", "design-intel(server-not-web)", /Server code imports the web tree \(web\/lib\/ids\.ts\)/],
    ["src/bad-imports-ssr.ts", "design-intel(server-not-web)", /src\/bad-imports-ssr\.ts imports the SSR entry \(src\/ssr\/render\.ts\)/],
    [
      "web/components/bad-imports-feature.ts",
      "design-intel(web-shared-not-features)",
      /Shared web code imports a feature \(web\/features\/a\/own\.ts\)/,
    ],
    [
      "web/lib/bad-imports-route.ts",
      "design-intel(web-shared-not-features)",
      /Shared web code imports a route \(web\/routes\/good-route\.ts\)/,
    ],
    [
      "src/modules/gamma/bad-cycle.ts",
      "design-intel(no-module-cycles)",
      /Import cycle between modules: gamma -> delta -> gamma \(back through src\/modules\/delta\/bad-cycle-type\.ts\)/,
    ],
    [
      "src/modules/delta/bad-cycle-type.ts",
      "design-intel(no-module-cycles)",
      /Import cycle between modules: delta -> gamma -> delta \(back through src\/modules\/gamma\/bad-cycle\.ts\)/,
    ],
  ])("%s breaks %s, once, on its import line", (file, rule, message) => {
    const found = at(file);
    expect(found.map((d) => d.rule)).toEqual([rule]);
    expect(found[0]!.message).toMatch(message);
    expect(found[0]!.line).toBe(2);
  });

  test(
    "the allowed equivalents lint clean: public files, type-only imports, aliases, relative paths inside a module, routes composing features, " +
      "the SSR entry importing web/ and boot importing it, shared web code using shared web code, a one-way import between modules",
    () => {
      const clean = diagnostics.filter((d) => !d.file.split("/").at(-1)!.startsWith("bad-"));
      expect(clean).toEqual([]);
      expect(diagnostics).toHaveLength(10);
    },
  );

  test(
    "--fix turns a deep relative import into the alias, and an internal import into the public file that offers it",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "lint-fix-"));
      try {
        cpSync(join(ROOT, FIXTURE), dir, { recursive: true });
        await oxlint(["-c", config.path, "--fix", dir]);
        expect(readFileSync(join(dir, "src/modules/beta/bad-deep-relative.ts"), "utf8")).toContain(
          'import { now } from "#server/lib/clock";',
        );
        expect(readFileSync(join(dir, "src/modules/beta/bad-internal-reach.ts"), "utf8")).toContain(
          'import { secret } from "#server/modules/alpha/public";',
        );
        const after = await oxlint(["-c", config.path, dir]);
        expect(after.filter((d) => /\/src\/modules\/beta\/bad-(deep-relative|internal-reach)\.ts$/.test(d.file))).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    LIMIT,
  );
});
