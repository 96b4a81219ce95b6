// The watch digest: the user's setting through the API, sent by its timer's pass at 08:00 in the
// user's zone through a real SMTP conversation on loopback, once after downtime, retried after a
// refused send. The clock is injected.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { sqliteSql } from "#server/db/sql";
import { smtpMailer } from "#server/modules/admin/mailer";
import { createComparisonBody } from "#server/modules/comparisons/model";
import type { RecentChange } from "#server/modules/changes/public";
import { DIGEST_RETRY_MS, DIGEST_UNAVAILABLE, digestService } from "#server/modules/watch/digest/service";
import { makeTestApp } from "#tests/support/app";
import { mailText, startMailbox } from "#tests/support/mailbox";

const mailbox = await startMailbox();
const { mails, port: smtpPort } = mailbox;
afterAll(() => mailbox.close());
beforeEach(async () => {
  mails.length = 0;
  mailbox.refusing = false;
});

async function setup(env: Record<string, string> = { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` }) {
  let now = Date.parse("2026-03-02T06:00:00.000Z"); // Monday, 07:00 in Berlin
  const t = makeTestApp({ env: { ALLOW_PRIVATE_TARGETS: "1", ...env }, now: () => now });
  const u = await t.signup();
  const h = t.auth(u.token);
  return { ...t, u, h, at: (iso: string) => (now = Date.parse(iso)) };
}

async function watched(t: Awaited<ReturnType<typeof setup>>, name: string) {
  const c = (await t.call("POST", "/api/comparisons", { body: { name }, headers: t.h })).json;
  expect(
    (await t.call("PUT", `/api/comparisons/${c.id}/schedule`, { body: { cron: "0 9 * * *", timezone: "UTC" }, headers: t.h })).status,
  ).toBe(200);
  return c;
}

describe("watch digest", () => {
  test("a daily digest goes out at 08:00 in the user's zone, once, and once after downtime", async () => {
    const t = await setup();
    expect((await t.call("GET", "/api/watch/digest", { headers: t.h })).json).toEqual({
      frequency: "off",
      timezone: null,
      nextSendAt: null,
      lastSentAt: null,
      lastError: null,
    });
    const c = await watched(t, "Pricing pages");
    await t.call("POST", "/api/comparisons", { body: { name: "Not watched" }, headers: t.h });

    const put = await t.call("PUT", "/api/watch/digest", { body: { frequency: "daily", timezone: "Europe/Berlin" }, headers: t.h });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ frequency: "daily", timezone: "Europe/Berlin", nextSendAt: "2026-03-02T07:00:00.000Z" });

    t.at("2026-03-02T06:59:59.000Z");
    expect(await t.services.watch.digest.tick()).toEqual([]);
    t.at("2026-03-02T07:00:01.000Z");
    expect(await t.services.watch.digest.tick()).toEqual([{ userId: t.u.user.id, status: "sent" }]);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual([t.u.email]);
    const text = mailText(mails[0]!.data);
    expect(text).toContain("Subject: Design Intel daily digest: 1 watched comparison, 0 changes in the last day");
    expect(text).toContain("Pricing pages");
    expect(text).not.toContain("Not watched");
    expect(text).toContain(`http://localhost:3000/comparison?id=${c.id}`);
    expect(text).toContain("next run 2026-03-02T09:00:00.000Z (0 9 * * *, UTC)");
    expect(await t.services.watch.digest.tick()).toEqual([]);
    // Access tokens are short-lived and the clock moves by days here: read through the service.
    const after = await t.services.watch.digest.get(t.u.user.id);
    expect(after).toMatchObject({ nextSendAt: "2026-03-03T07:00:00.000Z", lastSentAt: "2026-03-02T07:00:01.000Z", lastError: null });

    // Three days down: one digest at boot, the next one tomorrow at 08:00.
    t.at("2026-03-05T12:00:00.000Z");
    expect(await t.services.watch.digest.tick()).toHaveLength(1);
    expect(await t.services.watch.digest.tick()).toEqual([]);
    expect(mails).toHaveLength(2);
    expect((await t.services.watch.digest.get(t.u.user.id)).nextSendAt).toBe("2026-03-06T07:00:00.000Z");

    // Off: no more digests.
    expect((await t.services.watch.digest.put(t.u.user.id, { frequency: "off", timezone: "UTC" })).frequency).toBe("off");
    t.at("2026-03-07T12:00:00.000Z");
    expect(await t.services.watch.digest.tick()).toEqual([]);
  });

  test("a refused send is retried 15 minutes later with the error visible; nothing watched sends nothing", async () => {
    const t = await setup();
    await t.call("PUT", "/api/watch/digest", { body: { frequency: "weekly", timezone: "UTC" }, headers: t.h });
    // Monday 08:00 UTC, a week on (now is Monday 06:00, so today's slot is next).
    expect((await t.call("GET", "/api/watch/digest", { headers: t.h })).json.nextSendAt).toBe("2026-03-02T08:00:00.000Z");
    t.at("2026-03-02T08:00:00.000Z");
    expect(await t.services.watch.digest.tick()).toEqual([{ userId: t.u.user.id, status: "nothing-watched" }]);
    expect(mails).toHaveLength(0);

    const c = await t.services.comparisons.create(t.u.user.id, createComparisonBody.parse({ name: "Rivals" }));
    await t.services.watch.schedules.put(t.u.user.id, c.id, "0 9 * * *", "UTC");
    t.at("2026-03-09T08:00:00.000Z");
    mailbox.refusing = true;
    const [failed] = await t.services.watch.digest.tick();
    expect(failed!.status).toBe("failed");
    const v = await t.services.watch.digest.get(t.u.user.id);
    expect(v.lastError).toContain("mailbox unavailable");
    expect(v.nextSendAt).toBe(new Date(Date.parse("2026-03-09T08:00:00.000Z") + DIGEST_RETRY_MS).toISOString());
    mailbox.refusing = false;
    t.at(v.nextSendAt!);
    expect((await t.services.watch.digest.tick()).map((o) => o.status)).toEqual(["sent"]);
    expect(mailText(mails[0]!.data)).toContain("Design Intel weekly digest: 1 watched comparison");
    expect(await t.services.watch.digest.get(t.u.user.id)).toMatchObject({ lastError: null, nextSendAt: "2026-03-16T08:00:00.000Z" });
  });

  test("bad settings are 400; without SMTP_URL the digest cannot be turned on", async () => {
    const t = await setup();
    expect((await t.call("PUT", "/api/watch/digest", { body: { frequency: "hourly" }, headers: t.h })).json.error).toBe(
      'frequency must be "off", "daily" or "weekly"',
    );
    const zone = await t.call("PUT", "/api/watch/digest", { body: { frequency: "daily", timezone: "Nowhere/Land" }, headers: t.h });
    expect(zone.status).toBe(400);
    expect(zone.json.error).toContain('Unknown time zone "Nowhere/Land"');
    expect((await t.call("GET", "/api/watch/digest")).status).toBe(401);

    const bare = await setup({});
    const r = await bare.call("PUT", "/api/watch/digest", { body: { frequency: "daily" }, headers: bare.h });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe(DIGEST_UNAVAILABLE);
  });

  test("changes from the run history are summed up per comparison (only the owner's)", async () => {
    const t = await setup();
    const c = await watched(t, "Rivals");
    const change = (over: Partial<RecentChange>): RecentChange => ({
      ownerId: t.u.user.id,
      comparisonId: c.id,
      comparisonName: "Rivals",
      targetId: "t1",
      label: "Orbit",
      url: "http://127.0.0.1:9/orbit",
      kind: "cta",
      summary: "CTA text “Start” → “Go”",
      at: "2026-03-02T05:00:00.000Z",
      runId: "r1",
      ...over,
    });
    const history = [
      change({}),
      change({ kind: "palette", summary: "Accent #111111 → #222222", label: "Ember" }),
      change({ ownerId: "someone-else", summary: "secret" }),
    ];
    let now = Date.parse("2026-03-02T06:00:00.000Z");
    const digest = digestService({
      db: sqliteSql(t.db),
      mailer: smtpMailer(`smtp://127.0.0.1:${smtpPort}`),
      changes: { recentChanges: async (since) => history.filter((x) => x.at >= since) },
      publicUrl: "https://intel.example.com",
      now: () => now,
    });
    await digest.put(t.u.user.id, { frequency: "daily", timezone: "UTC" });
    now = Date.parse("2026-03-02T08:00:00.000Z");
    expect((await digest.tick()).map((o) => o.status)).toEqual(["sent"]);
    const text = mailText(mails[0]!.data);
    expect(text).toContain("1 watched comparison, 2 changes in the last day");
    expect(text).toContain("2 changes: 1 cta, 1 palette");
    expect(text).toContain("• Orbit: CTA text “Start” → “Go”");
    expect(text).toContain(`https://intel.example.com/comparison?id=${c.id}`);
    expect(text).not.toContain("secret");
  });
});
