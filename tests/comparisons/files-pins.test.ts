// A stored screenshot is removed only when no snapshot names it. The question goes to the database
// asynchronously, so a capture may adopt the same file (an identical screenshot) while it is being
// answered: its row is not written yet, and the file must stay.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { screenshotFiles } from "#server/modules/comparisons/files";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const SHA = "a".repeat(64);

async function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), "di-files-pins-"));
  dirs.push(dataDir);
  const files = screenshotFiles(dataDir);
  const capture = async () => {
    const path = await files.prepare("u1", "c1", crypto.randomUUID());
    writeFileSync(path, "png");
    return path;
  };
  const stored = files.storedFor(await capture(), SHA);
  writeFileSync(files.toAbsolute(stored), "png");
  return { files, capture, stored, exists: () => existsSync(files.toAbsolute(stored)) };
}

/** An answer the test gives by hand, after doing something meanwhile. */
function deferred() {
  let answer!: (inUse: boolean) => void;
  const promise = new Promise<boolean>((r) => (answer = r));
  return { promise, answer };
}

describe("removing a stored screenshot no row names", () => {
  test("goes when the database says no snapshot names it", async () => {
    const t = await setup();
    expect(await t.files.removeUnused(t.stored, async () => false)).toBe(true);
    expect(t.exists()).toBe(false);
  });

  test("stays while a capture that adopted it has not written its row", async () => {
    const t = await setup();
    t.files.adopt(await t.capture(), SHA);
    expect(await t.files.removeUnused(t.stored, async () => false)).toBe(false);
    expect(t.exists()).toBe(true);
    // Its row was not written after all: nothing pins the file any more.
    t.files.recorded(t.stored);
    expect(await t.files.removeUnused(t.stored, async () => false)).toBe(true);
    expect(t.exists()).toBe(false);
  });

  test("a capture adopting it while the database answers makes the removal ask again", async () => {
    const t = await setup();
    const asked: ReturnType<typeof deferred>[] = [];
    const removal = t.files.removeUnused(t.stored, () => {
      const d = deferred();
      asked.push(d);
      return d.promise;
    });
    await Bun.sleep(0);
    // Meanwhile an identical capture takes the file and writes its row.
    const kept = t.files.adopt(await t.capture(), SHA);
    t.files.recorded(t.stored);
    asked[0]!.answer(false); // the answer given before that row existed
    await Bun.sleep(0);
    expect(asked).toHaveLength(2);
    asked[1]!.answer(true); // asked again: the capture's row names it now
    expect(await removal).toBe(false);
    expect(existsSync(kept)).toBe(true);
  });
});
