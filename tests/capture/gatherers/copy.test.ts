// The copy gatherer in real Chromium: visible text only, the headline, word count and reading ease.
import { describe, expect, test } from "bun:test";
import { gather, html, useHarness } from "./harness";

const easy = "The cat sat on the mat. It was a big cat. ".repeat(6);
const hard =
  "Organisational interoperability necessitates comprehensive institutional documentation, notwithstanding considerable administrative complexity and unprecedented regulatory fragmentation. ".repeat(
    3,
  );

const h = useHarness({
  "/easy": html(
    `<h1>Simple words for everyone</h1><p>${easy}</p>
<p style="display:none">Hidden words never count</p><p style="visibility:hidden">Invisible words never count</p>
<script>var notText = "script source is not copy";</script>`,
  ),
  "/hard": html(`<h1>Dense prose</h1><p>${hard}</p>`),
  // No heading at all: the biggest text above the fold is the headline.
  "/no-h1": html(`<p style="font-size:14px">Small print first</p><div style="font-size:48px">The real message</div><p>More text.</p>`),
});

describe("copy gatherer", () => {
  test("visible text in reading order, without hidden text or scripts", async () => {
    const c = await gather(await h.shared("/easy"), "copy");
    expect(c.headline).toBe("Simple words for everyone");
    expect(c.visibleText.startsWith("Simple words for everyone\nThe cat sat on the mat.")).toBe(true);
    expect(c.visibleText).not.toContain("Hidden");
    expect(c.visibleText).not.toContain("Invisible");
    expect(c.visibleText).not.toContain("script source");
    expect(c.wordCount).toBe(4 + 11 * 6);
  });

  test("reading ease tells plain words from dense ones", async () => {
    const easyCopy = await gather(await h.shared("/easy"), "copy");
    const hardCopy = await gather(await h.shared("/hard"), "copy");
    expect(easyCopy.readability).toBeGreaterThan(90);
    expect(hardCopy.readability).toBeLessThan(20);
  });

  test("without a heading, the headline is the biggest text above the fold", async () => {
    const c = await gather(await h.shared("/no-h1"), "copy");
    expect(c.headline).toBe("The real message");
  });
});
