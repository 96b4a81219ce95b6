// One comparison run end to end with the real run tools: the capture pool drives system Chromium
// against the fixture sites on 127.0.0.1, the analyse worker scores the pairs and the rules write
// findings. Everything is read back through the API, as the results page does.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { LiveHub } from "#server/live/hub";
import type { ComparisonActivity } from "#server/modules/comparisons/active-runs";
import { makeTestApp } from "#tests/support/app";
import { useRealRunTools } from "#tests/support/real-run-tools";
import { recordingSocket } from "./comparisons-support";

const real = useRealRunTools("real");

test("a real run: alpha vs beta (plus a missing page) captured, scored, explained and exported", async () => {
  const hub = new LiveHub();
  const activity: ComparisonActivity[] = [];
  const t = makeTestApp({
    env: { DATA_DIR: real.dataDir, ALLOW_PRIVATE_TARGETS: "1" },
    runTools: real.runTools({ publish: (m, to) => hub.publish(m, to), recordActivity: (e) => activity.push(e) }),
  });
  const u = await t.signup();
  const h = t.auth(u.token);
  const socket = recordingSocket(u.user.id);
  hub.add(socket);

  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Orbit vs Ember" }, headers: h })).json;
  const add = (url: string, label: string) => t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: h });
  expect((await add(real.fixtures.url("/alpha/"), "Orbit")).status).toBe(201);
  expect((await add(real.fixtures.url("/beta/"), "Ember")).status).toBe(201);
  // A site that answers but has no server (port 9 on loopback refuses): it fails, the run still completes.
  expect((await add("http://127.0.0.1:9/", "Gone")).status).toBe(201);

  expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
  await t.services.comparisons.whenIdle();

  const done = (await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json;
  expect(done).toMatchObject({ status: "completed", error: null, progress: { done: 6, total: 6, stage: "Completed" } });
  const targets = (await t.call("GET", `/api/comparisons/${c.id}/targets`, { headers: h })).json;
  expect(targets.map((x: any) => x.status)).toEqual(["completed", "completed", "failed"]);
  expect(targets[2].error).toBeString();
  expect(targets[2].error.length).toBeGreaterThan(0);

  const snaps = (await t.call("GET", `/api/comparisons/${c.id}/snapshots`, { headers: h })).json;
  expect(snaps.map((s: any) => [s.targetId, s.viewport])).toEqual([
    [targets[0].id, "desktop"],
    [targets[0].id, "mobile"],
    [targets[1].id, "desktop"],
    [targets[1].id, "mobile"],
  ]);
  expect(snaps[0].title).toBe("Orbit — Plan launches your whole team can follow");
  expect(snaps[2].title).toBe("Ember Roasters | Small-batch coffee roasted over fire");
  for (const s of snaps) {
    expect(s.colors.length).toBeGreaterThan(0);
    expect(s.colors.every((hex: string) => /^#[0-9a-f]{6}$/.test(hex))).toBe(true);
    expect(s.height).toBeGreaterThan(400);
    // Stored once by content hash inside the owner's comparison folder (the history layout).
    const file = await t.services.comparisons.screenshotPath(u.user.id, s.id);
    expect(file.startsWith(join(real.dataDir, "screenshots", u.user.id, c.id))).toBe(true);
    expect(existsSync(file)).toBe(true);
  }
  expect(snaps[0].width).toBeGreaterThan(snaps[1].width);
  expect(snaps[0].colors).not.toEqual(snaps[2].colors);

  const img = await t.app.handle(new Request(`http://localhost${snaps[0].screenshotUrl}`, { headers: { cookie: u.cookie } }));
  expect(img.status).toBe(200);
  expect(img.headers.get("content-type")).toBe("image/png");

  // One pair (Orbit, Ember) per viewport; two different brands are clearly not alike.
  const diffs = (await t.call("GET", `/api/comparisons/${c.id}/diffs`, { headers: h })).json;
  expect(diffs.map((d: any) => [d.viewport, d.targetAId, d.targetBId])).toEqual([
    ["desktop", targets[0].id, targets[1].id],
    ["mobile", targets[0].id, targets[1].id],
  ]);
  for (const d of diffs) {
    for (const k of ["colorSimilarity", "layoutSimilarity", "contentSimilarity", "overallSimilarity"]) {
      expect(d[k]).toBeGreaterThanOrEqual(0);
      expect(d[k]).toBeLessThanOrEqual(1);
    }
    expect(d.overallSimilarity).toBeLessThan(0.8);
    expect(Object.keys(d.components).length).toBeGreaterThan(0);
  }

  const findings = (await t.call("GET", `/api/comparisons/${c.id}/findings`, { headers: h })).json;
  expect(findings.length).toBeGreaterThan(0);
  for (const f of findings) {
    expect([targets[0].id, targets[1].id]).toContain(f.targetId);
    expect(Object.keys(f.evidence).length).toBeGreaterThan(0);
    expect(f.fix.length).toBeGreaterThan(0);
  }

  // Progress went up page by page to the owner's socket, then the final status.
  const progress = socket.received.filter((m) => m.type === "COMPARISON_PROGRESS").map((m) => m.payload.progress);
  expect(new Set(progress.map((p: any) => p.done))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6]));
  expect(progress.some((p: any) => p.stage.includes("Orbit · desktop"))).toBe(true);
  expect(progress.some((p: any) => p.stage.startsWith("Scoring Orbit vs Ember"))).toBe(true);
  expect(socket.received.at(-1)).toMatchObject({ type: "COMPARISON_STATUS", payload: { status: "completed" } });
  expect(activity.map((a) => a.status)).toEqual(["info", "warning"]);

  const report = await t.call("GET", `/api/comparisons/${c.id}/export?format=html`, { headers: h });
  expect(report.status).toBe(200);
  expect(report.text.match(/src="data:image\/png;base64,/g)?.length).toBe(4);
  expect(report.text).toContain("Orbit — Plan launches your whole team can follow");
  expect(report.text).not.toContain("<script");
  if (process.env.KEEP_REPORT) await Bun.write(process.env.KEEP_REPORT, report.text);

  expect((await t.call("DELETE", `/api/comparisons/${c.id}`, { headers: h })).status).toBe(200);
  expect(existsSync(join(real.dataDir, "screenshots", u.user.id, c.id))).toBe(false);
}, 240_000);
