import { expect } from "bun:test";
import type { JobsService } from "#server/modules/jobs/public";

/**
 * A job that has used its one attempt and is dead (kind `test.dead`, no handler anywhere), for the
 * console's routes. Other `test.dead` jobs queued again by an earlier retry are made dead on the way.
 */
export async function deadJob(jobs: JobsService, error = "the receiver is down", ownerId: string | null = null): Promise<string> {
  const id = await jobs.enqueue({ kind: "test.dead", payload: { note: "made dead for a test" }, ownerId, maxAttempts: 1 });
  for (;;) {
    const { job } = await jobs.claim(["test.dead"], "test-worker", 60_000);
    if (!job) throw new Error("the test job was not claimable");
    await jobs.fail(job, new Error(error), 0);
    if (job.id === id) return id;
  }
}

type TestApp = ReturnType<typeof import("#tests/support/app").makeTestApp>;

/** A comparison "Rivals" of the user's with one webhook alert rule to `url`, made through the API. */
export async function rivalsWithWebhook(t: TestApp, headers: Record<string, string>, url: string) {
  const comparison = (await t.call("POST", "/api/comparisons", { body: { name: "Rivals" }, headers })).json as { id: string };
  const rule = await t.call("POST", `/api/comparisons/${comparison.id}/alerts`, { body: { channel: "webhook", url }, headers });
  if (rule.status !== 201) throw new Error(`alert rule failed: ${rule.text}`);
  return { comparison, rule: rule.json as { id: string } };
}

/** One run's changes for the watch to alert on: a high-severity CTA change of one site. */
export const ctaChanges = (ownerId: string, comparisonId: string) => ({
  ownerId,
  comparisonId,
  runId: "run-2",
  targets: [
    {
      targetId: "t1",
      label: "Orbit",
      url: "http://127.0.0.1:9/",
      changes: [
        { kind: "cta", severity: "high", viewport: "desktop", summary: "CTA changed", before: "a", after: "b", evidence: {} } as const,
      ],
    },
  ],
});

/**
 * Owners take turns (decision 0019), the same on both dialects: a burst of 30 from one owner queued
 * ahead of 3 each from two others and one of the installation's. `tick` moves the queue's clock on
 * so the later owners' jobs are younger. Round-robin makes the light owners' last jobs the 10th
 * claim; first in, first out would have made it the 36th.
 */
export async function expectOwnersTakeTurns(q: JobsService, owners: [string, string, string], tick: () => void): Promise<void> {
  const [heavy, light1, light2] = owners;
  for (let i = 0; i < 30; i++) await q.enqueue({ kind: "k", payload: i, ownerId: heavy });
  tick();
  for (let i = 0; i < 3; i++) await q.enqueue({ kind: "k", payload: i, ownerId: light1 });
  for (let i = 0; i < 3; i++) await q.enqueue({ kind: "k", payload: i, ownerId: light2 });
  await q.enqueue({ kind: "k", payload: "system" }); // no owner: the installation's own turn
  const order: string[] = [];
  for (;;) {
    const { job } = await q.claim(["k"], "w", 60_000);
    if (!job) break;
    order.push(job.owner_id ?? "system");
    await q.complete(job);
  }
  expect(order).toHaveLength(37);
  // 4 owners in the first round, then 3 (the installation had one job).
  const lastLight = Math.max(order.lastIndexOf(light1), order.lastIndexOf(light2));
  expect(lastLight + 1).toBe(10);
  expect(order.slice(0, 4).sort()).toEqual([heavy, light1, light2, "system"].sort());
}
