// Alert deliveries are jobs in the database: one waiting for its retry when the server stops is
// delivered by the next start's job runner (nothing lost), with the attempt before counted.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "#tests/support/app";
import { waitFor } from "#tests/support/wait";
import { ctaChanges, rivalsWithWebhook } from "./support";

let up = false;
const hooks: { text: string }[] = [];
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    if (!up) return new Response("down for maintenance", { status: 503, statusText: "Service Unavailable" });
    hooks.push((await req.json()) as { text: string });
    return new Response("ok");
  },
});
const dir = mkdtempSync(join(tmpdir(), "di-watch-jobs-"));
afterAll(async () => {
  receiver.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

test("an alert waiting for its retry when the server stops is delivered by the next start", async () => {
  const dbPath = join(dir, "design-intel.db");
  const env = { DATA_DIR: dir, ALLOW_PRIVATE_TARGETS: "1" };
  // The first server: its delivery fails and would wait a minute; its waiting never ends (it stops).
  const first = makeTestApp({ env, dbPath, alertRetry: { backoffMs: [60_000], sleep: () => new Promise(() => {}) } });
  const u = await first.signup();
  const h = first.auth(u.token);
  const { comparison: c } = await rivalsWithWebhook(first, h, `http://127.0.0.1:${receiver.port}/hook`);
  first.services.watch.queueRunChanges(ctaChanges(u.user.id, c.id));
  // Queued in the background once the comparison is read.
  const job = await waitFor("the delivery job", async () => (await first.services.jobs.list())[0], 10_000, 10);
  expect(job).toMatchObject({ kind: "watch.alert" });
  await waitFor("the first attempt to fail", async () => (await first.services.jobs.get(job!.id))?.state === "failed", 10_000, 10);
  expect((await first.services.jobs.get(job!.id))?.last_error).toBe(
    "The webhook answered HTTP 503 Service Unavailable: down for maintenance",
  );

  // The next start, a minute later, with the receiver back.
  up = true;
  const second = makeTestApp({ env, dbPath, now: () => Date.now() + 61_000 });
  second.services.jobRunner.start();
  try {
    await waitFor("the delivery", async () => (await second.services.jobs.get(job!.id))?.state === "done", 10_000, 10);
  } finally {
    await second.services.jobRunner.stop();
  }
  expect(hooks).toHaveLength(1);
  expect(hooks[0]!.text).toContain("Design Intel: 1 change in “Rivals”");
  expect(await second.services.watch.alerts.deliveries(u.user.id, c.id)).toEqual([
    {
      alertId: expect.any(String),
      runId: "run-2",
      status: "sent",
      attempts: 2,
      lastError: "The webhook answered HTTP 503 Service Unavailable: down for maintenance",
      sentAt: expect.any(String),
    },
  ]);
});
