// Compiles the server, its workers, migrations and client assets into one executable: dist/design-intel.
// Run after scripts/build-client.ts (the client manifest must exist).
import type { BunPlugin } from "bun";
import { join } from "node:path";
import { readConsentAssets } from "#server/modules/capture/consent/assets";
import { buildPageBundles } from "#server/modules/capture/page-script/page-bundle-build";

const root = join(import.meta.dir, "..");
const pwRoot = join(root, "node_modules/playwright-core");

/**
 * playwright-core reads its package.json and browsers.json through paths built from __dirname,
 * which do not exist inside the executable. Inline both files at build time.
 */
const inlinePlaywrightJson: BunPlugin = {
  name: "inline-playwright-json",
  setup(build) {
    build.onLoad({ filter: /playwright-core[\\/]lib[\\/].*\.js$/ }, async (args) => {
      let text = await Bun.file(args.path).text();
      const pkg = await Bun.file(join(pwRoot, "package.json")).text();
      const browsers = await Bun.file(join(pwRoot, "browsers.json")).text();
      text = text.replace(
        /require\((import_path\w*)\.default\.join\((packageRoot|linkTarget), "(package|browsers)\.json"\)\)/g,
        (_m, _p, _root, name) => `(${name === "package" ? pkg : browsers})`,
      );
      return { contents: text, loader: "js" };
    });
  },
};

/**
 * The page script the capture injects into every page is built here, once, and embedded as text:
 * the module that would build it from source at run time is swapped for one returning the text.
 */
const pageScript = await buildPageBundles();
let pageScriptEmbedded = false;
const embedPageScript: BunPlugin = {
  name: "embed-page-script",
  setup(build) {
    build.onLoad({ filter: /[\\/]modules[\\/]capture[\\/]page-script[\\/]page-bundle\.ts$/ }, () => {
      pageScriptEmbedded = true;
      return { contents: `export const pageBundles = () => Promise.resolve(${JSON.stringify(pageScript)});`, loader: "ts" };
    });
  },
};

/**
 * axe-core's browser build, which the capture evaluates into every page it audits, is embedded the
 * same way: the module that reads it from node_modules is swapped for one returning the text.
 */
const axeText = await Bun.file(Bun.resolveSync("axe-core/axe.min.js", root)).text();
const axeVersion = /axe v(\d+\.\d+\.\d+)/.exec(axeText.slice(0, 200))?.[1];
let axeEmbedded = false;
const embedAxe: BunPlugin = {
  name: "embed-axe",
  setup(build) {
    build.onLoad({ filter: /[\\/]modules[\\/]capture[\\/]page-script[\\/]axe-source\.ts$/ }, () => {
      axeEmbedded = true;
      return { contents: `export const axeSource = () => Promise.resolve(${JSON.stringify(axeText)});`, loader: "ts" };
    });
  },
};

/**
 * The consent banner handling's content script and rules (@duckduckgo/autoconsent) are read from
 * the installed package here and embedded the same way: the module that reads them is swapped.
 */
const consentAssets = await readConsentAssets();
let consentEmbedded = false;
const embedConsentAssets: BunPlugin = {
  name: "embed-consent-assets",
  setup(build) {
    build.onLoad({ filter: /[\\/]modules[\\/]capture[\\/]consent[\\/]assets\.ts$/ }, () => {
      consentEmbedded = true;
      return { contents: `export const consentAssets = () => Promise.resolve(${JSON.stringify(consentAssets)});`, loader: "ts" };
    });
  },
};

// Every module's worker, wherever it sits under src/ (src/lib/spawn-worker.ts names them by that path).
const workers = [...new Bun.Glob("**/*.worker.ts").scanSync(join(root, "src"))].sort().map((f) => join(root, "src", f));

const result = await Bun.build({
  entrypoints: [join(root, "src/main.ts"), ...workers],
  compile: { outfile: join(root, "dist/design-intel") },
  target: "bun",
  minify: true,
  sourcemap: "none",
  plugins: [inlinePlaywrightJson, embedPageScript, embedAxe, embedConsentAssets],
  // The bundler inlines NODE_ENV from the building process; the executable is the production artefact.
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  external: ["chromium-bidi", "electron"],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
if (!pageScriptEmbedded) {
  // Without it the executable would try to build the page script from sources it does not carry.
  console.error("build: src/modules/capture/page-script/page-bundle.ts was not bundled, so the page script is not embedded");
  process.exit(1);
}
if (!axeEmbedded || !axeVersion) {
  // Without it every capture would report its page unaudited: axe-core is not beside the executable.
  console.error("build: src/modules/capture/page-script/axe-source.ts was not bundled, so axe-core is not embedded");
  process.exit(1);
}
if (!consentEmbedded) {
  console.error("build: src/modules/capture/consent/assets.ts was not bundled, so the consent rules are not embedded");
  process.exit(1);
}
const size = Bun.file(join(root, "dist/design-intel")).size;
console.log(
  `binary: dist/design-intel ${(size / 1024 / 1024).toFixed(1)} MiB (workers: ${workers.length}, page script: ${(pageScript.early.length / 1024).toFixed(0)} KiB early + ${(pageScript.full.length / 1024).toFixed(0)} KiB, axe-core ${axeVersion}: ${(axeText.length / 1024).toFixed(0)} KiB, consent: ${((consentAssets.script.length + consentAssets.rules.length) / 1024).toFixed(0)} KiB)`,
);
