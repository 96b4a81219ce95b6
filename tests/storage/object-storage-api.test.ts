// STORAGE_URL through the API, with the fake run tools (tests/api/comparisons-support.ts) and an
// S3 server on 127.0.0.1: screenshots go to the bucket under their content hash and nothing to
// DATA_DIR; images reach their owner only, streamed from the bucket; changes and the heat map read
// from it; retention and deletion delete the objects; a lost store is a 503 in its own words and
// readiness names it; backups go to the bucket. Each test keeps its keys under its own prefix.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { OBJECT_STORE_UNAVAILABLE_MESSAGE } from "#server/http/storage-errors";
import { makeTestApp, TEST_ON_POSTGRES } from "#tests/support/app";
import { useS3Server } from "#tests/support/s3-server";
import { waitFor } from "#tests/support/wait";
import { fakeRunTools, pngBytes } from "#tests/api/comparisons-support";

const s3 = useS3Server();

const URL_A = "http://127.0.0.1:9/alpha";
const URL_B = "http://127.0.0.1:9/beta";
type Rgb = [number, number, number];
const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
const pictures = (rgb: Rgb) => [pngBytes(48, 40, rgb), pngBytes(13, 40, rgb)];
const hashesOf = (rgb: Rgb) => pictures(rgb).map((b) => sha256(b));

/** Every file under a folder, relative to it. */
const filesUnder = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name))
    : [];

let prefixes = 0;
/** An app keeping its files in the bucket under a prefix of its own, with fake captures painted per site. */
function setup(env: Record<string, string> = {}, clock = { offsetMs: 0 }) {
  const dataDir = s3.tempDir();
  const prefix = `t${++prefixes}-${crypto.randomUUID().slice(0, 6)}`;
  const fake = fakeRunTools({});
  const paint: Record<string, Rgb> = {};
  const capture = fake.tools.capture!;
  fake.tools.capture = async (ownerId, job, onStage) => {
    const r = await capture(ownerId, job, onStage);
    const rgb = paint[job.url];
    if (r.ok && rgb) await Bun.write(job.screenshotPath, pngBytes(job.viewport === "desktop" ? 48 : 13, 40, rgb));
    return r;
  };
  const t = makeTestApp({
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1", ...s3.env(prefix), ...env },
    runTools: fake.tools,
    captureReadiness: () => ({ available: true, browsers: 1, concurrency: 1, onDemand: false }),
    now: () => Date.now() + clock.offsetMs,
  });
  const workDir = t.services.storage.workDir!;
  s3.cleanUp(workDir);
  /** The app's keys in the bucket (its prefix left off), sorted. */
  const keys = async () => (await s3.keys()).filter((k) => k.startsWith(`${prefix}/`)).map((k) => k.slice(prefix.length + 1));
  const bucket = new Bun.S3Client({ ...s3.settings(), bucket: s3.bucket });
  const object = async (key: string) => new Uint8Array(await bucket.file(`${prefix}/${key}`).arrayBuffer());
  const putObject = (key: string, data: string | Uint8Array) => bucket.write(`${prefix}/${key}`, data);
  return { ...t, dataDir, workDir, prefix, paint, keys, object, putObject };
}

async function comparison(t: ReturnType<typeof setup>) {
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Rivals" }, headers: h })).json;
  const targets = [];
  for (const [url, label] of [
    [URL_A, "Alpha"],
    [URL_B, "Beta"],
  ])
    targets.push((await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: h })).json);
  const get = (path = "", headers = h) => t.call("GET", `/api/comparisons/${c.id}${path}`, { headers });
  const run = async () => {
    expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
    await t.services.comparisons.whenIdle();
  };
  const folder = `screenshots/${u.user.id}/${c.id}/`;
  return { u, h, c, targets, get, run, folder };
}

const image = async (t: ReturnType<typeof setup>, url: string, headers: Record<string, string>) => {
  const res = await t.app.handle(new Request(`http://localhost${url}`, { headers }));
  return { status: res.status, type: res.headers.get("content-type"), bytes: new Uint8Array(await res.arrayBuffer()) };
};

describe("object storage (STORAGE_URL=s3://…)", () => {
  test("a run's screenshots are in the bucket under their content hash, none under DATA_DIR; served to their owner only", async () => {
    const t = setup();
    const x = await comparison(t);
    t.paint[URL_A] = [10, 20, 30];
    t.paint[URL_B] = [40, 50, 60];
    await x.run();
    expect((await x.get()).json.status).toBe("completed");

    const expected = [...hashesOf([10, 20, 30]), ...hashesOf([40, 50, 60])].map((h) => `${x.folder}${h}.png`).sort();
    expect(await t.keys()).toEqual(expected);
    expect(filesUnder(t.dataDir).filter((f) => /\.(png|jpg)$/.test(f))).toEqual([]);
    expect(existsSync(join(t.dataDir, "screenshots"))).toBe(false);
    // The working copies went with the run.
    expect(filesUnder(t.workDir)).toEqual([]);

    const snaps = (await x.get("/snapshots")).json;
    expect(snaps).toHaveLength(4);
    for (const s of snaps) {
      const served = await image(t, s.screenshotUrl, { cookie: x.u.cookie });
      expect(served.status).toBe(200);
      expect(served.type).toBe("image/png");
      expect(await t.keys()).toContain(`${x.folder}${sha256(served.bytes)}.png`);
    }
    const first = await image(t, snaps[0].screenshotUrl, x.h);
    expect(first.bytes).toEqual(await t.object(`${x.folder}${sha256(first.bytes)}.png`));

    // Someone else's session or token gets a 404, no session a 401: the ownership check stands in front of the bucket.
    const intruder = await t.signup();
    expect((await image(t, snaps[0].screenshotUrl, { cookie: intruder.cookie })).status).toBe(404);
    expect((await image(t, snaps[0].screenshotUrl, t.auth(intruder.token))).status).toBe(404);
    expect((await image(t, snaps[0].screenshotUrl, {})).status).toBe(401);

    // The HTML export inlines them from the bucket.
    const html = (await x.get("/export?format=html")).text;
    expect(html).toContain(`data:image/png;base64,${Buffer.from(first.bytes).toString("base64")}`);
  });

  test("identical captures are one object; changes and the heat map are computed from the bucket", async () => {
    const t = setup();
    const x = await comparison(t);
    t.paint[URL_A] = [10, 20, 30];
    t.paint[URL_B] = [40, 50, 60];
    await x.run();
    await x.run();
    expect(await t.keys()).toHaveLength(4);
    t.paint[URL_B] = [200, 200, 10];
    await x.run();
    expect(await t.keys()).toHaveLength(6);

    const changes = (await x.get("/changes")).json;
    const beta = changes.targets.find((c: { targetId: string }) => c.targetId === x.targets[1].id);
    expect(beta.changes.some((c: { kind: string }) => c.kind === "visual")).toBe(true);
    const heat = await image(t, `/api/comparisons/${x.c.id}/changes/visual?targetId=${x.targets[1].id}&viewport=desktop`, x.h);
    expect(heat.status).toBe(200);
    expect(heat.type).toBe("image/png");
    expect([...heat.bytes.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    // The copies the pixels worker read are gone.
    expect(filesUnder(t.workDir)).toEqual([]);
  });

  test("retention deletes the objects only pruned runs named; deleting the comparison deletes the rest", async () => {
    const t = setup({ HISTORY_KEEP: "2" });
    const x = await comparison(t);
    t.paint[URL_B] = [9, 9, 9]; // Beta never changes: every run shares its objects.
    const beta = hashesOf([9, 9, 9]).map((h) => `${x.folder}${h}.png`);
    const of = (rgb: Rgb) => hashesOf(rgb).map((h) => `${x.folder}${h}.png`);

    t.paint[URL_A] = [1, 1, 1];
    await x.run();
    t.paint[URL_A] = [2, 2, 2];
    await x.run();
    expect(await t.keys()).toEqual([...beta, ...of([1, 1, 1]), ...of([2, 2, 2])].sort());
    t.paint[URL_A] = [3, 3, 3];
    await x.run();
    // Run 1 went, and with it the only objects it named; Beta's are still named by the kept runs.
    expect((await x.get("/runs")).json.map((r: { number: number }) => r.number)).toEqual([3, 2]);
    expect(await t.keys()).toEqual([...beta, ...of([2, 2, 2]), ...of([3, 3, 3])].sort());

    expect((await t.call("DELETE", `/api/comparisons/${x.c.id}`, { headers: x.h })).status).toBe(200);
    expect(await t.keys()).toEqual([]);
  });

  test("the boot sweep removes objects no snapshot names once an hour old, and filmstrips of snapshots that are gone", async () => {
    const clock = { offsetMs: 0 };
    const t = setup({}, clock);
    const x = await comparison(t);
    t.paint[URL_A] = [10, 20, 30];
    await x.run();
    const snap = (await x.get("/snapshots")).json[0];
    const kept = await t.keys();
    const orphan = `${x.folder}${"ab".repeat(32)}.png`;
    const orphanFilm = [`${x.folder}filmstrips/ghost-snapshot/000.jpg`, `${x.folder}filmstrips/ghost-snapshot/manifest.json`];
    const liveFilm = `${x.folder}filmstrips/${snap.id}/manifest.json`;
    for (const k of [orphan, ...orphanFilm, liveFilm]) await t.putObject(k, "x");

    // Within the hour another server sharing the bucket may be about to write their rows: all stay.
    expect(await t.services.comparisons.sweepScreenshots()).toBe(0);
    expect(await t.keys()).toEqual([...kept, orphan, ...orphanFilm, liveFilm].sort());
    clock.offsetMs = 2 * 3600_000;
    expect(await t.services.comparisons.sweepScreenshots()).toBe(1);
    expect(await t.keys()).toEqual([...kept, liveFilm].sort());
  });

  test("a delete the store cannot take leaves an object the boot sweep removes later; nothing waits on it", async () => {
    const clock = { offsetMs: 0 };
    const t = setup({}, clock);
    const x = await comparison(t);
    const gamma = (
      await t.call("POST", `/api/comparisons/${x.c.id}/targets`, {
        body: { url: "http://127.0.0.1:9/gamma", label: "Gamma" },
        headers: x.h,
      })
    ).json;
    t.paint[URL_A] = [10, 20, 30];
    t.paint[URL_B] = [40, 50, 60];
    t.paint["http://127.0.0.1:9/gamma"] = [70, 80, 90];
    await x.run();
    const gammaKeys = hashesOf([70, 80, 90]).map((h) => `${x.folder}${h}.png`);
    expect(await t.keys()).toEqual(expect.arrayContaining(gammaKeys));

    await s3.stop();
    try {
      expect((await t.call("DELETE", `/api/targets/${gamma.id}`, { headers: x.h })).status).toBeLessThan(300);
      await t.services.comparisons.whenIdle();
    } finally {
      await s3.start();
    }
    expect(await t.keys()).toEqual(expect.arrayContaining(gammaKeys));
    clock.offsetMs = 2 * 3600_000;
    expect(await t.services.comparisons.sweepScreenshots()).toBe(2);
    expect(await t.keys()).toHaveLength(4);
  });

  test("a lost store: 503 in its own words where files are needed, readiness names the store; all back when it is", async () => {
    const t = setup();
    const x = await comparison(t);
    t.paint[URL_A] = [10, 20, 30];
    await x.run();
    const snap = (await x.get("/snapshots")).json[0];
    const ready = () => t.call("GET", "/api/health/ready");
    const where = `s3 ${s3.endpoint}/${s3.bucket}/${t.prefix}`;
    expect((await ready()).json.checks.storage).toEqual({ ok: true, detail: where });

    await s3.stop();
    try {
      const lost = await t.call("GET", snap.screenshotUrl, { headers: x.h });
      expect(lost.status).toBe(503);
      expect(lost.json).toEqual({ error: OBJECT_STORE_UNAVAILABLE_MESSAGE });
      expect(lost.headers.get("retry-after")).toBe("30");
      expect((await x.get("/export?format=html")).status).toBe(503);
      const notReady = await waitFor(
        "readiness to see the store gone",
        async () => ((await ready()).status === 503 ? ready() : null),
        5000,
      );
      expect(notReady.json.checks.storage.ok).toBe(false);
      expect(notReady.json.checks.storage.detail).toMatch(
        new RegExp(`^${where.replace(/[.]/g, "\\.")}: write \\.ready-probe-\\d+ failed \\(ConnectionRefused\\)$`),
      );
      expect(notReady.json.error).toStartWith("storage: ");

      // A run meanwhile fails its pages with the reason, not a 500 or a hang.
      t.paint[URL_A] = [11, 21, 31];
      await x.run();
      const failed = (await x.get()).json;
      expect(failed.status).toBe("failed");
      expect((await x.get("/targets")).json.map((g: { error: string }) => g.error)).toEqual([
        OBJECT_STORE_UNAVAILABLE_MESSAGE,
        OBJECT_STORE_UNAVAILABLE_MESSAGE,
      ]);
    } finally {
      await s3.start();
    }
    await waitFor("readiness to see the store back", async () => (await ready()).status === 200, 5000);
    expect((await image(t, snap.screenshotUrl, x.h)).status).toBe(200);
    await x.run();
    expect((await x.get()).json.status).toBe("completed");
    expect(filesUnder(t.workDir)).toEqual([]);
  });

  test("a store that does not answer: readiness says so within seconds, and does not pile up probes", async () => {
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      const t = setup({ S3_ENDPOINT: `http://127.0.0.1:${silent.port}` });
      const where = `s3 http://127.0.0.1:${silent.port}/${s3.bucket}/${t.prefix}`;
      let started = Date.now();
      const first = await t.call("GET", "/api/health/ready");
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(first.status).toBe(503);
      expect(first.json.checks.storage).toEqual({ ok: false, detail: `${where}: no answer in 3 s` });
      await Bun.sleep(1100);
      started = Date.now();
      const again = await t.call("GET", "/api/health/ready");
      expect(Date.now() - started).toBeLessThan(1000);
      expect(again.json.checks.storage).toEqual({ ok: false, detail: `${where}: no answer in 3 s` });
    } finally {
      silent.stop(true);
    }
  });

  // SQLite's own copies: on PostgreSQL backups are pg_dump's (tests/api/admin-routes.test.ts).
  test.skipIf(TEST_ON_POSTGRES)(
    "backups are made in the working folder and kept in the bucket; listed, counted and downloaded from it",
    async () => {
      const t = setup({ BACKUP_KEEP: "2" });
      const admin = await t.signup(); // the first account is the admin
      const h = t.auth(admin.token);
      const names: string[] = [];
      for (let i = 0; i < 3; i++) {
        const made = await t.call("POST", "/api/admin/backups", { headers: h });
        expect(made.status).toBe(201);
        expect(made.json.backup.size).toBeGreaterThan(0);
        names.push(made.json.backup.name);
      }
      // The newest BACKUP_KEEP are kept.
      expect(await t.keys()).toEqual(names.slice(1).map((n) => `backups/${n}`));
      expect(existsSync(join(t.dataDir, "backups"))).toBe(false);
      expect(filesUnder(t.workDir)).toEqual([]);
      const listed = (await t.call("GET", "/api/admin/backups", { headers: h })).json.backups;
      expect(listed.map((b: { name: string }) => b.name)).toEqual(names.slice(1).reverse());
      expect((await t.call("GET", "/api/admin/database-stats", { headers: h })).json).toMatchObject({
        backupCount: 2,
        backupStatus: "healthy",
      });
      const download = await t.app.handle(new Request(`http://localhost/api/admin/backups/${names[2]}`, { headers: h }));
      expect(download.status).toBe(200);
      const bytes = new Uint8Array(await download.arrayBuffer());
      expect(new TextDecoder().decode(bytes.slice(0, 15))).toBe("SQLite format 3");
      expect(bytes).toEqual(await t.object(`backups/${names[2]}`));
    },
  );
});
