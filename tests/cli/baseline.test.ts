// The visual baseline flow, run with the compiled binary against a page on loopback whose content
// the test changes between runs: first run writes the baseline; unchanged passes; a change fails
// visual.maxChangedShare and writes a *.diff.png; approve makes it the baseline; changes inside the
// config's ignore region and ignore selector do not count.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { BUILD_MS, compiledBinary, runCli } from "./support";

interface Look {
  hero: string;
  clock: string;
  ticker: string;
}
const ORIGINAL: Look = { hero: "#0f766e", clock: "#fde68a", ticker: "#e0e7ff" };

/** The page: a hero, a "clock" at a fixed place (masked by region) and a "ticker" (masked by selector). */
const page = (look: Look) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Baseline page</title>
<style>
  body { margin: 0; font-family: sans-serif; background: #ffffff; color: #111827; position: relative; }
  header { height: 80px; background: #1e3a8a; }
  #hero { height: 400px; background: ${look.hero}; }
  #clock { position: absolute; top: 520px; left: 40px; width: 300px; height: 100px; background: ${look.clock}; }
  #ticker { margin-top: 160px; height: 120px; background: ${look.ticker}; }
  footer { height: 300px; background: #f3f4f6; }
</style></head>
<body><header></header><div id="hero"></div><div id="clock"></div><div id="ticker"></div><footer></footer></body></html>`;

let root: string;
let siteDir: string;
let sites: FixtureServer;
let bin: ReturnType<typeof compiledBinary>;

beforeAll(() => {
  bin = compiledBinary();
  root = mkdtempSync(join(tmpdir(), "di-baseline-"));
  siteDir = join(root, "sites");
  mkdirSync(join(siteDir, "ours"), { recursive: true });
  mkdirSync(join(siteDir, "rival"), { recursive: true });
  writeFileSync(join(siteDir, "ours/index.html"), page(ORIGINAL));
  // A comparison needs a second page; the rival never changes.
  writeFileSync(
    join(siteDir, "rival/index.html"),
    page({ hero: "#334155", clock: "#cbd5e1", ticker: "#f1f5f9" }).replace("Baseline page", "Rival"),
  );
  sites = startFixtureServer(siteDir);
}, BUILD_MS);

afterAll(async () => {
  await sites?.close();
  bin?.cleanup();
  if (root) rmSync(root, { recursive: true, force: true });
});

const show = (look: Look) => writeFileSync(join(siteDir, "ours/index.html"), page(look));

describe("visual baseline (compiled binary)", () => {
  test("first run writes it; unchanged passes; a change fails with a diff image; approve; masked changes are ignored", async () => {
    const work = join(root, "ci");
    mkdirSync(work);
    const configPath = join(work, "design-intel.json");
    writeFileSync(
      configPath,
      JSON.stringify({
        site: { url: sites.url("/ours/"), label: "Ours" },
        competitors: [{ url: sites.url("/rival/"), label: "Rival" }],
        viewports: ["desktop", "mobile"],
        budgets: { visual: { maxChangedShare: 0.001 } },
        ignore: { regions: [{ x: 40, y: 520, width: 300, height: 100 }], selectors: ["#ticker"] },
      }),
    );
    // One capture browser per check, not the default two: a second (a worker and a Chromium, about
    // a CPU-second to start) only overlaps two pages' captures on a machine the other files keep busy.
    const run = (args: string[]) => runCli(args, { cmd: bin.cmd, cwd: work, env: { CAPTURE_CONCURRENCY: "1" } });
    const check = (junit?: string) => run(["check", "--config", configPath, ...(junit ? ["--junit", join(work, junit)] : [])]);
    const baseline = (vp: string) => join(work, ".design-intel/baseline", `ours.${vp}.png`);
    const current = (vp: string) => join(work, ".design-intel/results", `ours.${vp}.png`);
    const diff = (vp: string) => join(work, ".design-intel/results", `ours.${vp}.diff.png`);
    const row = (out: string, vp: string) =>
      new RegExp(`^visual\\.maxChangedShare\\s+${vp}\\s+([\\d.]+)\\s+0\\.001\\s+(pass|FAIL)$`, "m").exec(out);

    // Nothing to approve before a check has run.
    const early = await run(["approve", "--config", configPath]);
    expect(early.code).toBe(2);
    expect(early.stderr.trim()).toBe(
      "design-intel approve: no capture of Ours (desktop) in .design-intel/results; run design-intel check with a visual budget first",
    );

    // 1. First run: the baseline is written (default directory, relative to where the check runs), one PNG per viewport.
    const first = await check();
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    for (const vp of ["desktop", "mobile"]) {
      expect(first.stdout).toContain(
        `visual (${vp}): no baseline yet; this capture is now the baseline (.design-intel/baseline/ours.${vp}.png)`,
      );
      expect(row(first.stdout, vp)?.slice(1)).toEqual(["0", "pass"]);
      const png = PNG.sync.read(readFileSync(baseline(vp)));
      expect(png.width).toBe(vp === "desktop" ? 1440 : 390);
      expect(JSON.parse(readFileSync(baseline(vp).replace(/\.png$/, ".json"), "utf8")).url).toBe(sites.url("/ours/"));
      // The baseline is the capture itself, byte for byte (that an unchanged page captures the same
      // pixels again is step 4's: its unmasked pixels must match exactly).
      expect(readFileSync(baseline(vp)).equals(readFileSync(current(vp)))).toBe(true);
    }

    // 2. The hero changes colour: the budget fails with the measured share, and a diff image is written beside the results.
    show({ ...ORIGINAL, hero: "#b91c1c" });
    const changed = await check("changed.xml");
    expect(changed.code).toBe(1);
    const share = Number(row(changed.stdout, "desktop")?.[1]);
    expect(row(changed.stdout, "desktop")?.[2]).toBe("FAIL");
    // 400 px of hero out of a page about 1200 px tall.
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.5);
    const image = PNG.sync.read(readFileSync(diff("desktop")));
    expect(image.width).toBe(1440);
    expect(changed.stdout).toContain(`diff image .design-intel/results/ours.desktop.diff.png`);
    const junit = readFileSync(join(work, "changed.xml"), "utf8");
    expect(junit).toContain(
      `<failure message="visual.maxChangedShare (desktop): ${share} &gt; 0.001" type="budget">value: ${share}\nlimit: 0.001\ndiff image: .design-intel/results/ours.desktop.diff.png</failure>`,
    );

    // 3. approve: the changed captures become the baseline, and the same page passes.
    const approved = await run(["approve", "--config", configPath]);
    expect(approved.stderr).toBe("");
    expect(approved.code).toBe(0);
    expect(approved.stdout).toBe(
      "approved Ours (desktop): .design-intel/baseline/ours.desktop.png\napproved Ours (mobile): .design-intel/baseline/ours.mobile.png\n",
    );
    expect(readFileSync(baseline("desktop")).equals(readFileSync(current("desktop")))).toBe(true);
    expect(existsSync(diff("desktop"))).toBe(false);

    // 4. The approved look with the clock (an ignore region) and the ticker (an ignore selector) changed:
    // it passes at a share of 0, though the captures really differ from the baseline. The hero is still
    // the changed one, so this check also proves approve took: against the old baseline the hero fails.
    // Everything else is unchanged, so it also proves an unchanged page passes with no diff image.
    show({ hero: "#b91c1c", clock: "#7c3aed", ticker: "#f97316" });
    const masked = await check();
    expect(masked.code).toBe(0);
    expect(row(masked.stdout, "desktop")?.slice(1)).toEqual(["0", "pass"]);
    expect(row(masked.stdout, "mobile")?.slice(1)).toEqual(["0", "pass"]);
    expect(readFileSync(baseline("desktop")).equals(readFileSync(current("desktop")))).toBe(false);
    expect(masked.stdout).toMatch(/visual \(desktop\): unchanged against \.design-intel\/baseline\/ours\.desktop\.png, \d+ masked/);
    expect(existsSync(diff("desktop"))).toBe(false);
  }, 600_000);
});
