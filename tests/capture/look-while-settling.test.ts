// The capture measures and screenshots the page while its network goes quiet, and looks again only
// when something moved meanwhile: a page that is still is looked at once; a page that changes
// after the first look is stored as it ended up.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { capturePage, type CaptureStage } from "#server/modules/capture/capture";
import { PAGE_GLOBAL } from "#server/modules/capture/page/global";
import { testCaptureJob } from "#tests/support/capture-job";
import { useHarness } from "./gatherers/harness";

setDefaultTimeout(90_000); // a capture (60 s at most) and its checks

const page = (script = "") => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Still</title>
<style>body{margin:0;font-family:sans-serif} header{height:300px;background:#1d4ed8;color:#fff;padding:40px}</style></head>
<body><header><h1 id="title">The first heading</h1></header><p>Some text below.</p>${script}</body></html>`;

// Changes itself, with no request, once the capture's gatherers are in the page (they come just
// before it starts watching): the speculative look is either before the change or racing it.
const changing = page(`<script>
const timer = setInterval(() => {
  if (typeof window[${JSON.stringify(PAGE_GLOBAL)}]?.measure !== "function") return;
  clearInterval(timer);
  setTimeout(() => {
    document.getElementById("title").textContent = "The heading it ended with";
    document.querySelector("header").style.background = "#dc2626";
  }, 40);
}, 5);
</script>`);

const h = useHarness({ "/": page(), "/changing": changing });
const dir = mkdtempSync(join(tmpdir(), "look-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function capture(path: string) {
  const stages: CaptureStage[] = [];
  const result = await capturePage(h.browser, testCaptureJob(h.url(path), dir), (s) => stages.push(s));
  const png = PNG.sync.read(readFileSync(result.screenshotPath));
  const i = (150 * png.width + 700) * 4; // inside the header
  return { ...result, stages, header: [png.data[i], png.data[i + 1], png.data[i + 2]] };
}

describe("looking while the network goes quiet", () => {
  test("a page that stays still is measured and screenshotted once", async () => {
    const { extraction, stages, header } = await capture("/");
    expect(stages.filter((s) => s === "measuring")).toHaveLength(1);
    expect(stages.filter((s) => s === "screenshot")).toHaveLength(1);
    expect(extraction.elements.headings.map((h) => h.text)).toContain("The first heading");
    expect(header).toEqual([29, 78, 216]);
  });

  test("a page that changes after the first look is stored as it ended up, text and pixels", async () => {
    const { extraction, header } = await capture("/changing");
    const headings = extraction.elements.headings.map((h) => h.text);
    expect(headings).toContain("The heading it ended with");
    expect(headings).not.toContain("The first heading");
    expect(header).toEqual([220, 38, 38]);
  });
});
