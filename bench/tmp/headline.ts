import { readFileSync, writeFileSync } from "node:fs";
import { findChromium } from "#server/lib/chromium";
import { CapturePool } from "#server/modules/capture/pool";
import { detectChanges } from "#server/modules/watch/changes/detect";
import { mergeVolatility } from "#server/modules/watch/changes/volatility";
const root = "/tmp/hl/sites";
const srv = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (r) => {
    const p = new URL(r.url).pathname;
    const f = root + (p.endsWith("/") ? p + "index.html" : p);
    return new Response(Bun.file(f));
  },
});
const pool = new CapturePool({ concurrency: 1, chromiumPath: findChromium(undefined), allowPrivate: true });
const url = `http://127.0.0.1:${srv.port}/alpha/`;
const cap = async (n: string) => {
  const o = await pool.submit("u", { url, viewport: "desktop", screenshotPath: `/tmp/hl/${n}.png` });
  if (!o.ok) throw new Error(o.reason);
  return o.extraction as any;
};
const before = await cap("a");
const f = root + "/alpha/index.html";
writeFileSync(
  f,
  readFileSync(f, "utf8")
    .replace("Plan launches your whole team can follow", "Launch plans your whole company trusts")
    .replace("Start your free trial", "Book a demo"),
);
const after = await cap("b");
console.log("headline", before.copy.headline, "=>", after.copy.headline);
console.log("vol", JSON.stringify(before.volatility)?.slice(0, 500), JSON.stringify(after.volatility)?.slice(0, 500));
const ch = detectChanges({ before, after, volatility: mergeVolatility(before.volatility, after.volatility) });
console.log(ch.map((c) => `${c.kind} ${c.severity} ${c.summary}`).join("\n"));
await pool.close();
srv.stop(true);
