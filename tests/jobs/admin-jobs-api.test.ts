// The console's jobs routes through app.handle: admins only (roles checked on the server), the list
// by state, a bad state answered 400 { error }, and a dead job retried. End to end: an alert whose
// receiver stays down becomes a dead `watch.alert` job with its last error; once the receiver is
// back, the console's retry delivers it through the app's job runner, logged as sent.
import { afterAll, describe, expect, test } from "bun:test";
import { waitFor } from "#tests/support/wait";
import { makeTestApp } from "#tests/support/app";
import { ctaChanges, deadJob, rivalsWithWebhook } from "./support";

let receiverUp = false;
const hooks: unknown[] = [];
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    if (!receiverUp) return new Response("receiver is down", { status: 503, statusText: "Service Unavailable" });
    hooks.push(await req.json());
    return new Response("ok");
  },
});
afterAll(() => receiver.stop(true));

async function setup() {
  const t = makeTestApp({ env: { ALLOW_PRIVATE_TARGETS: "1" }, alertRetry: { backoffMs: [1_000], sleep: async () => {} } });
  const admin = await t.signup(); // the first account is the admin
  const user = await t.signup();
  return { ...t, admin: t.auth(admin.token), user: t.auth(user.token), userId: user.user.id as string };
}

describe("GET /api/admin/jobs", () => {
  test("admins only; by state; a bad state is 400 with the reason", async () => {
    const t = await setup();
    const dead = await deadJob(t.services.jobs, "the receiver is down");
    const queued = await t.services.jobs.enqueue({ kind: "test.later", payload: {}, runAt: Date.now() + 60_000 });

    expect((await t.call("GET", "/api/admin/jobs")).status).toBe(401);
    const asUser = await t.call("GET", "/api/admin/jobs?state=dead", { headers: t.user });
    expect(asUser.status).toBe(403);
    expect(asUser.json.error).toBeString();

    const deadList = await t.call("GET", "/api/admin/jobs?state=dead", { headers: t.admin });
    expect(deadList.status).toBe(200);
    expect(deadList.json).toEqual([
      {
        id: dead,
        kind: "test.dead",
        state: "dead",
        attempts: 1,
        maxAttempts: 1,
        lastError: "the receiver is down",
        leasedBy: null,
        runAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    expect((await t.call("GET", "/api/admin/jobs?state=queued", { headers: t.admin })).json.map((j: any) => j.id)).toEqual([queued]);
    expect((await t.call("GET", "/api/admin/jobs?state=running", { headers: t.admin })).json).toEqual([]);
    expect((await t.call("GET", "/api/admin/jobs?state=failed", { headers: t.admin })).json).toEqual([]);
    // Without a state: everything not done.
    expect((await t.call("GET", "/api/admin/jobs", { headers: t.admin })).json.map((j: any) => j.id).sort()).toEqual([dead, queued].sort());

    const bad = await t.call("GET", "/api/admin/jobs?state=exploded", { headers: t.admin });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('state must be "queued", "running", "done", "failed" or "dead"');
  });
});

describe("POST /api/admin/jobs/:id/retry", () => {
  test("a dead job is queued again; anything else is 409, an unknown id 404, a user 403", async () => {
    const t = await setup();
    const dead = await deadJob(t.services.jobs);
    expect((await t.call("POST", `/api/admin/jobs/${dead}/retry`)).status).toBe(401);
    expect((await t.call("POST", `/api/admin/jobs/${dead}/retry`, { headers: t.user })).status).toBe(403);
    const r = await t.call("POST", `/api/admin/jobs/${dead}/retry`, { headers: t.admin });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: dead, state: "queued", attempts: 0, lastError: "the receiver is down" });
    const again = await t.call("POST", `/api/admin/jobs/${dead}/retry`, { headers: t.admin });
    expect(again.status).toBe(409);
    expect(again.json.error).toBe("Only a dead job can be retried; this one is queued");
    const unknown = await t.call("POST", "/api/admin/jobs/nope/retry", { headers: t.admin });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe("Job not found");
  });

  test("an alert delivery that went dead is listed with its error, and the console's retry delivers it", async () => {
    const t = await setup();
    const { comparison: c, rule } = await rivalsWithWebhook(t, t.user, `http://127.0.0.1:${receiver.port}/hook`);
    receiverUp = false;
    const [result] = await t.services.watch.dispatchRunChanges(ctaChanges(t.userId, c.id));
    expect(result).toMatchObject({ alertId: rule.id, status: "failed", attempts: 2 });

    const [dead] = (await t.call("GET", "/api/admin/jobs?state=dead", { headers: t.admin })).json;
    expect(dead).toMatchObject({
      kind: "watch.alert",
      state: "dead",
      attempts: 2,
      lastError: "The webhook answered HTTP 503 Service Unavailable: receiver is down",
    });

    receiverUp = true;
    t.services.jobRunner.start();
    try {
      expect((await t.call("POST", `/api/admin/jobs/${dead.id}/retry`, { headers: t.admin })).status).toBe(200);
      await waitFor("the retried delivery", async () => (await t.services.jobs.get(dead.id))?.state === "done", 10_000);
    } finally {
      await t.services.jobRunner.stop();
    }
    expect(hooks).toHaveLength(1);
    const log = (await t.call("GET", `/api/comparisons/${c.id}/alerts/deliveries`, { headers: t.user })).json;
    expect(log.map((d: any) => [d.status, d.attempts])).toEqual([
      ["sent", 1],
      ["failed", 2],
    ]);
  });
});
