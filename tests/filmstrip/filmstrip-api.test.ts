// The filmstrip routes: the recordings the capture leaves beside each screenshot, listed for the
// latest snapshots and served frame by frame, only to their owner.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { filmstripDirFor, MANIFEST_FILE } from "#server/modules/capture/filmstrip/filmstrip";
import type { CaptureFn } from "#server/modules/comparisons/active-runs";
import { makeTestApp } from "#tests/support/app";
import { fakeRunTools } from "#tests/api/comparisons-support";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const JPEG = (n: number) => Buffer.from([0xff, 0xd8, 0xff, 0xe0, n, 0xff, 0xd9]);

function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), "di-film-"));
  dirs.push(dataDir);
  const fake = fakeRunTools();
  const capture = fake.tools.capture!;
  // As the capture worker does: the recording goes beside the screenshot, named by the snapshot.
  const recording: CaptureFn = async (ownerId, job, onStage) => {
    const dir = filmstripDirFor(job.screenshotPath);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "000.jpg"), JPEG(1));
    writeFileSync(join(dir, "001.jpg"), JPEG(2));
    const manifest = {
      version: 1,
      width: 1440,
      height: 900,
      frames: [
        { ms: 120, file: "000.jpg" },
        { ms: 480, file: "001.jpg" },
      ],
    };
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest));
    return capture(ownerId, job, onStage);
  };
  fake.tools.capture = recording;
  const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" }, runTools: fake.tools });
  return { ...t, dataDir };
}

async function completed(t: ReturnType<typeof setup>) {
  const owner = await t.signup();
  const h = t.auth(owner.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Film" }, headers: h })).json;
  for (const p of ["a", "b"])
    await t.call("POST", `/api/comparisons/${c.id}/targets`, {
      body: { url: `http://127.0.0.1:9/${p}`, label: p.toUpperCase() },
      headers: h,
    });
  expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
  await t.services.comparisons.whenIdle();
  return { owner, h, id: c.id as string };
}

test("each latest snapshot's filmstrip is listed with frame times and served as JPEG", async () => {
  const t = setup();
  const { h, id, owner } = await completed(t);
  const snaps = (await t.call("GET", `/api/comparisons/${id}/snapshots`, { headers: h })).json as {
    id: string;
    targetId: string;
    viewport: string;
  }[];
  const list = await t.call("GET", `/api/comparisons/${id}/filmstrips`, { headers: h });
  expect(list.status).toBe(200);
  expect(list.json).toHaveLength(4);
  expect(new Set(list.json.map((f: any) => f.snapshotId))).toEqual(new Set(snaps.map((s) => s.id)));
  const first = list.json[0];
  expect(first.width).toBe(1440);
  expect(first.frames).toEqual([
    { ms: 120, url: `/api/snapshots/${first.snapshotId}/filmstrip/0` },
    { ms: 480, url: `/api/snapshots/${first.snapshotId}/filmstrip/1` },
  ]);
  const res = await t.app.handle(new Request(`http://localhost${first.frames[1].url}`, { headers: h }));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/jpeg");
  expect(Buffer.from(await res.arrayBuffer())).toEqual(JPEG(2));
  // <img> tags send the session cookie instead of a bearer token.
  expect((await t.call("GET", first.frames[0].url, { headers: { cookie: owner.cookie } })).status).toBe(200);

  expect((await t.call("GET", `/api/snapshots/${first.snapshotId}/filmstrip/2`, { headers: h })).json).toEqual({
    error: "Filmstrip frame not found",
  });
  expect((await t.call("GET", `/api/snapshots/${first.snapshotId}/filmstrip/x`, { headers: h })).status).toBe(400);
  expect((await t.call("GET", `/api/snapshots/${first.snapshotId}/filmstrip/-1`, { headers: h })).status).toBe(400);
  expect((await t.call("GET", `/api/snapshots/nope/filmstrip/0`, { headers: h })).status).toBe(404);
});

test("another user's comparison or frame is a 404; no session is a 401", async () => {
  const t = setup();
  const { h, id } = await completed(t);
  const frame = (await t.call("GET", `/api/comparisons/${id}/filmstrips`, { headers: h })).json[0].frames[0].url as string;
  const intruder = await t.signup();
  const ih = t.auth(intruder.token);
  expect((await t.call("GET", `/api/comparisons/${id}/filmstrips`, { headers: ih })).json).toEqual({ error: "Comparison not found" });
  expect((await t.call("GET", frame, { headers: ih })).status).toBe(404);
  expect((await t.call("GET", frame, { headers: { cookie: intruder.cookie } })).status).toBe(404);
  expect((await t.call("GET", frame)).status).toBe(401);
  expect((await t.call("GET", `/api/comparisons/${id}/filmstrips`)).status).toBe(401);
});

test("a recording without a manifest is not listed; an orphaned one is pruned once old", async () => {
  const t = setup();
  const { h, id } = await completed(t);
  const list = (await t.call("GET", `/api/comparisons/${id}/filmstrips`, { headers: h })).json;
  const snap = list[0].snapshotId as string;
  const snaps = (await t.call("GET", `/api/comparisons/${id}/snapshots`, { headers: h })).json as { id: string; screenshotUrl: string }[];
  expect(snaps.length).toBe(4);
  // Find the comparison's folder from a recording that exists.
  const glob = new Bun.Glob(`screenshots/*/*/filmstrips/${snap}/${MANIFEST_FILE}`);
  const [manifestPath] = [...glob.scanSync({ cwd: t.dataDir })];
  const filmstrips = join(t.dataDir, manifestPath!, "../..");
  rmSync(join(filmstrips, snap, MANIFEST_FILE));
  expect((await t.call("GET", `/api/comparisons/${id}/filmstrips`, { headers: h })).json).toHaveLength(3);

  const orphan = join(filmstrips, "ghost-snapshot");
  mkdirSync(orphan);
  const fresh = join(filmstrips, "capturing-now");
  mkdirSync(fresh);
  const old = new Date(Date.now() - 2 * 3600_000);
  utimesSync(orphan, old, old);
  await t.call("GET", `/api/comparisons/${id}/filmstrips`, { headers: h });
  const { waitFor } = await import("#tests/support/wait");
  await waitFor("the orphan to go", () => !existsSync(orphan), 5000);
  expect(existsSync(fresh)).toBe(true); // a capture still under way keeps its recording
});

test("the routes are in the OpenAPI document", async () => {
  const t = setup();
  const doc = (await t.call("GET", "/api/openapi.json")).json;
  expect(Object.keys(doc.paths)).toEqual(
    expect.arrayContaining(["/api/comparisons/{id}/filmstrips", "/api/snapshots/{id}/filmstrip/{frame}"]),
  );
});
