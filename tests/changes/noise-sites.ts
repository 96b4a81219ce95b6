// Pages that never change but move by themselves, for the noise-floor test and bench: a fixture
// page with CSS animations, a carousel on a timer, lazy images and a web font that arrives late, and
// three real templates from the shared corpus (../shared/corpus), served in place on 127.0.0.1 (never copied into the
// repository; their CDN fonts and scripts fail offline on every capture).
import { existsSync, statSync } from "node:fs";
import { join, normalize, sep } from "node:path";
import { CORPUS_DIR, contentType } from "#tests/support/static-files";

export { CORPUS_DIR };
import { PNG } from "pngjs";

export const TEMPLATES = ["clean-blog", "stylish-portfolio", "resume"];
const FONT = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
  "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
].find((p) => existsSync(p));
/** The web font answers this late (the capture waits for fonts up to 3 s). */
export const FONT_DELAY_MS = 1200;

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

/** Serves /motion and /corpus/<template>/ on 127.0.0.1; `sites` are [label, url] pairs. */
export function startNoiseSites() {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const { pathname } = new URL(req.url);
      if (pathname === "/motion")
        return new Response(motion(), { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
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
        return new Response(Bun.file(file), { headers: { "content-type": contentType(file) } });
      }
      return new Response("not here", { status: 404 });
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  const sites: [string, string][] = [
    ["Motion", `${origin}/motion`],
    ...TEMPLATES.map((n): [string, string] => [n, `${origin}/corpus/${n}/`]),
  ];
  return { origin, sites, close: () => server.stop(true) };
}
