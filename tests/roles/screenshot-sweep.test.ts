// The sweep of screenshots no snapshot names, with the files store. At boot nothing captures yet, so
// every stored (hash-named) file no row names goes. The scheduler's periodic sweep runs while
// captures may be under way in this process or in other instances, whose files are protected only
// in the process storing them: there only files older than an hour go, whatever their name.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "#tests/support/app";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), "di-sweep-"));
  dirs.push(dataDir);
  const clock = { offsetMs: 0 };
  const t = makeTestApp({ env: { DATA_DIR: dataDir }, now: () => Date.now() + clock.offsetMs });
  const folder = join(dataDir, "screenshots", "some-owner", "some-comparison");
  mkdirSync(folder, { recursive: true });
  const files = () => readdirSync(folder).sort();
  return { t, clock, folder, files };
}

const stored = (hex: string) => `${hex.repeat(64)}.png`;

test("while captures may be under way, only files an hour old go: a fresh stored file no row names yet stays", async () => {
  const { t, clock, folder, files } = setup();
  const hourAgo = new Date(Date.now() - 2 * 3_600_000);
  for (const name of [stored("a"), stored("b"), "0190cccc-capture-in-flight.png"]) await Bun.write(join(folder, name), "png");
  utimesSync(join(folder, stored("a")), hourAgo, hourAgo);

  expect(await t.services.comparisons.sweepScreenshots({ whileRunning: true })).toBe(1);
  expect(files()).toEqual([stored("b"), "0190cccc-capture-in-flight.png"].sort());
  // An hour later they are leftovers too.
  clock.offsetMs = 2 * 3_600_000;
  expect(await t.services.comparisons.sweepScreenshots({ whileRunning: true })).toBe(2);
  expect(files()).toEqual([]);
});

test("at boot, before any capture, every stored file no row names goes at once", async () => {
  const { t, folder, files } = setup();
  for (const name of [stored("a"), "0190cccc-capture-in-flight.png"]) await Bun.write(join(folder, name), "png");
  expect(await t.services.comparisons.sweepScreenshots()).toBe(1);
  expect(files()).toEqual(["0190cccc-capture-in-flight.png"]);
});
