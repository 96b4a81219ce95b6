// A screenshot a capture job's worker stored under its content key is adopted by the run as it is
// (files.adoptStored): pinned until its row is written or given up, so a removal meanwhile leaves
// it; one removed before the run adopted it is noticed rather than recorded without its object.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contentKey, screenshotFiles } from "#server/modules/comparisons/public";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const SHA = "b".repeat(64);

async function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), "di-adopt-stored-"));
  dirs.push(dataDir);
  const files = screenshotFiles(dataDir);
  const path = await files.prepare("u1", "c1", crypto.randomUUID());
  const key = contentKey(files.folderOf(path), SHA);
  // What the worker did: the object under the key the run's path gives.
  await files.store.put(key, "png");
  return { files, path, key, there: async () => (await files.store.stat(key)) !== null };
}

test("the worker's key is the one the run's own path gives", async () => {
  const t = await setup();
  expect(t.key).toBe(t.files.storedFor(t.path, SHA));
  expect(t.key).toBe(`screenshots/u1/c1/${SHA}.png`);
});

test("an adopted object stays while its row is not written, and goes once it is given up and no row names it", async () => {
  const t = await setup();
  await t.files.adoptStored(t.key, SHA);
  expect(await t.files.removeUnused(t.key, async () => false)).toBe(false);
  expect(await t.there()).toBe(true);
  t.files.recorded(t.key);
  expect(await t.files.removeUnused(t.key, async () => false)).toBe(true);
  expect(await t.there()).toBe(false);
});

test("an object removed before the run adopted it is not adopted; a key of other bytes is refused", async () => {
  const t = await setup();
  expect(await t.files.removeUnused(t.key, async () => false)).toBe(true);
  await expect(t.files.adoptStored(t.key, SHA)).rejects.toThrow("lost on its way");
  // Nothing stays pinned by the failed adoption.
  await t.files.store.put(t.key, "png");
  expect(await t.files.removeUnused(t.key, async () => false)).toBe(true);
  await expect(t.files.adoptStored(t.key, "c".repeat(64))).rejects.toThrow("not a stored screenshot");
});
