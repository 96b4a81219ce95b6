// How long the command palette takes to leave the DOM after Escape, in real Chromium against the
// real server, on the results page (the heaviest screen) with the CPU throttled to stand in for a
// busy machine. Prints the median and worst of N closes per throttle rate, and where the time went
// (the close's main-thread tasks and whether an exit animation held the dialog).
//   bun bench/palette-close.bench.ts [runs=10]
import { chromium } from "playwright-core";
import { completedComparison, open, startLab } from "#tests/support/lab";
import { findChromium } from "#server/lib/chromium";

const RUNS = Number(process.argv[2] ?? 10);
const lab = await startLab();
try {
  const admin = await lab.signup("bench@example.com");
  const id = await completedComparison(lab, admin);
  const executablePath = findChromium(process.env.CHROMIUM_PATH)!;
  // A default browser: no reduced motion, as a visitor has it.
  const browser = await chromium.launch({ executablePath, headless: true });
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const eq = admin.cookie.indexOf("=");
  await ctx.addCookies([
    { name: admin.cookie.slice(0, eq), value: admin.cookie.slice(eq + 1), url: lab.server.url, httpOnly: true, sameSite: "Strict" },
  ]);
  const page = await ctx.newPage();
  await open(page, `${lab.server.url}/comparison/${id}/view`, "light");
  const cdp = await ctx.newCDPSession(page);
  for (const rate of [1, 4, 8]) {
    await cdp.send("Emulation.setCPUThrottlingRate", { rate });
    const times: number[] = [];
    const animated: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await page.keyboard.press("Control+k");
      await page.waitForSelector("[role=dialog]");
      await page.waitForTimeout(300);
      await page.evaluate(() => {
        const w = window as unknown as { __close: { t0: number; closedAt: number; goneAt: number; ends: string[] } };
        w.__close = { t0: 0, closedAt: 0, goneAt: 0, ends: [] };
        document.addEventListener(
          "keydown",
          (e) => {
            if (e.key === "Escape" && !w.__close.t0) w.__close.t0 = performance.now();
          },
          { capture: true },
        );
        document.addEventListener("animationend", (e) =>
          w.__close.ends.push(`${(e as AnimationEvent).animationName}@${(performance.now() - w.__close.t0).toFixed(0)}`),
        );
        new MutationObserver(() => {
          const d = document.querySelector(".di-palette");
          if (d && d.getAttribute("data-state") === "closed" && !w.__close.closedAt) w.__close.closedAt = performance.now();
          if (!d && !w.__close.goneAt) w.__close.goneAt = performance.now();
        }).observe(document.body, { subtree: true, childList: true, attributes: true });
      });
      await page.keyboard.press("Escape");
      await page.waitForSelector("[role=dialog]", { state: "detached" });
      const c = await page.evaluate(
        () => (window as unknown as { __close: { t0: number; closedAt: number; goneAt: number; ends: string[] } }).__close,
      );
      const r = { ms: c.goneAt - c.t0, animations: c.ends.length };
      if (i === 0)
        console.log(
          `  closed state after ${(c.closedAt - c.t0).toFixed(0)} ms, removed after ${(c.goneAt - c.t0).toFixed(0)} ms; animationend: ${c.ends.join(", ")}`,
        );
      times.push(r.ms);
      animated.push(r.animations);
    }
    times.sort((a, b) => a - b);
    console.log(
      `cpu ×${rate}: median ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms, worst ${times.at(-1)!.toFixed(0)} ms, animationend events per close ${animated[0]}`,
    );
  }
  await browser.close();
} finally {
  await lab.close();
}
