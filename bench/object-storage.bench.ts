// Object storage against files: what a screenshot costs to store and to serve when the blob store is
// an S3 bucket (s3rver on 127.0.0.1, through Bun's S3 client) instead of files under DATA_DIR.
// Run: bun bench/object-storage.bench.ts
//
// 1. Store: put a full-page PNG (the shape of a real capture: 1440×4000, ~2.5 MiB) under its
//    key, as a run's place() does; median of N.
// 2. Serve: GET /api/snapshots/:id/screenshot through the app (ownership check, then the body
//    streamed from the store), as a browser's <img> does; median of N, both stores in one run.
// s3rver is an imitation of S3 running in this same process (on its event loop) and keeping its
// objects on the same disk: its figures say what the request path costs here, not what a real
// store or its network adds.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { filesStore, s3Store, type BlobStore } from "#server/modules/storage";
import { makeTestApp } from "#tests/support/app";
import { fakeRunTools } from "#tests/api/comparisons-support";
import { startS3Server } from "#tests/support/s3-server";

const N = Number(process.env.BENCH_N ?? 30);
const work = mkdtempSync(join(tmpdir(), "di-objects-bench-"));
const s3 = await startS3Server();

function noisyPng(width: number, height: number): Uint8Array {
  const png = new PNG({ width, height });
  let seed = 42;
  for (let i = 0; i < png.data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    // Flat colour with sparse noise: a page's text and photos compress to about what real captures weigh.
    png.data[i] = i % 4 === 3 ? 255 : seed >>> 24 < 24 ? seed & 0xff : 240;
  }
  return new Uint8Array(PNG.sync.write(png, { deflateLevel: 1 }));
}
const shot = noisyPng(1440, 4000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function timePuts(store: BlobStore): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await store.put(`screenshots/u/c/${i}.png`, shot, "image/png");
    times.push(performance.now() - t0);
  }
  return median(times);
}

async function timeServes(env: Record<string, string>): Promise<number> {
  const dataDir = mkdtempSync(join(work, "data-"));
  const fake = fakeRunTools({});
  const capture = fake.tools.capture!;
  fake.tools.capture = async (ownerId, job, onStage) => {
    const r = await capture(ownerId, job, onStage);
    if (r.ok) await Bun.write(job.screenshotPath, shot);
    return r;
  };
  const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1", ...env }, runTools: fake.tools });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Bench" }, headers: h })).json;
  for (const p of ["a", "b"])
    await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url: `http://127.0.0.1:9/${p}`, label: p }, headers: h });
  await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h });
  await t.services.comparisons.whenIdle();
  const url = (await t.call("GET", `/api/comparisons/${c.id}/snapshots`, { headers: h })).json[0].screenshotUrl;
  const times: number[] = [];
  for (let i = 0; i < N + 3; i++) {
    const t0 = performance.now();
    const res = await t.app.handle(new Request(`http://localhost${url}`, { headers: h }));
    const bytes = (await res.arrayBuffer()).byteLength;
    if (res.status !== 200 || bytes !== shot.length) throw new Error(`serve failed: ${res.status}, ${bytes} bytes`);
    if (i >= 3) times.push(performance.now() - t0);
  }
  if (t.services.storage.workDir) rmSync(t.services.storage.workDir, { recursive: true, force: true });
  return median(times);
}

try {
  const load = (await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ");
  console.log(`screenshot ${(shot.length / 1024 / 1024).toFixed(2)} MiB, ${N} each, load average ${load}`);
  const putFiles = await timePuts(filesStore(join(work, "files")));
  const putS3 = await timePuts(s3Store(s3.settings("bench")));
  console.log(`store (put):  files ${ms(putFiles)}   s3 ${ms(putS3)}   (×${(putS3 / putFiles).toFixed(1)})`);
  const serveFiles = await timeServes({});
  const serveS3 = await timeServes(s3.env("bench-serve"));
  console.log(`serve (GET):  files ${ms(serveFiles)}   s3 ${ms(serveS3)}   (×${(serveS3 / serveFiles).toFixed(1)})`);
} finally {
  await s3.close();
  rmSync(work, { recursive: true, force: true });
}
