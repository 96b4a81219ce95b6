// The watch's routes as the contract states them: schedules on a comparison (and on its GET),
// alert rules and their delivery log, per user. Runs use fake run tools; a loopback receiver
// takes the webhooks.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Change } from "#server/modules/changes/model";
import type { WebhookPayload } from "#server/modules/watch/alerts/model";
import { makeTestApp } from "#tests/support/app";
import { fakeRunTools } from "#tests/api/comparisons-support";

const dirs: string[] = [];
const hooks: WebhookPayload[] = [];
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    hooks.push((await req.json()) as WebhookPayload);
    return new Response("ok");
  },
});
afterAll(() => {
  receiver.stop(true);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// A fixed instant (Monday 2026-03-02 08:00:00 UTC) so nextRunAt is exact.
const T0 = Date.parse("2026-03-02T08:00:00.000Z");

function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), "di-watch-api-"));
  dirs.push(dataDir);
  let now = T0;
  const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" }, runTools: fakeRunTools().tools, now: () => now });
  return { ...t, setNow: (ms: number) => (now = ms) };
}

async function owner(t: ReturnType<typeof setup>) {
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Rivals <b>" }, headers: h })).json;
  return { u, h, c };
}

describe("schedule routes", () => {
  test("PUT sets a schedule with its next run, GET /comparisons/:id carries it, DELETE removes it", async () => {
    const t = setup();
    const { h, c } = await owner(t);
    expect((await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json.schedule).toBeNull();

    const put = await t.call("PUT", `/api/comparisons/${c.id}/schedule`, {
      body: { cron: "0 9 * * 1", timezone: "Europe/Berlin" },
      headers: h,
    });
    expect(put.status).toBe(200);
    // Monday 09:00 in Berlin (UTC+1 in March before DST) is 08:00 UTC, which is now: the next is a week later.
    expect(put.json).toEqual({ cron: "0 9 * * 1", timezone: "Europe/Berlin", nextRunAt: "2026-03-09T08:00:00.000Z" });
    expect((await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json.schedule).toEqual(put.json);

    // Replacing it moves the next run.
    const daily = await t.call("PUT", `/api/comparisons/${c.id}/schedule`, { body: { cron: "30 8 * * *", timezone: "UTC" }, headers: h });
    expect(daily.json).toEqual({ cron: "30 8 * * *", timezone: "UTC", nextRunAt: "2026-03-02T08:30:00.000Z" });

    const del = await t.call("DELETE", `/api/comparisons/${c.id}/schedule`, { headers: h });
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ ok: true });
    expect((await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json.schedule).toBeNull();
  });

  test("invalid cron, unknown zone, sub-minute and wrong types answer 400 naming the problem", async () => {
    const t = setup();
    const { h, c } = await owner(t);
    const put = (body: unknown) => t.call("PUT", `/api/comparisons/${c.id}/schedule`, { body, headers: h });

    const badField = await put({ cron: "61 * * * *", timezone: "UTC" });
    expect(badField.status).toBe(400);
    expect(badField.json.error).toContain('Invalid minute field "61"');

    const zone = await put({ cron: "0 9 * * *", timezone: "Mars/Olympus" });
    expect(zone.status).toBe(400);
    expect(zone.json.error).toBe('Unknown time zone "Mars/Olympus": use an IANA name such as "Europe/Berlin" or "UTC"');

    const seconds = await put({ cron: "*/10 * * * * *", timezone: "UTC" });
    expect(seconds.status).toBe(400);
    expect(seconds.json.error).toContain("the shortest interval is one minute");

    const never = await put({ cron: "0 0 30 2 *", timezone: "UTC" });
    expect(never.status).toBe(400);
    expect(never.json.error).toContain("never matches a date");

    const types = await put({ cron: 5, timezone: "UTC" });
    expect(types.status).toBe(400);
    expect(types.json.error).toBe("cron must be a string");

    // Nothing was saved by the refused requests.
    expect((await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json.schedule).toBeNull();
  });

  test("another user's comparison is 404 for PUT and DELETE; their schedule stays", async () => {
    const t = setup();
    const a = await owner(t);
    const b = await owner(t);
    await t.call("PUT", `/api/comparisons/${a.c.id}/schedule`, { body: { cron: "0 9 * * *", timezone: "UTC" }, headers: a.h });

    const put = await t.call("PUT", `/api/comparisons/${a.c.id}/schedule`, { body: { cron: "* * * * *", timezone: "UTC" }, headers: b.h });
    expect(put.status).toBe(404);
    expect(put.json).toEqual({ error: "Comparison not found" });
    expect((await t.call("DELETE", `/api/comparisons/${a.c.id}/schedule`, { headers: b.h })).status).toBe(404);
    expect((await t.call("GET", `/api/comparisons/${a.c.id}`, { headers: b.h })).status).toBe(404);
    expect((await t.call("GET", `/api/comparisons/${a.c.id}`, { headers: a.h })).json.schedule.cron).toBe("0 9 * * *");
    expect(
      (await t.call("PUT", `/api/comparisons/nope/schedule`, { body: { cron: "0 9 * * *", timezone: "UTC" }, headers: a.h })).status,
    ).toBe(404);
    expect((await t.call("PUT", `/api/comparisons/${a.c.id}/schedule`, { body: { cron: "0 9 * * *", timezone: "UTC" } })).status).toBe(401);
  });
});

const change = (over: Partial<Change> = {}): Change => ({
  kind: "cta",
  severity: "high",
  viewport: "desktop",
  summary: 'Primary CTA text "Start free" → "Book a demo"',
  before: "Start free",
  after: "Book a demo",
  evidence: {},
  ...over,
});

describe("alert routes", () => {
  test("create, list, deliver after a run's changes, see the delivery log, delete", async () => {
    const t = setup();
    const { u, h, c } = await owner(t);
    const url = `http://127.0.0.1:${receiver.port}/hook`;
    const created = await t.call("POST", `/api/comparisons/${c.id}/alerts`, {
      body: { channel: "webhook", url, minSeverity: "medium", kinds: ["cta"] },
      headers: h,
    });
    expect(created.status).toBe(201);
    expect(created.json.id).toBeString();
    expect(created.json).toMatchObject({ comparisonId: c.id, channel: "webhook", url, email: null, minSeverity: "medium", kinds: ["cta"] });
    const list = await t.call("GET", `/api/comparisons/${c.id}/alerts`, { headers: h });
    expect(list.json).toEqual([created.json]);

    hooks.length = 0;
    const results = await t.services.watch.dispatchRunChanges({
      ownerId: u.user.id,
      comparisonId: c.id,
      runId: "run-2",
      fromRunId: "run-1",
      targets: [
        {
          targetId: "t1",
          label: "Orbit",
          url: "http://127.0.0.1:9/orbit",
          changes: [change(), change({ kind: "copy", summary: "Headline changed" })],
        },
      ],
    });
    expect(results).toEqual([{ alertId: created.json.id, status: "sent", attempts: 1, lastError: null }]);
    expect(hooks).toHaveLength(1);
    // Only the change that passes the rule's filter; the link opens this run's change view.
    expect(hooks[0]!.targets[0]!.changes.map((x) => x.kind)).toEqual(["cta"]);
    expect(hooks[0]!.link).toBe(`http://localhost:3000/comparison?id=${c.id}&from=run-1&to=run-2`);
    expect(hooks[0]!.comparison).toEqual({ id: c.id, name: "Rivals <b>" });
    expect(hooks[0]!.text).toContain("Rivals &lt;b&gt;");

    const deliveries = await t.call("GET", `/api/comparisons/${c.id}/alerts/deliveries`, { headers: h });
    expect(deliveries.status).toBe(200);
    expect(deliveries.json).toEqual([
      { alertId: created.json.id, runId: "run-2", status: "sent", attempts: 1, lastError: null, sentAt: new Date(T0).toISOString() },
    ]);

    const del = await t.call("DELETE", `/api/alerts/${created.json.id}`, { headers: h });
    expect(del.json).toEqual({ ok: true });
    expect(del.status).toBe(200);
    expect((await t.call("GET", `/api/comparisons/${c.id}/alerts`, { headers: h })).json).toEqual([]);
    expect((await t.call("DELETE", `/api/alerts/${created.json.id}`, { headers: h })).status).toBe(404);
  });

  test("alert links use PUBLIC_URL when it is set", () => {
    const t = makeTestApp({ env: { PUBLIC_URL: "https://intel.example.com/" } });
    expect(t.services.watch.changeLink("c 1", "r2", "r1")).toBe("https://intel.example.com/comparison?id=c+1&from=r1&to=r2");
  });

  test("bad bodies are 400 with the rule's message; e-mail needs SMTP_URL", async () => {
    const t = setup();
    const { h, c } = await owner(t);
    const post = (body: unknown) => t.call("POST", `/api/comparisons/${c.id}/alerts`, { body, headers: h });
    expect((await post({ channel: "sms", url: "x" })).json.error).toBe('channel must be "webhook", "email" or "members"');
    expect((await post({ channel: "email", email: "not-an-address" })).json.error).toBe("Enter a valid e-mail address");
    const noSmtp = await post({ channel: "email", email: "me@example.com" });
    expect(noSmtp.status).toBe(400);
    expect(noSmtp.json.error).toBe("E-mail alerts are not available: this server has no SMTP_URL configured");
    const badUrl = await post({ channel: "webhook", url: "ftp://example.com/x" });
    expect(badUrl.status).toBe(400);
    expect((await post({ channel: "webhook", url: "http://127.0.0.1:1/x", minSeverity: "extreme" })).status).toBe(400);
  });

  test("another user's comparison and alert ids answer 404", async () => {
    const t = setup();
    const a = await owner(t);
    const b = await owner(t);
    const url = `http://127.0.0.1:${receiver.port}/hook`;
    const alert = (await t.call("POST", `/api/comparisons/${a.c.id}/alerts`, { body: { channel: "webhook", url }, headers: a.h })).json;
    expect((await t.call("POST", `/api/comparisons/${a.c.id}/alerts`, { body: { channel: "webhook", url }, headers: b.h })).status).toBe(
      404,
    );
    expect((await t.call("GET", `/api/comparisons/${a.c.id}/alerts`, { headers: b.h })).status).toBe(404);
    expect((await t.call("GET", `/api/comparisons/${a.c.id}/alerts/deliveries`, { headers: b.h })).status).toBe(404);
    const del = await t.call("DELETE", `/api/alerts/${alert.id}`, { headers: b.h });
    expect(del.status).toBe(404);
    expect(del.json).toEqual({ error: "Alert not found" });
    expect((await t.call("GET", `/api/comparisons/${a.c.id}/alerts`, { headers: a.h })).json).toHaveLength(1);
    // Dispatch for the wrong owner sends nothing.
    expect(await t.services.watch.dispatchRunChanges({ ownerId: b.u.user.id, comparisonId: a.c.id, runId: "r", targets: [] })).toEqual([]);
  });
});
