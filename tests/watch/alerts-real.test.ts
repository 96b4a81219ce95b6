// Alerts end to end: two real runs (system Chromium through the capture pool) of a fixture site on
// 127.0.0.1 whose primary CTA is relabelled between them. The second run's stored changes go to the
// comparison's rules, made through the API:
// - a webhook receiver on loopback gets one JSON POST: Slack-compatible `text` plus the comparison,
//   the run, each change with before/after and the link to the change view;
// - a rule whose kinds (or minimum severity) exclude the change gets nothing;
// - a receiver that is down is retried with backoff (recorded, not slept), and the failure is in
//   the delivery log with its last error;
// - an e-mail rule goes through a real SMTP conversation (SMTP_URL) with the same content.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findChromium } from "#server/lib/chromium";
import { CapturePool } from "#server/modules/capture/browser/pool";
import { DEFAULT_BACKOFF_MS } from "#server/modules/watch/alerts/retry";
import type { WebhookPayload } from "#server/modules/watch/alerts/model";
import { makeTestApp } from "#tests/support/app";
import { waitFor } from "#tests/support/wait";
import { mailText, startMailbox } from "#tests/support/mailbox";
import { TEST_TIMING_SAMPLES } from "#tests/support/server";

setDefaultTimeout(240_000);

const state = { cta: "Start free trial" };
const page = (name: string, cta: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title>
<meta name="description" content="${name}: a fixture for alerts.">
<style>body{margin:0;font-family:sans-serif;color:#111827}.hero{padding:96px 48px;background:#f8fafc;text-align:center}
.btn{display:inline-block;padding:14px 28px;border-radius:8px;background:#2563eb;color:#fff;text-decoration:none;font-weight:600}
section{padding:80px 48px;min-height:300px}</style></head>
<body><div class="hero"><h1>${name} for small teams</h1><p>Plan, ship and measure.</p><a class="btn" href="/signup">${cta}</a></div>
<section><h2>Features</h2><p>Everything in one place.</p></section></body></html>`;

const hooks: { path: string; contentType: string | null; body: WebhookPayload }[] = [];
const downHits: number[] = [];
let server: ReturnType<typeof Bun.serve>;
const mailbox = await startMailbox();
const { mails, port: smtpPort } = mailbox;
let pool: CapturePool;
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "di-alerts-real-"));
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const { pathname } = new URL(req.url);
      const html = (body: string) =>
        new Response(body, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
      if (pathname === "/alpha") return html(page("Alpha", state.cta));
      if (pathname === "/steady") return html(page("Steady", "Shop beans"));
      if (req.method === "POST" && pathname === "/hooks/down") {
        downHits.push(Date.now());
        return new Response("receiver is down", { status: 503, statusText: "Service Unavailable" });
      }
      if (req.method === "POST" && pathname.startsWith("/hooks/")) {
        hooks.push({ path: pathname, contentType: req.headers.get("content-type"), body: (await req.json()) as WebhookPayload });
        return new Response("ok");
      }
      return new Response("not here", { status: 404 });
    },
  });
  pool = new CapturePool({
    // One browser: a second (a worker and a Chromium, over a CPU-second to start) only overlapped
    // these runs' four pages, on a machine whose two cores the other test files keep busy.
    concurrency: 1,
    chromiumPath: findChromium(process.env.CHROMIUM_PATH),
    allowPrivate: true,
    timingSamples: Number(TEST_TIMING_SAMPLES),
  });
});

afterAll(async () => {
  await pool?.close();
  server?.stop(true);
  await mailbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test("a real run pair with a relabelled CTA alerts each rule that wants it, once, with before/after and the link", async () => {
  const waits: number[] = [];
  // The down receiver's retries wait here until the test has seen the run close without them.
  let openRetries!: () => void;
  const retriesMayGo = new Promise<void>((r) => (openRetries = r));
  const t = makeTestApp({
    env: {
      DATA_DIR: dataDir,
      ALLOW_PRIVATE_TARGETS: "1",
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      ALERT_EMAIL_FROM: "Design Intel <watch@example.test>",
    },
    runTools: { capture: (owner, job, onStage) => pool.submit(owner, job, onStage) },
    alertRetry: {
      sleep: async (ms) => {
        waits.push(ms);
        await retriesMayGo;
      },
    },
  });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Rivals" }, headers: h })).json;
  const origin = `http://127.0.0.1:${server.port}`;
  const alpha = (await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url: `${origin}/alpha`, label: "Alpha" }, headers: h }))
    .json;
  await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url: `${origin}/steady`, label: "Steady" }, headers: h });
  const rule = async (body: object) => {
    const r = await t.call("POST", `/api/comparisons/${c.id}/alerts`, { body, headers: h });
    expect(r.status).toBe(201);
    return r.json;
  };
  const all = await rule({ channel: "webhook", url: `${origin}/hooks/all` });
  const ctaHigh = await rule({ channel: "webhook", url: `${origin}/hooks/cta`, kinds: ["cta"], minSeverity: "high" });
  const excluded = await rule({ channel: "webhook", url: `${origin}/hooks/timing`, kinds: ["timing", "meta"] });
  const down = await rule({ channel: "webhook", url: `${origin}/hooks/down` });
  const mail = await rule({ channel: "email", email: "watcher@example.test", kinds: ["cta"] });

  const run = async () => {
    expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
    await t.services.comparisons.whenIdle();
    expect((await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json).toMatchObject({ status: "completed", error: null });
  };
  await run();
  await t.services.watch.alertsIdle();
  // The first run has nothing to compare with: no alert at all.
  expect([hooks.length, downHits.length, mails.length]).toEqual([0, 0, 0]);

  state.cta = "Book a demo";
  await run();
  // The run closed while the down receiver's retries still wait: alerts never keep a run busy
  // (a busy run would make the schedule skip its next slot).
  expect(t.services.comparisons.isRunning(c.id)).toBe(false);
  await waitFor("the first attempt at the down receiver", () => waits.length === 1, 30_000);
  expect(downHits).toHaveLength(1);
  expect((await t.services.watch.alerts.deliveries(u.user.id, c.id)).some((d) => d.status === "failed")).toBe(false);
  openRetries();
  await t.services.watch.alertsIdle();
  const [run2, run1] = (await t.call("GET", `/api/comparisons/${c.id}/runs`, { headers: h })).json;
  const link = `http://localhost:${t.env.PORT}/comparison?id=${c.id}&from=${run1.id}&to=${run2.id}`;
  const changes = (await t.call("GET", `/api/comparisons/${c.id}/changes`, { headers: h })).json.targets.find(
    (x: any) => x.targetId === alpha.id,
  ).changes;
  const ctaChanges = changes.filter((x: any) => x.kind === "cta");
  expect(ctaChanges.map((x: any) => [x.viewport, x.severity, x.summary, x.before, x.after])).toEqual([
    ["desktop", "high", "CTA text “Start free trial” → “Book a demo”", "Start free trial", "Book a demo"],
    ["mobile", "high", "CTA text “Start free trial” → “Book a demo”", "Start free trial", "Book a demo"],
  ]);

  // One POST per rule that wants the change; the excluded rule got nothing.
  expect(hooks.map((x) => x.path).sort()).toEqual(["/hooks/all", "/hooks/cta"]);
  const allHook = hooks.find((x) => x.path === "/hooks/all")!;
  expect(allHook.contentType).toContain("application/json");
  expect(allHook.body.comparison).toEqual({ id: c.id, name: "Rivals" });
  expect(allHook.body.run).toEqual({ id: run2.id, number: 2 });
  expect(allHook.body.link).toBe(link);
  // Only the changed site is listed, with every change the history stored for it.
  expect(allHook.body.targets.map((x) => [x.targetId, x.label, x.url])).toEqual([[alpha.id, "Alpha", alpha.url]]);
  expect(
    allHook.body.targets[0]!.changes.map((x) => ({
      kind: x.kind,
      viewport: x.viewport,
      summary: x.summary,
      before: x.before,
      after: x.after,
    })).sort((a, b) => a.summary.localeCompare(b.summary) || a.viewport.localeCompare(b.viewport)),
  ).toEqual(
    changes
      .map((x: any) => ({ kind: x.kind, viewport: x.viewport, summary: x.summary, before: x.before, after: x.after }))
      .sort((a: any, b: any) => a.summary.localeCompare(b.summary) || a.viewport.localeCompare(b.viewport)),
  );
  const text = allHook.body.text.split("\n");
  expect(text[0]).toBe(`Design Intel: ${changes.length} change${changes.length === 1 ? "" : "s"} in “Rivals” (run #2)`);
  expect(text).toContain(`*Alpha* ${alpha.url}`);
  expect(text).toContain("• [high] cta · desktop: CTA text “Start free trial” → “Book a demo”");
  expect(text.at(-1)).toBe(`View the changes: ${link}`);
  const ctaHook = hooks.find((x) => x.path === "/hooks/cta")!;
  expect(ctaHook.body.targets[0]!.changes.map((x) => [x.kind, x.viewport, x.before, x.after])).toEqual([
    ["cta", "desktop", "Start free trial", "Book a demo"],
    ["cta", "mobile", "Start free trial", "Book a demo"],
  ]);

  // The receiver that is down: every attempt reached it, with the backoff between them, and failed.
  expect(downHits).toHaveLength(DEFAULT_BACKOFF_MS.length + 1);
  expect(waits).toEqual(DEFAULT_BACKOFF_MS);

  // E-mail: the same content through SMTP.
  expect(mails).toHaveLength(1);
  expect(mails[0]!.to).toEqual(["watcher@example.test"]);
  const m = mailText(mails[0]!.data);
  expect(m).toMatch(/Subject: =\?UTF-8\?Q\?Design_Intel/);
  expect(m).toContain(`Alpha — ${alpha.url}`);
  expect(m).toContain("• [high] cta · desktop: CTA text “Start free trial” → “Book a demo”");
  expect(m).toContain("before: Start free trial");
  expect(m).toContain("after:  Book a demo");
  expect(m).toContain(`View the changes: ${link}`);

  // The delivery log: sent, failed with its last error; a rule with nothing to send has no delivery.
  const log = (await t.call("GET", `/api/comparisons/${c.id}/alerts/deliveries`, { headers: h })).json;
  const byRule = new Map(log.map((d: any) => [d.alertId, d]));
  expect(byRule.get(all.id)).toEqual({
    alertId: all.id,
    runId: run2.id,
    status: "sent",
    attempts: 1,
    lastError: null,
    sentAt: expect.any(String),
  });
  expect(byRule.get(ctaHigh.id)).toMatchObject({ status: "sent", attempts: 1 });
  expect(byRule.get(mail.id)).toMatchObject({ status: "sent", attempts: 1 });
  expect(byRule.get(down.id)).toEqual({
    alertId: down.id,
    runId: run2.id,
    status: "failed",
    attempts: DEFAULT_BACKOFF_MS.length + 1,
    lastError: "The webhook answered HTTP 503 Service Unavailable: receiver is down",
    sentAt: null,
  });
  expect(byRule.has(excluded.id)).toBe(false);
  expect(log).toHaveLength(4);
});
