import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LiveHub } from "#server/live/hub";
import { sqliteSql } from "#server/db/sql";
import { comparisonsService } from "#server/modules/comparisons/service";
import { INTERRUPTED_REASON } from "#server/modules/comparisons/active-runs";
import { makeTestApp } from "#tests/support/app";
import { fakeRunTools, recordingSocket } from "./comparisons-support";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const URL_A = "http://127.0.0.1:9/alpha";
const URL_B = "http://127.0.0.1:9/beta";
const URL_C = "http://127.0.0.1:9/gamma";
const THREE_SITES: [string, string][] = [
  [URL_A, "Alpha"],
  [URL_B, "Beta"],
  [URL_C, "Gamma"],
];

function setup(sites: Parameters<typeof fakeRunTools>[0] = {}, now?: () => number, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "di-run-"));
  dirs.push(dataDir);
  const fake = fakeRunTools(sites);
  const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1", ...env }, runTools: fake.tools, now });
  return { ...t, tools: t.tools!, fake, dataDir };
}

async function comparisonWith(t: ReturnType<typeof setup>, urls: [string, string][], name = "Rivals") {
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name }, headers: h })).json;
  const targets = [];
  for (const [url, label] of urls)
    targets.push((await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: h })).json);
  const get = async (path = "") => (await t.call("GET", `/api/comparisons/${c.id}${path}`, { headers: h })).json;
  const start = () => t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h });
  return { u, h, c, targets, get, start };
}

const pngsUnder = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".png")) : [];

describe("comparison runs: status machine", () => {
  test("all websites captured: completed with snapshots, diffs per pair and viewport, findings, live progress and activity", async () => {
    const t = setup({ [URL_B]: { hex: "#3366ff" }, [URL_C]: { hex: "#00aa00" } });
    const hub = new LiveHub();
    t.tools.publish = (m, to) => hub.publish(m, to);
    const x = await comparisonWith(t, THREE_SITES);
    const mine = recordingSocket(x.u.user.id);
    const stranger = recordingSocket("someone-else");
    const admin = recordingSocket("admin-id", "admin");
    hub.add(mine);
    hub.add(stranger);
    hub.add(admin);

    const r = await x.start();
    expect(r.status).toBe(202);
    expect(r.json).toMatchObject({ status: "running", progress: { done: 0, total: 6 } });
    await t.services.comparisons.whenIdle();

    const c = await x.get();
    expect(c).toMatchObject({ status: "completed", error: null, progress: { done: 6, total: 6, stage: "Completed" } });
    expect(c.startedAt).toBeString();
    expect(c.completedAt).toBeString();
    const targets = await x.get("/targets");
    expect(targets.map((tg: any) => [tg.label, tg.status])).toEqual([
      ["Alpha", "completed"],
      ["Beta", "completed"],
      ["Gamma", "completed"],
    ]);

    const snaps = await x.get("/snapshots");
    expect(snaps.map((s: any) => [s.targetId, s.viewport])).toEqual(
      x.targets.flatMap((tg: any) => [
        [tg.id, "desktop"],
        [tg.id, "mobile"],
      ]),
    );
    expect(snaps[0]).toMatchObject({ title: `Title of ${URL_A}`, colors: ["#3366ff", "#ffffff"], width: 48, height: 40 });
    expect(snaps[1]).toMatchObject({ width: 13, height: 40, screenshotUrl: `/api/snapshots/${snaps[1].id}/screenshot` });
    expect(snaps[0].extraction.viewport).toBe("desktop");

    // 3 pairs x 2 viewports, desktop first, pairs in createdAt order.
    const diffs = await x.get("/diffs");
    const [a, b, g] = x.targets.map((tg: any) => tg.id);
    expect(diffs.map((d: any) => [d.viewport, d.targetAId, d.targetBId])).toEqual([
      ["desktop", a, b],
      ["desktop", a, g],
      ["desktop", b, g],
      ["mobile", a, b],
      ["mobile", a, g],
      ["mobile", b, g],
    ]);
    expect(diffs[0]).toMatchObject({ colorSimilarity: 0.9, layoutSimilarity: 0.5, contentSimilarity: 0.25, components: { palette: 0.9 } });
    expect(diffs[1].colorSimilarity).toBe(0.4);

    const findings = await x.get("/findings");
    expect(findings.length).toBe(6);
    expect(findings[0]).toMatchObject({
      group: "design",
      targetId: a,
      title: `Check Title of ${URL_A}`,
      evidence: { "Alpha title": `Title of ${URL_A}` },
    });

    // Live updates reach the owner only, and end with the completed status.
    expect(stranger.received).toEqual([]);
    expect(admin.received).toEqual([]);
    const types = new Set(mine.received.map((m) => m.type));
    expect(types).toEqual(new Set(["COMPARISON_STATUS", "COMPARISON_PROGRESS"]));
    expect(mine.received.at(-1)).toMatchObject({ type: "COMPARISON_STATUS", payload: { comparisonId: x.c.id, status: "completed" } });
    const dones = mine.received.filter((m) => m.type === "COMPARISON_PROGRESS").map((m) => m.payload.progress.done);
    expect(dones).toContain(3);
    expect(Math.max(...dones)).toBe(6);
    expect(mine.received.some((m) => m.payload.targetStatus === "completed")).toBe(true);

    expect(t.fake.activity.map((e) => [e.type, e.status, e.userId])).toEqual([
      ["comparison", "info", x.u.user.id],
      ["comparison", "success", x.u.user.id],
    ]);
    expect(t.fake.activity[1]!.message).toBe('Comparison "Rivals" completed');
    expect(t.fake.calls.every((call) => call.ownerId === x.u.user.id)).toBe(true);
  });

  test("one of three fails: still completed with 2 of 3, the failed one says why", async () => {
    const t = setup({ [URL_C]: { fail: { reason: "DNS lookup failed for gamma" } } });
    const x = await comparisonWith(t, THREE_SITES);
    await x.start();
    await t.services.comparisons.whenIdle();
    expect(await x.get()).toMatchObject({ status: "completed", error: null });
    const targets = await x.get("/targets");
    expect(targets.map((tg: any) => [tg.status, tg.error])).toEqual([
      ["completed", null],
      ["completed", null],
      ["failed", "DNS lookup failed for gamma"],
    ]);
    const diffs = await x.get("/diffs");
    expect(diffs.length).toBe(2);
    expect((await x.get("/snapshots")).length).toBe(4);
    expect(t.fake.activity.at(-1)).toMatchObject({ status: "warning" });
  });

  test("a lane's pairs go to the analyser as many at once as it takes (one when it does not say), one failing pair skipped", async () => {
    for (const concurrency of [undefined, 2, 4]) {
      const t = setup({ [URL_B]: { hex: "#3366ff" }, [URL_C]: { hex: "#00aa00" } });
      const score = t.tools.analyser!.scorePair.bind(t.tools.analyser);
      // Per lane (desktop, mobile): lanes are scored beside each other.
      const inFlight = new Map<string, number>();
      const started = new Map<string, number>();
      const expected = Math.min(concurrency ?? 1, 3);
      let most = 0;
      let calls = 0;
      t.tools.analyser = {
        concurrency,
        async scorePair(aPath, a, bPath, b) {
          const first = ++calls === 1;
          const lane = a.viewport;
          inFlight.set(lane, (inFlight.get(lane) ?? 0) + 1);
          started.set(lane, (started.get(lane) ?? 0) + 1);
          most = Math.max(most, inFlight.get(lane)!);
          // Held until as many pairs as the analyser takes were handed over (however slowly a busy
          // machine hands them), or 5 s: a run that hands fewer keeps `most` below the expected.
          const until = Date.now() + 5_000;
          while ((started.get(lane) ?? 0) < expected && Date.now() < until) await Bun.sleep(5);
          // Then a moment more, so a pair handed over beyond the limit would be seen in flight beside them.
          await Bun.sleep(30);
          inFlight.set(lane, inFlight.get(lane)! - 1);
          if (first) throw new Error("worker lost");
          return score(aPath, a, bPath, b);
        },
      };
      const x = await comparisonWith(t, THREE_SITES);
      await x.start();
      await t.services.comparisons.whenIdle();
      expect((await x.get()).status).toBe("completed");
      // 3 pairs a lane, 2 lanes: each pair asked once, the failed one left out of the results.
      expect(calls).toBe(6);
      expect((await x.get("/diffs")).length).toBe(5);
      expect(most).toBe(Math.min(concurrency ?? 1, 3));
    }
  });

  test("a target with one viewport captured counts as captured", async () => {
    const t = setup({ [URL_B]: { fail: { reason: "Mobile timed out", viewports: ["mobile"] } } });
    const x = await comparisonWith(t, [
      [URL_A, "Alpha"],
      [URL_B, "Beta"],
    ]);
    await x.start();
    await t.services.comparisons.whenIdle();
    expect((await x.get()).status).toBe("completed");
    expect((await x.get("/targets")).map((tg: any) => tg.status)).toEqual(["completed", "completed"]);
    expect((await x.get("/diffs")).map((d: any) => d.viewport)).toEqual(["desktop"]);
  });

  test("two of three fail: the comparison fails with a reason", async () => {
    const t = setup({
      [URL_B]: { fail: { reason: "Navigation timeout of 30000 ms exceeded" } },
      [URL_C]: { fail: { reason: "net::ERR_CONNECTION_REFUSED", viewports: ["desktop"] } },
    });
    // Gamma fails differently per viewport, so its reason names both.
    t.tools.capture = ((orig) => async (o, job, s) =>
      job.url === URL_C && job.viewport === "mobile" ? { ok: false, reason: "Blocked" } : orig(o, job, s))(t.tools.capture!);
    const x = await comparisonWith(t, THREE_SITES);
    await x.start();
    await t.services.comparisons.whenIdle();
    const c = await x.get();
    expect(c.status).toBe("failed");
    expect(c.error).toBe("Only 1 of 3 websites could be captured — at least 2 are needed for a comparison");
    const targets = await x.get("/targets");
    expect(targets.map((tg: any) => [tg.status, tg.error])).toEqual([
      ["completed", null],
      ["failed", "Navigation timeout of 30000 ms exceeded"],
      ["failed", "desktop: net::ERR_CONNECTION_REFUSED; mobile: Blocked"],
    ]);
    expect(await x.get("/diffs")).toEqual([]);
    expect(await x.get("/findings")).toEqual([]);
    expect(t.fake.activity.at(-1)).toMatchObject({ status: "error", details: c.error });
  });

  test("a capture that throws or never answers fails its page instead of hanging the run", async () => {
    const t = setup();
    t.tools.captureTimeoutMs = 50;
    const real = t.tools.capture!;
    t.tools.capture = async (o, job, s) => {
      if (job.url === URL_B) throw new Error("worker crashed");
      if (job.url === URL_C) return new Promise(() => {});
      return real(o, job, s);
    };
    const x = await comparisonWith(t, THREE_SITES);
    await x.start();
    await t.services.comparisons.whenIdle();
    const c = await x.get();
    expect(c.status).toBe("failed");
    const targets = await x.get("/targets");
    expect(targets.map((tg: any) => tg.error)).toEqual([null, "worker crashed", "The page took too long to capture"]);
  });

  test("start while running and deleting a target while running answer 409; adding waits too", async () => {
    const t = setup();
    const x = await comparisonWith(t, [
      [URL_A, "Alpha"],
      [URL_B, "Beta"],
    ]);
    t.fake.holdCaptures();
    expect((await x.start()).status).toBe(202);
    await t.fake.captureStarted();

    const during = await x.get();
    expect(during.status).toBe("running");
    expect(during.progress.total).toBe(4);
    expect(during.progress.stage).toContain("opening the page");
    expect((await x.get("/targets")).map((tg: any) => tg.status)).toEqual(["capturing", "capturing"]);

    const again = await x.start();
    expect(again.status).toBe(409);
    expect(again.json.error).toBe("This comparison is already running");
    const del = await t.call("DELETE", `/api/targets/${x.targets[0].id}`, { headers: x.h });
    expect(del.status).toBe(409);
    expect(del.json.error).toBe("Websites cannot be removed while the analysis is running");
    const add = await t.call("POST", `/api/comparisons/${x.c.id}/targets`, { body: { url: URL_C, label: "Gamma" }, headers: x.h });
    expect(add.status).toBe(409);

    t.fake.release();
    await t.services.comparisons.whenIdle();
    expect((await x.get()).status).toBe("completed");
    expect((await x.start()).status).toBe(202);
    await t.services.comparisons.whenIdle();
    expect((await t.call("DELETE", `/api/targets/${x.targets[0].id}`, { headers: x.h })).status).toBe(200);
  });
});

describe("comparison runs: fairness", () => {
  test("one account runs at most 3 analyses at a time", async () => {
    const t = setup();
    const u = await t.signup();
    const h = t.auth(u.token);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const c = (await t.call("POST", "/api/comparisons", { body: { name: `C${i}` }, headers: h })).json;
      for (const url of [URL_A, URL_B]) await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label: url }, headers: h });
      ids.push(c.id);
    }
    t.fake.holdCaptures();
    for (const id of ids.slice(0, 3)) expect((await t.call("POST", `/api/comparisons/${id}/start`, { headers: h })).status).toBe(202);
    const fourth = await t.call("POST", `/api/comparisons/${ids[3]}/start`, { headers: h });
    expect(fourth.status).toBe(429);
    expect(fourth.json.error).toBe("You already have 3 analyses running. Wait for one to finish.");
    t.fake.release();
    await t.services.comparisons.whenIdle();
    expect((await t.call("POST", `/api/comparisons/${ids[3]}/start`, { headers: h })).status).toBe(202);
    await t.services.comparisons.whenIdle();
  });
});

describe("comparison runs: snapshots and files", () => {
  test("the snapshot per target and viewport is the latest by capturedAt, not the latest written", async () => {
    let clock = Date.parse("2030-01-01T12:00:00Z");
    const t = setup({}, () => clock);
    const x = await comparisonWith(t, [
      [URL_A, "Alpha"],
      [URL_B, "Beta"],
    ]);
    await x.start();
    await t.services.comparisons.whenIdle();
    const first = await x.get("/snapshots");

    // Minutes, not days: the access token lives 15 minutes on this clock too.
    clock = Date.parse("2030-01-01T12:05:00Z");
    await x.start();
    await t.services.comparisons.whenIdle();
    const second = await x.get("/snapshots");
    expect(second.length).toBe(4);
    expect(second.every((s: any) => s.capturedAt === "2030-01-01T12:05:00.000Z")).toBe(true);
    expect(second.map((s: any) => s.id)).not.toEqual(first.map((s: any) => s.id));

    // A third run whose clock reads earlier: its captures are older, so the second run's stay current.
    clock = Date.parse("2030-01-01T12:02:00Z");
    await x.start();
    await t.services.comparisons.whenIdle();
    const third = await x.get("/snapshots");
    expect(third.map((s: any) => s.id)).toEqual(second.map((s: any) => s.id));
  });

  test("a capture is handed the page's own timing loads from its owner's captures in the last hour, newest first", async () => {
    let clock = Date.parse("2030-01-01T10:00:00.000Z");
    const t = setup({}, () => clock);
    // Each earlier sample goes with the browser that measured it (the capture takes only its own browser's).
    const BROWSER = "Chromium headless shell 156.0.8078.79";
    const seen: { url: string; viewport: string; earlier: unknown }[] = [];
    const capture = t.tools.capture!;
    let lcp = 900;
    t.tools.capture = async (ownerId, job, onStage) => {
      seen.push({ url: job.url, viewport: job.viewport, earlier: job.earlierSamples });
      const r = await capture(ownerId, job, onStage);
      if (!r.ok) return r;
      const own = (v: number) => ({ ttfbMs: 40, fcpMs: 300, lcpMs: v, cls: 0, lcpElement: "h1" });
      // Its own two loads, and one it took over from an earlier capture: that one is never handed on.
      const samples = [own(lcp), own(lcp + 10), { ...own(100), fromRunAt: "2029-12-31T09:00:00.000Z" }];
      return { ...r, extraction: { ...r.extraction, timing: { ...r.extraction.timing, samples, browser: BROWSER } } };
    };
    const u = await t.signup();
    // Signed in afresh for each run: the clock moves past an access token's life.
    const signIn = async () =>
      t.auth((await t.call("POST", "/api/auth/login", { body: { email: u.email, password: u.password } })).json.accessToken);
    const run = async (who?: Record<string, string>) => {
      who ??= await signIn();
      const c = (await t.call("POST", "/api/comparisons", { body: { name: "Rivals" }, headers: who })).json;
      for (const [url, label] of [
        [URL_A, "Alpha"],
        [URL_B, "Beta"],
      ])
        await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: who });
      seen.length = 0;
      expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: who })).status).toBe(202);
      await t.services.comparisons.whenIdle();
      return seen.filter((x) => x.url === URL_A && x.viewport === "desktop").map((x) => x.earlier)[0];
    };

    expect(await run()).toEqual([]);
    const first = new Date(clock).toISOString();
    clock += 10 * 60_000;
    lcp = 1200;
    // Another comparison of the same owner, same page: the first capture's own loads only.
    const sample = (v: number) => ({ ttfbMs: 40, fcpMs: 300, lcpMs: v, cls: 0, lcpElement: "h1", domContentLoadedMs: null, loadMs: null });
    expect(await run()).toEqual([
      { at: first, profile: "unthrottled", browser: BROWSER, sample: sample(900) },
      { at: first, profile: "unthrottled", browser: BROWSER, sample: sample(910) },
    ]);
    const second = new Date(clock).toISOString();
    clock += 55 * 60_000;
    // Newest capture first; the first is now more than an hour old.
    expect(await run()).toEqual([
      { at: second, profile: "unthrottled", browser: BROWSER, sample: sample(1200) },
      { at: second, profile: "unthrottled", browser: BROWSER, sample: sample(1210) },
    ]);
    // Nobody else's captures count.
    const other = await t.signup();
    expect(await run(t.auth(other.token))).toEqual([]);
  });

  test("history is bounded: runs beyond HISTORY_KEEP are pruned; identical captures share one file", async () => {
    const t = setup({}, undefined, { HISTORY_KEEP: "3" });
    const x = await comparisonWith(t, [
      [URL_A, "Alpha"],
      [URL_B, "Beta"],
    ]);
    for (let i = 0; i < 5; i++) {
      await x.start();
      await t.services.comparisons.whenIdle();
    }
    expect((await x.get("/runs")).map((r: any) => r.number)).toEqual([5, 4, 3]);
    // 3 runs x 2 targets x 2 viewports rows; the fake paints every page of a viewport alike: 2 files.
    expect(t.db.query("SELECT COUNT(*) AS n FROM snapshots").get()).toEqual({ n: 12 });
    expect(pngsUnder(join(t.dataDir, "screenshots")).length).toBe(2);
  });

  test("screenshots: owner by bearer or session cookie, private caching; files go with target and comparison", async () => {
    const t = setup();
    const x = await comparisonWith(t, THREE_SITES);
    await x.start();
    await t.services.comparisons.whenIdle();
    const snaps = await x.get("/snapshots");
    const dir = join(t.dataDir, "screenshots", x.u.user.id, x.c.id);
    // Files are named by content hash; exactly the ones snapshot rows name are on disk.
    const named = () =>
      t.db
        .query<{ p: string }, []>("SELECT DISTINCT screenshot_path AS p FROM snapshots")
        .all()
        .map((r) => r.p.split("/").at(-1)!)
        .sort();
    expect(pngsUnder(dir).sort()).toEqual(named());
    expect(named().every((f) => /^[0-9a-f]{64}\.png$/.test(f))).toBe(true);

    const res = await t.app.handle(new Request(`http://localhost${snaps[0].screenshotUrl}`, { headers: x.h }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toStartWith("private");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    const byCookie = await t.call("GET", snaps[0].screenshotUrl, { headers: { cookie: x.u.cookie } });
    expect(byCookie.status).toBe(200);
    expect((await t.call("GET", snaps[0].screenshotUrl)).status).toBe(401);

    // Deleting a target removes its files and its diffs; the others stay.
    const gamma = x.targets[2];
    expect((await t.call("DELETE", `/api/targets/${gamma.id}`, { headers: x.h })).json).toEqual({ ok: true });
    const left = await x.get("/snapshots");
    expect(left.length).toBe(4);
    expect(pngsUnder(dir).sort()).toEqual(named());
    expect((await x.get("/diffs")).every((d: any) => d.targetAId !== gamma.id && d.targetBId !== gamma.id)).toBe(true);
    expect((await x.get("/findings")).every((f: any) => f.targetId !== gamma.id)).toBe(true);
    const gammaShot = snaps.find((s: any) => s.targetId === gamma.id);
    expect((await t.call("GET", gammaShot.screenshotUrl, { headers: x.h })).status).toBe(404);

    expect((await t.call("DELETE", `/api/comparisons/${x.c.id}`, { headers: x.h })).json).toEqual({ ok: true });
    expect(existsSync(dir)).toBe(false);
    expect((await t.call("GET", `/api/comparisons/${x.c.id}`, { headers: x.h })).status).toBe(404);
    expect((await t.call("GET", snaps[0].screenshotUrl, { headers: x.h })).status).toBe(404);
  });

  test("deleting a comparison mid-run cancels it and leaves no files behind", async () => {
    const t = setup();
    const x = await comparisonWith(t, [
      [URL_A, "Alpha"],
      [URL_B, "Beta"],
    ]);
    t.fake.holdCaptures();
    await x.start();
    await t.fake.captureStarted();
    expect((await t.call("DELETE", `/api/comparisons/${x.c.id}`, { headers: x.h })).status).toBe(200);
    t.fake.release();
    await t.services.comparisons.whenIdle();
    expect(pngsUnder(join(t.dataDir, "screenshots"))).toEqual([]);
    expect(t.db.query("SELECT COUNT(*) AS n FROM snapshots").get()).toEqual({ n: 0 });
    expect(t.fake.activity.map((a) => a.status)).toEqual(["info"]);
  });
});

describe("comparison runs: export", () => {
  const HOSTILE = "<script>alert(1)</script>";
  const HOSTILE_TITLE = `"><img src=x onerror=alert(2)>`;

  test("HTML report escapes names, labels and captured copy and inlines screenshots", async () => {
    const t = setup({ [URL_A]: { title: HOSTILE_TITLE } });
    const x = await comparisonWith(
      t,
      [
        [URL_A, `<b>Alpha</b>`],
        [URL_B, "Beta"],
      ],
      HOSTILE,
    );
    await t.call("POST", "/api/comparisons", { body: { name: "unused" }, headers: x.h });
    await x.start();
    await t.services.comparisons.whenIdle();

    const r = await t.call("GET", `/api/comparisons/${x.c.id}/export?format=html`, { headers: x.h });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toStartWith("text/html");
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="script-alert-1-script-report.html"');
    expect(r.text).not.toContain("<script");
    expect(r.text).not.toContain("<img src=x");
    expect(r.text).not.toContain("<b>Alpha");
    expect(r.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(r.text).toContain("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;");
    expect(r.text).toContain("&lt;b&gt;Alpha&lt;/b&gt;");
    expect(r.text).toContain("default-src 'none'");
    expect(r.text.match(/src="data:image\/png;base64,/g)?.length).toBe(4);
    expect(r.text).toContain("90%");
    // Every tag in the document is one the template wrote.
    const tags = new Set([...r.text.matchAll(/<([a-z0-9]+)[\s>]/gi)].map((m) => m[1]!.toLowerCase()));
    for (const tag of tags)
      expect([
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "main",
        "h1",
        "h2",
        "h3",
        "p",
        "span",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "a",
        "figure",
        "figcaption",
        "div",
        "strong",
        "img",
        "dl",
        "dt",
        "dd",
      ]).toContain(tag);

    const byCookie = await t.call("GET", `/api/comparisons/${x.c.id}/export?format=html`, { headers: { cookie: x.u.cookie } });
    expect(byCookie.status).toBe(200);
  });

  test("JSON report carries the comparison, targets, latest snapshots, diffs and findings", async () => {
    const t = setup();
    const x = await comparisonWith(t, [
      [URL_A, "Alpha"],
      [URL_B, "Beta"],
    ]);
    await x.start();
    await t.services.comparisons.whenIdle();
    const r = await t.call("GET", `/api/comparisons/${x.c.id}/export?format=json`, { headers: x.h });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toStartWith("application/json");
    expect(r.json.comparison).toMatchObject({ id: x.c.id, status: "completed" });
    expect(r.json.targets.length).toBe(2);
    expect(r.json.snapshots).toEqual(await x.get("/snapshots"));
    expect(r.json.diffs).toEqual(await x.get("/diffs"));
    expect(r.json.findings).toEqual(await x.get("/findings"));
    const plain = await t.call("GET", `/api/comparisons/${x.c.id}/export`, { headers: x.h });
    expect(plain.headers.get("content-type")).toStartWith("application/json");
  });
});

describe("comparison runs: boot recovery", () => {
  test("runs left running by a crash are failed with a reason; their targets too", async () => {
    const t = setup();
    const x = await comparisonWith(t, [
      [URL_A, "Alpha"],
      [URL_B, "Beta"],
    ]);
    t.fake.holdCaptures();
    await x.start();
    await t.fake.captureStarted();

    // A new process on the same database: its active runs have no memory of the run.
    const activity: unknown[] = [];
    const rebooted = comparisonsService({
      db: sqliteSql(t.db),
      dataDir: t.dataDir,
      allowPrivateTargets: true,
      tools: { recordActivity: (e) => activity.push(e) },
    });
    expect(await rebooted.recoverInterruptedRuns()).toBe(1);
    expect(await rebooted.recoverInterruptedRuns()).toBe(0);
    const c = await rebooted.get(x.u.user.id, x.c.id);
    expect(c).toMatchObject({ status: "failed", error: INTERRUPTED_REASON });
    expect(c.completedAt).toBeString();
    expect((await rebooted.listTargets(x.u.user.id, x.c.id)).map((tg) => [tg.status, tg.error])).toEqual([
      ["failed", INTERRUPTED_REASON],
      ["failed", INTERRUPTED_REASON],
    ]);
    expect(activity).toHaveLength(1);

    // The old in-process run finishing late must not overwrite the recovered state.
    t.fake.release();
    await t.services.comparisons.whenIdle();
    expect((await x.get()).status).toBe("failed");
    // The user can start again.
    expect((await x.start()).status).toBe(202);
    await t.services.comparisons.whenIdle();
    expect((await x.get()).status).toBe("completed");
  });
});
