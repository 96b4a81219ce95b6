// Alert delivery: a webhook receiver on loopback (one that fails first, to prove the retries, and
// one that always fails, so the failure is visible), e-mail through a real SMTP conversation, the
// SSRF rules for webhook URLs, the per-rule filter and ownership.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { openDatabase, type Db } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { sqliteSql } from "#server/db/sql";
import { HttpError } from "#server/http/errors";
import { newId } from "#server/lib/ids";
import { smtpMailer } from "#server/modules/admin/mailer";
import type { Change, TargetChanges } from "#server/modules/changes/model";
import { alertBody, type WebhookPayload } from "#server/modules/watch/alerts/model";
import { alertsService, EMAIL_UNAVAILABLE, type DispatchInput } from "#server/modules/watch/alerts/service";
import { postWebhook } from "#server/modules/watch/alerts/webhook";
// A name that resolves privately gets the guard's one answer for names (hardening: no DNS mapping).
import { SSRF_MESSAGES } from "#server/modules/capture/browser/ssrf";
import { startMailbox } from "#tests/support/mailbox";

// ---- receivers ---------------------------------------------------------------------------------
const hooks: { path: string; body: WebhookPayload }[] = [];
const failuresLeft = new Map<string, number>();
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const { pathname } = new URL(req.url);
    const left = failuresLeft.get(pathname) ?? 0;
    if (pathname === "/always-down" || left > 0) {
      failuresLeft.set(pathname, left - 1);
      return new Response("receiver is down", { status: 503, statusText: "Service Unavailable" });
    }
    if (pathname === "/redirect") return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/" } });
    hooks.push({ path: pathname, body: (await req.json()) as WebhookPayload });
    return new Response("ok");
  },
});
const hookUrl = (path: string) => `http://127.0.0.1:${receiver.port}${path}`;

const mailbox = await startMailbox();
const { mails, port: smtpPort } = mailbox;

afterAll(async () => {
  receiver.stop(true);
  await mailbox.close();
});

// ---- fixtures ----------------------------------------------------------------------------------
let db: Db;
let waits: number[];
const user = () => {
  const id = newId();
  db.query("INSERT INTO users (id, email, password_hash) VALUES (?, ?, 'x')").run(id, `${id}@example.test`);
  return id;
};
const comparison = (ownerId: string) => {
  const id = newId();
  db.query(
    "INSERT INTO comparisons (id, owner_id, name, created_at, updated_at) VALUES (?, ?, 'Rivals', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
  ).run(id, ownerId);
  return id;
};
const owns = async (comparisonId: string, ownerId: string) =>
  db.query("SELECT 1 FROM comparisons WHERE id = ? AND owner_id = ?").get(comparisonId, ownerId) !== null;
const service = (opts: { allowPrivate?: boolean; mailer?: boolean; resolve?: (h: string) => Promise<string[]> } = {}) =>
  alertsService({
    db: sqliteSql(db),
    ownsComparison: owns,
    allowPrivateTargets: opts.allowPrivate ?? true,
    mailer: opts.mailer === false ? undefined : smtpMailer(`smtp://127.0.0.1:${smtpPort}`, "Design Intel <watch@example.test>"),
    resolve: opts.resolve,
    // Backoff is recorded, not slept: the retries themselves are real requests.
    retry: { backoffMs: [2000, 10000], sleep: async (ms) => void waits.push(ms) },
    webhookTimeoutMs: 5000,
  });
const body = (input: unknown) => alertBody.parse(input);
const httpError = async (fn: () => unknown) => {
  try {
    await fn();
  } catch (e) {
    if (e instanceof HttpError) return [e.status, e.message];
    throw e;
  }
  return "no error";
};

const cta: Change = {
  kind: "cta",
  severity: "high",
  viewport: "desktop",
  summary: "CTA text “Start free” → “Book a demo”",
  before: "Start free",
  after: "Book a demo",
  evidence: { beforeBox: { x: 1, y: 2, width: 3, height: 4 } },
};
const meta: Change = {
  kind: "meta",
  severity: "low",
  viewport: "mobile",
  summary: "Meta description “a” → “b”",
  before: "a",
  after: "b",
  evidence: {},
};
const targets: TargetChanges[] = [
  { targetId: "t1", label: "Alpha", url: "https://alpha.example/", changes: [cta, meta] },
  { targetId: "t2", label: "Beta", url: "https://beta.example/", changes: [] },
];
const run = (ownerId: string, comparisonId: string, t = targets): DispatchInput => ({
  ownerId,
  comparison: { id: comparisonId, name: "Rivals" },
  run: { id: "run-7", number: 7 },
  link: `https://intel.example/comparisons/${comparisonId}/changes?to=run-7`,
  targets: t,
});

beforeEach(async () => {
  db = openDatabase(":memory:");
  migrate(db);
  hooks.length = 0;
  mails.length = 0;
  waits = [];
  failuresLeft.clear();
});

describe("webhook alerts", () => {
  test("the receiver gets Slack-compatible text plus structured changes; a failing receiver is retried with backoff", async () => {
    const alice = user();
    const c = comparison(alice);
    const s = service();
    const rule = await s.create(alice, c, body({ channel: "webhook", url: hookUrl("/flaky") }));
    expect(rule).toMatchObject({ channel: "webhook", url: hookUrl("/flaky"), email: null, minSeverity: "low", kinds: [] });
    failuresLeft.set("/flaky", 1);
    expect(await s.dispatch(run(alice, c))).toEqual([
      { alertId: rule.id, status: "sent", attempts: 2, lastError: "The webhook answered HTTP 503 Service Unavailable: receiver is down" },
    ]);
    expect(waits).toEqual([2000]);
    expect(hooks).toHaveLength(1);
    const got = hooks[0]!.body;
    expect(got.text).toBe(
      [
        "Design Intel: 2 changes in “Rivals” (run #7)",
        "*Alpha* https://alpha.example/",
        "• [high] cta · desktop: CTA text “Start free” → “Book a demo”",
        "• [low] meta · mobile: Meta description “a” → “b”",
        `View the changes: https://intel.example/comparisons/${c}/changes?to=run-7`,
      ].join("\n"),
    );
    expect(got.comparison).toEqual({ id: c, name: "Rivals" });
    expect(got.run).toEqual({ id: "run-7", number: 7 });
    expect(got.targets).toEqual([{ targetId: "t1", label: "Alpha", url: "https://alpha.example/", changes: [cta, meta] }]); // Beta had none
    expect(await s.deliveries(alice, c)).toEqual([
      {
        alertId: rule.id,
        runId: "run-7",
        status: "sent",
        attempts: 2,
        lastError: "The webhook answered HTTP 503 Service Unavailable: receiver is down",
        sentAt: expect.any(String),
      },
    ]);
  });

  test("a receiver that stays down: every attempt made, the failure and its reason in the log", async () => {
    const alice = user();
    const c = comparison(alice);
    const s = service();
    const rule = await s.create(alice, c, body({ channel: "webhook", url: hookUrl("/always-down") }));
    const [r] = await s.dispatch(run(alice, c));
    expect(r).toEqual({
      alertId: rule.id,
      status: "failed",
      attempts: 3,
      lastError: "The webhook answered HTTP 503 Service Unavailable: receiver is down",
    });
    expect(waits).toEqual([2000, 10000]);
    expect(await s.deliveries(alice, c)).toEqual([
      { alertId: rule.id, runId: "run-7", status: "failed", attempts: 3, lastError: r!.lastError, sentAt: null },
    ]);
  });

  test("redirects are not followed (they could lead inside)", async () => {
    await expect(postWebhook(hookUrl("/redirect"), {}, { allowPrivate: true })).rejects.toThrow(
      "The webhook answered HTTP 302 (redirects are not followed)",
    );
  });

  test("page text cannot ping a Slack channel", async () => {
    const alice = user();
    const c = comparison(alice);
    const s = service();
    await s.create(alice, c, body({ channel: "webhook", url: hookUrl("/slack") }));
    const sneaky: Change = { ...cta, summary: "Headline “<!channel> & <https://evil.example|click>” → “x”" };
    await s.dispatch(run(alice, c, [{ targetId: "t1", label: "<!here>", url: "https://alpha.example/", changes: [sneaky] }]));
    const text = hooks[0]!.body.text;
    expect(text).not.toContain("<!");
    expect(text).toContain("&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;");
    expect(text).toContain("*&lt;!here&gt;*");
  });
});

describe("SSRF rules for webhook URLs (as for captures)", () => {
  test("without ALLOW_PRIVATE_TARGETS loopback and private addresses are refused when the rule is made", async () => {
    const alice = user();
    const c = comparison(alice);
    const s = service({ allowPrivate: false });
    expect(await httpError(() => s.create(alice, c, body({ channel: "webhook", url: hookUrl("/x") })))).toEqual([
      400,
      "That address points to a private or local network, which is not allowed",
    ]);
    expect(await httpError(() => s.create(alice, c, body({ channel: "webhook", url: "http://localhost:8080/x" })))).toEqual([
      400,
      "That address points to a private or local network, which is not allowed",
    ]);
    expect(await httpError(() => s.create(alice, c, body({ channel: "webhook", url: "ftp://hooks.example/x" })))).toEqual([
      400,
      "Only http:// and https:// addresses can be captured",
    ]);
    expect(await httpError(() => s.create(alice, c, body({ channel: "webhook", url: "https://user:pw@hooks.example/x" })))).toEqual([
      400,
      "Addresses with a username or password (user@host) are not allowed",
    ]);
  });

  test("a name that resolves inside is refused when the rule is made", async () => {
    const alice = user();
    const c = comparison(alice);
    const s = service({ allowPrivate: false, resolve: async () => ["10.0.0.7"] });
    expect(await httpError(() => s.create(alice, c, body({ channel: "webhook", url: "https://hooks.example.test/x" })))).toEqual([
      400,
      SSRF_MESSAGES.unreachable,
    ]);
  });

  test("DNS rebinding: a name public when the rule was made and private at delivery is blocked before any connection", async () => {
    const alice = user();
    const c = comparison(alice);
    let answer = ["93.184.216.34"];
    const s = service({ allowPrivate: false, resolve: async () => answer });
    const rule = await s.create(alice, c, body({ channel: "webhook", url: `http://hooks.example.test:${receiver.port}/inside` }));
    answer = ["127.0.0.1"];
    const [r] = await s.dispatch(run(alice, c));
    expect(r).toEqual({ alertId: rule.id, status: "failed", attempts: 3, lastError: `Blocked: ${SSRF_MESSAGES.unreachable}` });
    expect(hooks).toHaveLength(0);
  });

  test("with ALLOW_PRIVATE_TARGETS a loopback receiver is fine", async () => {
    await postWebhook(hookUrl("/allowed"), { text: "hi" }, { allowPrivate: true });
    expect(hooks.map((h) => h.path)).toEqual(["/allowed"]);
  });
});

describe("e-mail alerts", () => {
  test("through a real SMTP conversation: subject, every change with before and after, the link", async () => {
    const alice = user();
    const c = comparison(alice);
    const s = service();
    const rule = await s.create(alice, c, body({ channel: "email", email: "watcher@example.test", minSeverity: "medium" }));
    expect(rule).toMatchObject({ channel: "email", email: "watcher@example.test", url: null, minSeverity: "medium" });
    expect(await s.dispatch(run(alice, c))).toEqual([{ alertId: rule.id, status: "sent", attempts: 1, lastError: null }]);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(["watcher@example.test"]);
    const data = mails[0]!.data.replace(/=\r?\n/g, ""); // quoted-printable soft breaks
    expect(data).toMatch(/Subject: =\?UTF-8\?Q\?Design_Intel=3A_1_change_in_=E2=80=9CRiv/); // “Design Intel: 1 change in “Rivals” (run #7)”, MIME-encoded
    expect(data).toContain("Alpha =E2=80=94 https://alpha.example/");
    expect(data).toContain("before: Start free");
    expect(data).toContain("after:  Book a demo");
    expect(data).toContain(`View the changes: https://intel.example/comparisons/${c}/changes?to=3Drun-7`);
    expect(data).not.toContain("Meta description"); // below the rule's minimum severity
  });

  test("without SMTP_URL an e-mail rule is refused with the reason", async () => {
    const alice = user();
    const c = comparison(alice);
    expect(await httpError(() => service({ mailer: false }).create(alice, c, body({ channel: "email", email: "a@example.test" })))).toEqual(
      [400, EMAIL_UNAVAILABLE],
    );
  });
});

describe("rules", () => {
  test("minimum severity and kinds decide what is sent; nothing left means no message", async () => {
    const alice = user();
    const c = comparison(alice);
    const s = service();
    const onlyTiming = await s.create(alice, c, body({ channel: "webhook", url: hookUrl("/timing"), kinds: ["timing"] }));
    const onlyMeta = await s.create(alice, c, body({ channel: "webhook", url: hookUrl("/meta"), kinds: ["meta", "meta"] }));
    expect(onlyMeta.kinds).toEqual(["meta"]);
    const results = await s.dispatch(run(alice, c));
    expect(results.map((r) => [r.alertId, r.status])).toEqual([
      [onlyTiming.id, "skipped"],
      [onlyMeta.id, "sent"],
    ]);
    expect(hooks.map((h) => [h.path, h.body.targets.flatMap((t) => t.changes.map((x) => x.kind))])).toEqual([["/meta", ["meta"]]]);
    expect((await s.deliveries(alice, c)).map((d) => d.alertId)).toEqual([onlyMeta.id]); // a skip is not a delivery
  });

  test("another user's comparison and alert ids are 404; the body is validated", async () => {
    const alice = user();
    const bob = user();
    const c = comparison(alice);
    const s = service();
    const rule = await s.create(alice, c, body({ channel: "webhook", url: hookUrl("/a") }));
    expect(await httpError(() => s.create(bob, c, body({ channel: "webhook", url: hookUrl("/b") })))).toEqual([
      404,
      "Comparison not found",
    ]);
    expect(await httpError(() => s.list(bob, c))).toEqual([404, "Comparison not found"]);
    expect(await httpError(() => s.deliveries(bob, c))).toEqual([404, "Comparison not found"]);
    expect(await httpError(() => s.remove(bob, rule.id))).toEqual([404, "Alert not found"]);
    expect((await s.list(alice, c)).map((r) => r.id)).toEqual([rule.id]);
    await s.remove(alice, rule.id);
    expect(await s.list(alice, c)).toEqual([]);
    expect(alertBody.safeParse({ channel: "sms", to: "1" }).error?.issues[0]?.message).toBe(
      'channel must be "webhook", "email" or "members"',
    );
    expect(alertBody.safeParse({ channel: "email", email: "not an address" }).error?.issues[0]?.message).toBe(
      "Enter a valid e-mail address",
    );
    expect(alertBody.safeParse({ channel: "webhook", url: "https://x.example", minSeverity: "urgent" }).success).toBe(false);
  });
});
