// The change feed (changes/feed.ts → ChangeHistory) as the app wires it: two real runs of a
// comparison, their changes stored at completion, where sites relabel their primary CTA between
// the runs. TrendHunter (started through the system service, in process) reports the
// move across the set, and the digest e-mail (a real SMTP conversation on loopback) lists the
// change. Another user's changes, made in the same minutes, never reach either.
import { afterAll, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteSql } from "#server/db/sql";
import type { CaptureFn } from "#server/modules/comparisons/active-runs";
import { changeHistory } from "#server/modules/changes/public";
import { pngBytes, recordingSocket } from "#tests/api/comparisons-support";
import { makeTestApp } from "#tests/support/app";
import { waitFor } from "#tests/support/wait";
import { clone, landing } from "./extractions";
import { mailText, startMailbox } from "#tests/support/mailbox";

const mailbox = await startMailbox();
const { mails, port: smtpPort } = mailbox;
const dataDir = mkdtempSync(join(tmpdir(), "di-change-feed-"));
afterAll(async () => {
  await mailbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => (mails.length = 0));

const nonEmpty = <T>(rows: T[]) => (rows.length ? rows : null);

/** Each site's primary CTA label, switched by the test between runs; the page is otherwise the same. */
const ctaOf = new Map<string, string>();
const capture: CaptureFn = async (_owner, job) => {
  const x = clone(landing());
  x.url = x.finalUrl = job.url;
  x.viewport = job.viewport;
  const label = ctaOf.get(job.url) ?? "Start free";
  x.elements.ctas[0]!.text = label;
  x.copy.visibleText = x.copy.visibleText.replace("Start free", label);
  // The same picture every run: byte-identical screenshots, so no visual change either.
  writeFileSync(job.screenshotPath, pngBytes(job.viewport === "desktop" ? 48 : 13, 40, [240, 240, 240]));
  return { ok: true, extraction: x, screenshotPath: job.screenshotPath };
};

test("stored runs feed TrendHunter's set moves and the digest, each owner seeing only their own", async () => {
  let now = Date.parse("2026-03-02T06:00:00.000Z"); // Monday, 07:00 in Berlin
  const t = makeTestApp({
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1", SMTP_URL: `smtp://127.0.0.1:${smtpPort}` },
    now: () => now,
    runTools: { capture },
  });
  const users = [await t.signup(), await t.signup()];
  const origin = "http://127.0.0.1:9";
  const setUp = async (u: (typeof users)[number], name: string, sites: string[]) => {
    const h = t.auth(u.token);
    const c = (await t.call("POST", "/api/comparisons", { body: { name }, headers: h })).json;
    const targets = [];
    for (const s of sites)
      targets.push(
        (await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url: `${origin}/${s}`, label: s }, headers: h })).json,
      );
    // Watched, so the digest sums it up (the slot itself is never reached in this test).
    expect(
      (await t.call("PUT", `/api/comparisons/${c.id}/schedule`, { body: { cron: "0 9 * * 1", timezone: "UTC" }, headers: h })).status,
    ).toBe(200);
    expect((await t.call("PUT", "/api/watch/digest", { body: { frequency: "daily", timezone: "Europe/Berlin" }, headers: h })).status).toBe(
      200,
    );
    const run = async () => {
      expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
      await t.services.comparisons.whenIdle();
      expect((await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json.status).toBe("completed");
    };
    return { c, h, targets, run };
  };
  const mine = await setUp(users[0]!, "Rivals", ["orbit", "ember", "flint"]);
  const theirs = await setUp(users[1]!, "Their rivals", ["north", "south"]);

  // Live: each owner hears of their own runs' change counts once they are stored.
  const sockets = users.map((u) => recordingSocket(u.user.id));
  for (const sock of sockets) t.services.live.add(sock);
  await mine.run();
  await theirs.run();
  now += 60_000;
  // Two of my three sites relabel their primary CTA; both of the other user's sites do too.
  ctaOf.set(`${origin}/orbit`, "Book a demo");
  ctaOf.set(`${origin}/ember`, "Get a quote");
  ctaOf.set(`${origin}/north`, "Secret launch");
  ctaOf.set(`${origin}/south`, "Secret pricing");
  await mine.run();
  await theirs.run();

  const [run2, run1] = (await t.call("GET", `/api/comparisons/${mine.c.id}/runs`, { headers: mine.h })).json;
  // Each site changes at two viewports.
  expect(run2.changeCount).toBe(4);
  const runChanges = (i: number) => sockets[i]!.received.filter((m) => m.type === "RUN_CHANGES").map((m) => m.payload);
  // The first runs had nothing to compare with: no count, no message.
  expect(runChanges(0)).toEqual([{ comparisonId: mine.c.id, runId: run2.id, changeCount: 4 }]);
  expect(runChanges(1)).toEqual([{ comparisonId: theirs.c.id, runId: expect.any(String), changeCount: 4 }]);

  // The feed itself: per owner, newest run first, with what the change view needs.
  const feed = changeHistory(sqliteSql(t.db));
  const since = new Date(now - 86_400_000).toISOString();
  const own = await feed.recentChanges(since, users[0]!.user.id);
  expect(own.map((c) => [c.label, c.viewport, c.kind, c.summary, c.before, c.after]).sort()).toEqual(
    [
      ["orbit", "desktop", "cta", "CTA text “Start free” → “Book a demo”", "Start free", "Book a demo"],
      ["orbit", "mobile", "cta", "CTA text “Start free” → “Book a demo”", "Start free", "Book a demo"],
      ["ember", "desktop", "cta", "CTA text “Start free” → “Get a quote”", "Start free", "Get a quote"],
      ["ember", "mobile", "cta", "CTA text “Start free” → “Get a quote”", "Start free", "Get a quote"],
    ].sort(),
  );
  for (const c of own)
    expect(c).toMatchObject({
      ownerId: users[0]!.user.id,
      comparisonId: mine.c.id,
      comparisonName: "Rivals",
      runId: run2.id,
      fromRunId: run1.id,
      at: run2.finishedAt,
    });
  expect(new Set((await feed.recentChanges(since)).map((c) => c.ownerId))).toEqual(new Set([users[0]!.user.id, users[1]!.user.id]));
  // A window that starts after the runs finished holds nothing.
  expect(await feed.recentChanges(new Date(now + 1).toISOString())).toEqual([]);

  // TrendHunter, started the way Mission Control starts it (in process for an in-memory database).
  await t.services.system.start();
  try {
    const moves = await waitFor(
      "TrendHunter's move in my feed",
      () =>
        nonEmpty(
          t.db
            .query<{ message: string; details: string; user_id: string; metadata: string }, []>(
              "SELECT message, details, user_id, metadata FROM activity_log WHERE message LIKE '%competitors%' ORDER BY rowid",
            )
            .all()
            .filter((r) => r.user_id === users[0]!.user.id),
        ),
      20_000,
    );
    expect(moves.map((m) => m.message)).toEqual(["2 of 3 competitors changed their CTA text this week in “Rivals”"]);
    expect(moves[0]!.details.split("\n").sort()).toEqual([
      "ember: CTA text “Start free” → “Get a quote”",
      "orbit: CTA text “Start free” → “Book a demo”",
    ]);
    const links = JSON.parse(moves[0]!.metadata).sites.map((s: { link: string }) => s.link);
    const [orbit, ember] = mine.targets;
    expect(links.sort()).toEqual(
      [
        `/comparison?id=${mine.c.id}&from=${run1.id}&to=${run2.id}&target=${ember.id}`,
        `/comparison?id=${mine.c.id}&from=${run1.id}&to=${run2.id}&target=${orbit.id}`,
      ].sort(),
    );
    // The other user's move went to their feed only, and mine never names their sites.
    const all = t.db
      .query<{ message: string; user_id: string; details: string }, []>(
        "SELECT message, user_id, details FROM activity_log WHERE message LIKE '%competitors%'",
      )
      .all();
    expect(all.filter((r) => r.user_id === users[1]!.user.id).map((r) => r.message)).toEqual([
      "2 of 2 competitors changed their CTA text this week in “Their rivals”",
    ]);
    expect(all.filter((r) => r.details.includes("Secret")).every((r) => r.user_id === users[1]!.user.id)).toBe(true);
  } finally {
    await t.services.system.stop();
  }

  // The digest at 08:00 Berlin: my changes, never the other user's.
  now = Date.parse("2026-03-02T07:00:01.000Z");
  const sent = await t.services.watch.digest.tick();
  expect(sent.map((s) => s.status)).toEqual(["sent", "sent"]);
  const mailTo = (email: string) => mailText(mails.find((m) => m.to.includes(email))!.data);
  const mineMail = mailTo(users[0]!.email);
  expect(mineMail).toContain("4 changes in the last day");
  expect(mineMail).toContain("4 changes: 4 cta");
  expect(mineMail).toContain("• orbit: CTA text “Start free” → “Book a demo”");
  expect(mineMail).toContain("• ember: CTA text “Start free” → “Get a quote”");
  expect(mineMail).not.toContain("Secret");
  const theirMail = mailTo(users[1]!.email);
  expect(theirMail).toContain("• north: CTA text “Start free” → “Secret launch”");
  expect(theirMail).not.toContain("Book a demo");
  expect(theirMail).not.toContain("Rivals\n");
}, 60_000);
