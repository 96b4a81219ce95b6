// The capture's own screenshot (DevTools, fast PNG encoder) must show what Playwright's full-page
// screenshot with animations disabled and the caret hidden shows, and hold as still.
import { describe, expect, test } from "bun:test";
import { PNG } from "pngjs";
import { takeScreenshot } from "#server/modules/capture/screenshot/screenshot";
import { phoneLayout } from "#tests/support/phone-layout";
import { html, useHarness } from "./gatherers/harness";

const MOVING = `<style>
@keyframes spin{to{transform:rotate(360deg)}}
@keyframes slowRed{from{background:#ffffff}to{background:#ff0000}}
body{margin:0;font:16px sans-serif}
.spinner{width:60px;height:60px;margin:40px;border:8px solid #c7d2fe;border-top-color:#4f46e5;border-radius:50%;animation:spin .5s linear infinite}
#slow{width:200px;height:200px;margin:40px;animation:slowRed 60s linear both}
#late{width:200px;height:200px;margin:40px;background:#ffffff;transition:background-color 60s linear}
#late.on{background:#0000ff}
.tall{height:2400px;background:linear-gradient(#fef3c7,#1e3a8a)}
</style>`;

const h = useHarness({
  "/": html(
    `<div class="spinner"></div><div id="slow"></div><div id="late"></div>
     <input autofocus value="caret here" style="font-size:32px;margin:40px">
     <iframe src="/frame" style="width:300px;height:150px;border:0"></iframe>
     <div class="tall"></div>
     <script>requestAnimationFrame(() => requestAnimationFrame(() => document.getElementById("late").classList.add("on")));</script>`,
    MOVING,
  ),
  "/frame": html(`<div class="spinner"></div>`, MOVING),
});

const decode = (png: Buffer) => PNG.sync.read(png);
const pixel = (img: PNG, x: number, y: number) => Array.from(img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3));

async function openMoving() {
  const page = await h.open("/");
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const area = { width: 1440, height, viewportWidth: 1440, viewportHeight: 900, mobile: false };
  return { page, area };
}

describe("capture screenshot", () => {
  test("the whole page, beyond the viewport, at its size", async () => {
    const { page, area } = await openMoving();
    expect(area.height).toBeGreaterThan(900);
    const img = decode(await takeScreenshot(page.context(), page, area));
    expect([img.width, img.height]).toEqual([1440, area.height]);
    // The bottom of the page is the gradient's dark end, not blank space past the viewport.
    const [r, g, b] = pixel(img, 700, area.height - 5);
    expect(r! + g! + b!).toBeLessThan(300);
    await page.context().close();
  });

  test("animations and transitions show their end; endless ones stand still, frames included", async () => {
    const { page, area } = await openMoving();
    const first = await takeScreenshot(page.context(), page, area);
    await page.waitForTimeout(300); // the spinners would turn half a circle meanwhile
    const second = await takeScreenshot(page.context(), page, area);
    expect(second.equals(first)).toBe(true);
    const img = decode(first);
    const slow = await page.locator("#slow").boundingBox();
    const late = await page.locator("#late").boundingBox();
    expect(pixel(img, Math.round(slow!.x + 100), Math.round(slow!.y + 100))).toEqual([255, 0, 0]);
    expect(pixel(img, Math.round(late!.x + 100), Math.round(late!.y + 100))).toEqual([0, 0, 255]);
    await page.context().close();
  });

  test("a phone page keeps its emulation after a shot beyond the viewport, so a second look sees the same page", async () => {
    const page = await h.open("/", "mobile");
    const state = () => phoneLayout(page);
    const before = await state();
    expect(before.coarse).toBe(true);
    const area = { width: 390, height: before.height, viewportWidth: 390, viewportHeight: 844, mobile: true };
    const first = await takeScreenshot(page.context(), page, area);
    expect(await state()).toEqual(before);
    const second = await takeScreenshot(page.context(), page, area);
    expect(second.equals(first)).toBe(true);
    await page.context().close();
  });

  test("the same pixels as Playwright's screenshot with animations disabled and the caret hidden", async () => {
    const { page, area } = await openMoving();
    const theirs = decode(
      await page.screenshot({
        fullPage: true,
        clip: { x: 0, y: 0, width: area.width, height: area.height },
        animations: "disabled",
        caret: "hide",
      }),
    );
    const ours = decode(await takeScreenshot(page.context(), page, area));
    expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
    let differing = 0;
    for (let i = 0; i < ours.data.length; i++) if (ours.data[i] !== theirs.data[i]) differing++;
    expect(differing).toBe(0);
    await page.context().close();
  });
});
