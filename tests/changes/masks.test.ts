// Regions a capture masked (a consent banner left on screen) are parts of the page whose
// differences are not changes: both captures' masks join what moves by itself.
import { describe, expect, test } from "bun:test";
import { pageVolatility } from "#server/modules/changes/between-runs";
import type { ChangesRepository } from "#server/modules/changes/repository";
import type { RunRow, SnapshotRow } from "#server/modules/comparisons/repository";
import { inVolatileBox } from "#server/modules/changes/detect/volatility";

const row = (extraction: object) => ({ target_id: "t1", viewport: "desktop", extraction: JSON.stringify(extraction) }) as SnapshotRow;
const repo = { pageHistory: async () => [] } as unknown as ChangesRepository;
const from = { comparison_id: "c1", number: 1 } as RunRow;

describe("masks in change detection", () => {
  test("either capture's masks are left out, with the page's own moving parts", async () => {
    const before = row({ masks: [{ x: 0, y: 790, width: 1440, height: 110 }] });
    const after = row({
      masks: [{ x: 24, y: 689, width: 380, height: 187 }],
      volatility: { texts: ["Slide 2"], boxes: [{ x: 0, y: 100, width: 1440, height: 400 }], colors: [], fading: false },
    });
    const v = await pageVolatility({ repo }, from, before, after);
    expect(v.boxes).toEqual([
      { x: 0, y: 790, width: 1440, height: 110 },
      { x: 24, y: 689, width: 380, height: 187 },
      { x: 0, y: 100, width: 1440, height: 400 },
    ]);
    expect(v.texts).toEqual(["slide 2"]);
    // A call to action inside the banner's box is not compared.
    expect(inVolatileBox({ x: 1200, y: 830, width: 160, height: 40 }, v)).toBe(true);
    expect(inVolatileBox({ x: 100, y: 600, width: 160, height: 40 }, v)).toBe(false);
  });

  test("captures with nothing masked add nothing", async () => {
    expect((await pageVolatility({ repo }, from, row({}), row({ masks: [] }))).boxes).toEqual([]);
  });
});
