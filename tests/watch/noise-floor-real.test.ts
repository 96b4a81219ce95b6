// No change means no change, through the path the product uses: real runs of a comparison (the
// capture pool drives system Chromium, the run history stores each run and finds its changes at
// completion) over pages that move by themselves and pages the team did not write:
// - a fixture page with CSS animations, a carousel that rotates on a timer, lazy images below the
//   fold and a web font that arrives late;
// - three real templates from /work/shared/corpus (served from there on 127.0.0.1, never copied),
//   whose CDN fonts and scripts fail offline on every capture.
// Every run after the first must report zero changes on every target. WATCH_NOISE_RUNS sets the
// number of runs (default 3).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve, sep } from "node:path";
import { PNG } from "pngjs";
import { findChromium } from "../../src/lib/chromium";
import { CapturePool } from "../../src/modules/capture/pool";
import { makeTestApp } from "../support/app";

const RUNS = Math.max(2, Number(process.env.WATCH_NOISE_RUNS ?? 3));
setDefaultTimeout(200_000 * RUNS);

const CORPUS = resolve(import.meta.dir, "../../../../shared/corpus");
const CORPUS_DIR = existsSync(CORPUS) ? CORPUS : "/work/shared/corpus";
const TEMPLATES = ["clean-blog", "stylish-portfolio", "resume"];
const FONT = ["/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf", "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf"].find((p) => existsSync(p));
/** The web font answers this late (the capture waits for fonts up to 3 s). */
const FONT_DELAY_MS = 1200;

const motion = () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Motion</title>
<meta name="description" content="A page that moves by itself and never changes.">
<style>
${FONT ? "@font-face{font-family:Late;src:url(/late.ttf) format('truetype');font-display:swap}" : ""}
body{margin:0;font-family:sans-serif;color:#111827}
header{display:flex;justify-content:space-between;align-items:center;height:72px;padding:0 48px;border-bottom:1px solid #e5e7eb}
.hero{padding:96px 48px;text-align:center;background:#f8fafc}
h1{font-family:Late,serif;font-size:52px;margin:0 0 16px;animation:rise 1.5s ease-out both}
@keyframes rise{from{opacity:0;transform:translateY(40px)}to{opacity:1;transform:none}}
@keyframes spin{to{transform:rotate(360deg)}}@keyframes pulse{50%{transform:scale(1.06)}}
.spinner{width:48px;height:48px;border:6px solid #c7d2fe;border-top-color:#4f46e5;border-radius:50%;animation:spin .8s linear infinite;margin:0 auto 24px}
.btn{display:inline-block;padding:14px 28px;border-radius:8px;color:#fff;background:#4f46e5;text-decoration:none;font-weight:600;animation:pulse 1.2s ease-in-out infinite}
.deck{position:relative;max-width:900px;margin:48px auto}.deck .slide{display:none;height:240px;padding:40px;box-sizing:border-box;border-radius:12px}
.deck .slide.on{display:block}
section{padding:80px 48px;min-height:320px;box-sizing:border-box}
footer{padding:48px;background:#0f172a;color:#cbd5e1}
</style></head><body>
<header><strong>Motion</strong><nav><a href="/docs">Docs</a> <a href="/pricing">Pricing</a></nav></header>
<div class="hero"><div class="spinner"></div><h1>Always in motion</h1><p>Animations everywhere, nothing changes.</p><a class="btn" href="/go">Get started</a></div>
<div class="deck">
<div class="slide on" style="background:#fde68a"><h2>Fast shipping</h2><p>Orders leave the same day.</p><a class="btn" style="background:#b45309" href="/ship">Shop shipping</a></div>
<div class="slide" style="background:#bbf7d0"><h2>Free returns</h2><p>Send it back within 60 days.</p><a class="btn" style="background:#15803d" href="/returns">Start a return</a></div>
<div class="slide" style="background:#fbcfe8"><h2>Gift cards</h2><p>The present that always fits.</p><a class="btn" style="background:#be185d" href="/gifts">Buy a gift card</a></div>
</div>
<section><h2>Gallery</h2><p>Pictures load as you scroll.</p>
<img src="/photo.png?1" loading="lazy" alt="One" width="600" height="300" style="display:block;margin:24px auto">
<img src="/photo.png?2" loading="lazy" alt="Two" width="600" height="300" style="display:block;margin:24px auto"></section>
<section style="background:#eef2ff"><h2>Pricing</h2><p>Free for hobby projects, 20 dollars per seat for teams.</p></section>
<footer><p>© Motion Inc.</p></footer>
<script>const s=document.querySelectorAll(".deck .slide");let i=0;setInterval(()=>{s[i].classList.remove("on");i=(i+1)%s.length;s[i].classList.add("on")},400);</script>
</body></html>`;

const PHOTO = (() => {
  const png = new PNG({ width: 600, height: 300 });
  for (let y = 0; y < 300; y++) for (let x = 0; x < 600; x++) png.data.set([30 + (x % 200), 80 + (y % 150), 160, 255], (y * 600 + x) * 4);
  return PNG.sync.write(png);
})();

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
};

let server: ReturnType<typeof Bun.serve>;
let pool: CapturePool;
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "di-noise-real-"));
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const { pathname } = new URL(req.url);
      if (pathname === "/motion") return new Response(motion(), { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
      if (pathname === "/photo.png") return new Response(new Uint8Array(PHOTO), { headers: { "content-type": "image/png" } });
      if (pathname === "/late.ttf" && FONT) {
        await Bun.sleep(FONT_DELAY_MS);
        return new Response(Bun.file(FONT), { headers: { "content-type": "font/ttf", "cache-control": "no-store" } });
      }
      // /corpus/<template>/… from the shared corpus, read in place.
      const m = /^\/corpus\/([a-z0-9-]+)(\/.*)$/.exec(pathname);
      if (m && TEMPLATES.includes(m[1]!)) {
        const root = join(CORPUS_DIR, m[1]!);
        let file = normalize(join(root, decodeURIComponent(m[2]!)));
        if (!file.startsWith(root + sep)) return new Response("no", { status: 403 });
        if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
        if (!existsSync(file)) return new Response("not here", { status: 404 });
        return new Response(Bun.file(file), { headers: { "content-type": TYPES[extname(file)] ?? "application/octet-stream" } });
      }
      return new Response("not here", { status: 404 });
    },
  });
  pool = new CapturePool({ concurrency: 2, chromiumPath: findChromium(process.env.CHROMIUM_PATH), allowPrivate: true });
});

afterAll(async () => {
  await pool?.close();
  server?.stop(true);
  rmSync(dataDir, { recursive: true, force: true });
});

test(`${RUNS} real runs of unchanged pages (animation, carousel, lazy images, late font; 3 corpus templates): zero changes`, async () => {
  expect(existsSync(join(CORPUS_DIR, "clean-blog", "index.html"))).toBe(true);
  const t = makeTestApp({
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" },
    comparisonEngine: { capture: (owner, job, onStage) => pool.submit(owner, job, onStage) },
  });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Unchanged" }, headers: h })).json;
  const origin = `http://127.0.0.1:${server.port}`;
  const sites: [string, string][] = [["Motion", `${origin}/motion`], ...TEMPLATES.map((n): [string, string] => [n, `${origin}/corpus/${n}/`])];
  for (const [label, url] of sites) expect((await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: h })).status).toBe(201);

  const found: { run: number; target: string; changes: string[] }[] = [];
  for (let i = 1; i <= RUNS; i++) {
    expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
    await t.services.comparisons.whenIdle();
    const done = (await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json;
    expect({ status: done.status, error: done.error, captured: done.progress.done }).toEqual({ status: "completed", error: null, captured: sites.length * 2 });
    if (i === 1) continue;
    const res = (await t.call("GET", `/api/comparisons/${c.id}/changes`, { headers: h })).json;
    for (const target of res.targets) found.push({ run: i, target: target.label, changes: target.changes.map((x: any) => `${x.viewport} ${x.kind}: ${x.summary}`) });
  }
  // Every target of every later run, listed, so a failure names what was reported.
  expect(found.filter((f) => f.changes.length > 0)).toEqual([]);
  expect(found).toHaveLength((RUNS - 1) * sites.length);
  const runs = (await t.call("GET", `/api/comparisons/${c.id}/runs`, { headers: h })).json;
  expect(runs.map((r: any) => r.changeCount)).toEqual([...Array.from({ length: RUNS - 1 }, () => 0), null]);
});
