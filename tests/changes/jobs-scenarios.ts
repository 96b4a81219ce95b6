// Change detection as a job, as instances of one deployment run it: a serve completes the runs and
// only queues each run's detection (with the page sets it listed stored beside the run); another
// instance — a worker, or the same server after a restart — claims the job and stores the changes.
// A job attempt that stored them and then lost its lease (its worker killed) is run again without
// storing or alerting twice; a dead job stays visible and retryable in the console. The scenarios
// run on SQLite (changes-jobs.test.ts) and on PostgreSQL (changes-jobs-pg.test.ts).
import { expect } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqlDb } from "#server/db/sql";
import { CHANGES_JOB, type ChangesJob } from "#server/modules/changes/job";
import { MISSED_AFTER_MS } from "#server/modules/changes/service";
import { ALERT_JOB } from "#server/modules/watch/alerts/service";
import { drain, type JobContext } from "#server/modules/jobs/public";
import { makeTestApp } from "#tests/support/app";
import { waitFor } from "#tests/support/wait";
import { fakeRunTools } from "#tests/api/comparisons-support";

const URL_A = "http://127.0.0.1:9/alpha";
const URL_B = "http://127.0.0.1:9/beta";

type App = ReturnType<typeof makeTestApp>;

/** A webhook receiver on loopback: the alerts each run's changes sent. */
export function webhookReceiver() {
  const received: unknown[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      received.push(await req.json());
      return new Response("ok");
    },
  });
  return { url: `http://127.0.0.1:${server.port}/hook`, received, stop: () => server.stop(true) };
}
export type Receiver = ReturnType<typeof webhookReceiver>;

/** Instances of one deployment: one database (a SQLite file, or a PostgreSQL handle), one DATA_DIR, the fake capture. */
export function deployment(db: { dbPath: string } | { sql: SqlDb }) {
  const dataDir = mkdtempSync(join(tmpdir(), "di-changes-jobs-"));
  const sites: Record<string, { title?: string }> = {};
  const fake = fakeRunTools(sites);
  const make = (role?: "serve") =>
    makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" }, runTools: fake.tools, role, ...db });
  return { dataDir, sites, make };
}
type Deployment = ReturnType<typeof deployment>;

/**
 * On a serve: a comparison of two sites with a webhook alert, whose second run completed. Beta's
 * title changed and its navigation gained /pricing between the runs (the serve's page lister
 * answers from `nav`).
 */
async function secondRunServed(d: Deployment, hook: Receiver) {
  const serve = d.make("serve");
  const nav = { paths: ["/about"] };
  serve.services.discovery.listPages = async (url: string) =>
    url === URL_B ? { nav: nav.paths.map((path) => ({ path, role: "other" as const })), sitemap: null } : null;
  const { h, c, get, run, ownerId } = await rivals(serve, hook);
  await run();
  d.sites[URL_B] = { title: "Beta rewritten" };
  nav.paths = ["/about", "/pricing"];
  await run();
  const [r2, r1] = await get("/runs");
  // The serve detects nothing itself: the run waits for its job.
  expect([r1.changesStatus, r2.changesStatus, r2.changeCount]).toEqual(["first-run", "pending", null]);
  const queued = (await serve.services.jobs.list("queued")).filter((j) => j.kind === CHANGES_JOB);
  expect(queued).toHaveLength(1);
  const job = (await serve.services.jobs.get(queued[0]!.id))!;
  const payload: ChangesJob = { runId: r2.id, comparisonId: c.id, ownerId };
  expect(JSON.parse(job.payload)).toEqual(payload);
  expect(job.owner_id).toBe(ownerId);
  return { serve, h, c, get, run, runId: r2.id as string, jobId: job.id, payload, sites: d.sites };
}

/** A comparison of two sites with a webhook alert; `run` starts a run and waits until the app is idle. */
async function rivals(app: App, hook: Receiver) {
  const u = await app.signup();
  const h = app.auth(u.token);
  const c = (await app.call("POST", "/api/comparisons", { body: { name: "Rivals" }, headers: h })).json;
  for (const [url, label] of [
    [URL_A, "Alpha"],
    [URL_B, "Beta"],
  ])
    expect((await app.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url, label }, headers: h })).status).toBe(201);
  expect(
    (await app.call("POST", `/api/comparisons/${c.id}/alerts`, { body: { channel: "webhook", url: hook.url }, headers: h })).status,
  ).toBe(201);
  const get = async (path: string) => (await app.call("GET", `/api/comparisons/${c.id}${path}`, { headers: h })).json;
  const run = async () => {
    expect((await app.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
    await app.services.comparisons.whenIdle();
  };
  // The runs' workspace: a personal workspace shares its user's id.
  return { h, c, get, run, ownerId: u.user.id as string };
}

const storedRows = async (app: App, runId: string) =>
  (await app.sql.one<{ n: number }>("SELECT COUNT(*) AS n FROM run_changes WHERE run_id = $1", [runId]))!.n;

/** A job attempt's context, for an attempt the test runs itself. */
const attempt = (job: JobContext["job"], at: number): JobContext => ({ job, at, final: false, signal: new AbortController().signal });

/** The single process works the job it queued as the run completes: the run closes with its changes stored. */
export async function detectedInProcess(d: Deployment, hook: Receiver) {
  const app = d.make();
  const x = await rivals(app, hook);
  await x.run();
  d.sites[URL_B] = { title: "Beta rewritten" };
  await x.run();
  const [r2] = await x.get("/runs");
  expect(r2.changesStatus).toBe("ready");
  expect(r2.changeCount).toBe(await storedRows(app, r2.id));
  const done = (await app.services.jobs.list("done")).filter((j) => j.kind === CHANGES_JOB);
  expect(done).toHaveLength(1);
  expect(JSON.parse((await app.services.jobs.get(done[0]!.id))!.payload)).toEqual({
    runId: r2.id,
    comparisonId: x.c.id,
    ownerId: x.ownerId,
  });
  await app.services.watch.alertsIdle();
  expect(hook.received).toHaveLength(1);
}

/** A second instance's job runner claims the queued job: the changes (the page sets' `pages` one too) are stored, alerted once. */
export async function detectedByAnotherInstance(d: Deployment, hook: Receiver) {
  const s = await secondRunServed(d, hook);
  const worker = d.make();
  worker.services.jobRunner.start();
  try {
    await waitFor("the run's changes, found by the other instance", async () => (await s.get("/runs"))[0].changeCount !== null, 30_000);
  } finally {
    await worker.services.jobRunner.stop();
  }
  await worker.services.watch.alertsIdle();
  const [r2] = await s.get("/runs");
  expect(r2.changesStatus).toBe("ready");
  expect(r2.changeCount).toBe(await storedRows(worker, s.runId));
  const beta = (await s.get("/changes")).targets[1];
  expect(beta.changes.some((c: { kind: string }) => c.kind === "copy")).toBe(true);
  // Listed by the serve after capture, compared by the worker.
  expect(beta.changes.filter((c: { kind: string }) => c.kind === "pages").map((c: { summary: string }) => c.summary)).toEqual([
    "New page in navigation: /pricing",
  ]);
  expect(await worker.services.jobs.get(s.jobId)).toMatchObject({ state: "done", attempts: 1 });
  expect(hook.received).toHaveLength(1);
}

/**
 * The worker that claimed the job stored the changes and sent the alert, then was killed before
 * marking the job done: once its lease runs out another worker runs the job again, which stores
 * and sends nothing more. Two attempts at once (a lease lost while its attempt still ran): one stores.
 */
export async function rerunAfterLeaseExpiry(d: Deployment, hook: Receiver) {
  const s = await secondRunServed(d, hook);
  const worker = d.make();
  const { jobs } = worker.services;
  const handlers = worker.services.changes.jobHandlers;
  const at = jobs.now();
  const { job } = await jobs.claim([CHANGES_JOB], "killed-worker", 50, at);
  expect(job?.id).toBe(s.jobId);
  expect(await handlers[CHANGES_JOB]!.run(s.payload, attempt(job!, at))).toBe("stored");
  await worker.services.watch.alertsIdle();
  const stored = await storedRows(worker, s.runId);
  expect(stored).toBeGreaterThan(0);
  expect(hook.received).toHaveLength(1);

  await Bun.sleep(60);
  const outcomes = await drain({ queue: jobs, handlers, ids: [s.jobId] });
  expect(outcomes).toEqual([{ id: s.jobId, state: "done", value: "already stored" }]);
  expect(await jobs.get(s.jobId)).toMatchObject({ state: "done", attempts: 2 });
  await worker.services.watch.alertsIdle();
  expect(await storedRows(worker, s.runId)).toBe(stored);
  expect((await s.get("/runs"))[0].changeCount).toBe(stored);
  expect(hook.received).toHaveLength(1);

  // A third run, and two attempts of its job side by side.
  s.sites[URL_A] = { title: "Alpha rewritten" };
  await s.run();
  const [r3] = await s.get("/runs");
  const third = (await jobs.list("queued")).find((j) => j.kind === CHANGES_JOB)!;
  const claimed = (await jobs.claim([CHANGES_JOB], "first", 60_000, jobs.now())).job!;
  expect(claimed.id).toBe(third.id);
  const p: ChangesJob = { ...s.payload, runId: r3.id };
  const both = await Promise.all([
    handlers[CHANGES_JOB]!.run(p, attempt(claimed, at)),
    handlers[CHANGES_JOB]!.run(p, attempt(claimed, at)),
  ]);
  expect(both.sort()).toEqual(["already stored", "stored"]);
  await worker.services.watch.alertsIdle();
  const [r3After] = await s.get("/runs");
  expect(r3After.changeCount).toBeGreaterThan(0);
  expect(r3After.changeCount).toBe(await storedRows(worker, r3.id));
  expect(hook.received).toHaveLength(2);
}

/**
 * The worker that stored a run's changes was killed before it delivered their alerts: the delivery
 * job was stored with the changes, so another instance's job runner sends it, once.
 */
export async function alertsOutliveTheirWorker(d: Deployment, hook: Receiver) {
  const s = await secondRunServed(d, hook);
  const killed = d.make();
  const { jobs, watch } = killed.services;
  // Killed right after the commit: what was to run after it never does.
  const queueOnly = watch.alertRunChanges;
  watch.alertRunChanges = async (found) => (await queueOnly(found), () => {});
  const at = jobs.now();
  const { job } = await jobs.claim([CHANGES_JOB], "killed-worker", 60_000, at);
  expect(await killed.services.changes.jobHandlers[CHANGES_JOB]!.run(s.payload, attempt(job!, at))).toBe("stored");
  const alerts = (await jobs.list("queued")).filter((j) => j.kind === ALERT_JOB);
  expect(alerts).toHaveLength(1);
  expect(hook.received).toHaveLength(0);

  const worker = d.make();
  worker.services.jobRunner.start();
  try {
    await waitFor("the alert, sent by another instance", async () => hook.received.length > 0, 30_000);
    await waitFor("the alert job done", async () => (await worker.services.jobs.get(alerts[0]!.id))?.state === "done", 10_000);
  } finally {
    await worker.services.jobRunner.stop();
  }
  expect(hook.received).toHaveLength(1);
  expect((hook.received[0] as { run: { id: string } }).run.id).toBe(s.runId);
}

/** Every attempt's worker killed: the job goes dead and the run stays pending; the console lists it, and its retry stores the changes. */
export async function deadJobRetriedFromConsole(d: Deployment, hook: Receiver) {
  const s = await secondRunServed(d, hook);
  const worker = d.make();
  const { jobs } = worker.services;
  const t0 = jobs.now();
  const max = (await jobs.get(s.jobId))!.max_attempts;
  for (let i = 0; i < max; i++) expect((await jobs.claim([CHANGES_JOB], `killed-${i}`, 1, t0 + i * 10)).job?.id).toBe(s.jobId);
  const { job, expired } = await jobs.claim([CHANGES_JOB], "last", 1, t0 + max * 10);
  expect(job).toBeNull();
  expect(expired.map((j) => [j.id, j.state])).toEqual([[s.jobId, "dead"]]);
  expect((await s.get("/runs"))[0]).toMatchObject({ changeCount: null, changesStatus: "pending" });

  // The first account is the installation's admin.
  const dead = (await s.serve.call("GET", "/api/admin/jobs?state=dead", { headers: s.h })).json;
  expect(dead.map((j: { id: string; kind: string }) => [j.id, j.kind])).toEqual([[s.jobId, CHANGES_JOB]]);
  expect((await s.serve.call("POST", `/api/admin/jobs/${s.jobId}/retry`, { headers: s.h })).status).toBe(200);
  const outcomes = await drain({ queue: jobs, handlers: worker.services.changes.jobHandlers, ids: [s.jobId] });
  expect(outcomes).toEqual([{ id: s.jobId, state: "done", value: "stored" }]);
  await worker.services.watch.alertsIdle();
  expect((await s.get("/runs"))[0]).toMatchObject({ changesStatus: "ready" });
  expect(hook.received).toHaveLength(1);
}

/**
 * The serve stopped between completing the run and queueing its detection: a process that runs
 * jobs queues it once the run is older than the serve's own queueing could take, and only once.
 */
export async function missedRunQueued(d: Deployment, hook: Receiver) {
  const s = await secondRunServed(d, hook);
  const worker = d.make();
  const { changes, jobs } = worker.services;
  await worker.sql.run("DELETE FROM jobs WHERE id = $1", [s.jobId]);
  expect(await changes.queueMissed()).toBe(0);
  const later = jobs.now() + MISSED_AFTER_MS + 1;
  expect(await changes.queueMissed(later)).toBe(1);
  expect(await changes.queueMissed(later)).toBe(0);
  const [queued] = (await jobs.list("queued")).filter((j) => j.kind === CHANGES_JOB);
  expect(JSON.parse((await jobs.get(queued!.id))!.payload)).toEqual(s.payload);
  expect(await drain({ queue: jobs, handlers: changes.jobHandlers, ids: [queued!.id] })).toEqual([
    { id: queued!.id, state: "done", value: "stored" },
  ]);
  expect(await changes.queueMissed(later)).toBe(0);
  expect((await s.get("/runs"))[0].changesStatus).toBe("ready");
  // The first run has nothing to compare with: never queued.
  expect((await s.get("/runs"))[1].changesStatus).toBe("first-run");
}
