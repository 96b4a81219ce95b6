// One real comparison run with STORAGE_URL set: system Chromium captures the fixture sites on
// 127.0.0.1, and the screenshots and filmstrips land in an S3 bucket on 127.0.0.1 (s3rver), none
// under DATA_DIR. Images and frames reach their owner through the ownership check, streamed from
// the bucket; removing a website and deleting the comparison delete their objects.
import { expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp } from "#tests/support/app";
import { useRealRunTools } from "#tests/support/real-run-tools";
import { useS3Server } from "#tests/support/s3-server";

const real = useRealRunTools("objects-real");
const s3 = useS3Server();

const filesUnder = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name))
    : [];
const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

test("a real run keeps its screenshots and filmstrips in the bucket, none under DATA_DIR, and serves them to their owner only", async () => {
  const t = makeTestApp({ env: { DATA_DIR: real.dataDir, ALLOW_PRIVATE_TARGETS: "1", ...s3.env("real") }, runTools: real.runTools() });
  const workDir = t.services.storage.workDir!;
  s3.cleanUp(workDir);
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Orbit vs Ember" }, headers: h })).json;
  const add = (url: string, label: string) => t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: h });
  const orbit = (await add(real.fixtures.url("/alpha/"), "Orbit")).json;
  const ember = (await add(real.fixtures.url("/beta/"), "Ember")).json;
  expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
  await t.services.comparisons.whenIdle();
  expect((await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json).toMatchObject({ status: "completed", error: null });

  const folder = `real/screenshots/${u.user.id}/${c.id}/`;
  const keys = () => s3.keys().then((all) => all.filter((k) => k.startsWith(folder)).map((k) => k.slice(folder.length)));
  const stored = await keys();
  const pngs = stored.filter((k) => /^[0-9a-f]{64}\.png$/.test(k));
  expect(pngs).toHaveLength(4);
  // Each snapshot's load filmstrip went with it: its frames and, last, its manifest.
  const snaps = (await t.call("GET", `/api/comparisons/${c.id}/snapshots`, { headers: h })).json as { id: string; screenshotUrl: string }[];
  for (const s of snaps) expect(stored).toContain(`filmstrips/${s.id}/manifest.json`);
  expect(stored.some((k) => /^filmstrips\/[^/]+\/\d{3}\.jpg$/.test(k))).toBe(true);

  // Nothing under DATA_DIR but the database's own files; nothing left in the working folder.
  expect(filesUnder(real.dataDir).filter((f) => /\.(png|jpg|json)$/.test(f))).toEqual([]);
  expect(existsSync(join(real.dataDir, "screenshots"))).toBe(false);
  expect(filesUnder(workDir)).toEqual([]);

  const intruder = await t.signup();
  for (const s of snaps) {
    const res = await t.app.handle(new Request(`http://localhost${s.screenshotUrl}`, { headers: { cookie: u.cookie } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(pngs).toContain(`${sha256(new Uint8Array(await res.arrayBuffer()))}.png`);
    expect((await t.app.handle(new Request(`http://localhost${s.screenshotUrl}`, { headers: { cookie: intruder.cookie } }))).status).toBe(
      404,
    );
  }

  const strips = (await t.call("GET", `/api/comparisons/${c.id}/filmstrips`, { headers: h })).json;
  expect(strips).toHaveLength(4);
  const frame = await t.app.handle(new Request(`http://localhost${strips[0].frames[0].url}`, { headers: { cookie: u.cookie } }));
  expect(frame.status).toBe(200);
  expect(frame.headers.get("content-type")).toBe("image/jpeg");
  expect([...new Uint8Array(await frame.arrayBuffer()).slice(0, 2)]).toEqual([0xff, 0xd8]);
  expect((await t.app.handle(new Request(`http://localhost${strips[0].frames[0].url}`, { headers: t.auth(intruder.token) }))).status).toBe(
    404,
  );

  // Removing a website deletes the screenshots only it named; deleting the comparison, everything.
  const emberShots = (await t.call("GET", `/api/comparisons/${c.id}/snapshots`, { headers: h })).json.filter(
    (s: { targetId: string }) => s.targetId === ember.id,
  );
  const emberKeys = [];
  for (const s of emberShots) {
    const res = await t.app.handle(new Request(`http://localhost${s.screenshotUrl}`, { headers: h }));
    emberKeys.push(`${sha256(new Uint8Array(await res.arrayBuffer()))}.png`);
  }
  expect((await t.call("DELETE", `/api/targets/${ember.id}`, { headers: h })).status).toBeLessThan(300);
  await t.services.comparisons.whenIdle();
  const left = await keys();
  for (const k of emberKeys) expect(left).not.toContain(k);
  expect(left.filter((k) => k.endsWith(".png"))).toHaveLength(2);
  expect(orbit.id).toBeString();

  expect((await t.call("DELETE", `/api/comparisons/${c.id}`, { headers: h })).status).toBe(200);
  expect(await keys()).toEqual([]);
}, 240_000);
