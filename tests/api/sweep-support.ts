// A populated app for the route sweeps: one user ("alice") owns one of every kind of row the API
// hands out by id (comparison, targets, snapshots with real PNGs, diffs, findings, activity,
// generated components, an A/B test), a second admin owns an API key, and a backup exists.
// Every private value of alice's is also collected so list answers can be scanned for leaks.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { sqliteSql } from "#server/db/sql";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentLoop } from "#server/modules/agents/loop/loop";
import { filmstripDirFor, MANIFEST_FILE } from "#server/modules/capture/filmstrip/filmstrip";
import { makeTestApp } from "#tests/support/app";
import { fakeRunTools } from "./comparisons-support";

/** Unique enough that finding it in another user's answer can only mean a leak. */
export const MARKER = "alice-private-q7x9";

export const routeKey = (method: string, path: string) => `${method} ${path.replace(/(.)\/$/, "$1")}`;

/** Routes the sweeps leave alone: the SSR catch-all and static files (no data behind them). */
export const NOT_API = new Set(["GET /*", "GET /favicon.svg", "GET /favicon.ico"]);

/**
 * An app on its own data directory whose runs are fake but leave what real ones do (snapshots, diffs
 * and a one-frame filmstrip each), with progress and activity through the app's real hub and log.
 */
export function sweepApp(prefix: string) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const fake = fakeRunTools();
  // Every capture also leaves a one-frame filmstrip beside its screenshot, as the real recorder does.
  const capture = fake.tools.capture!;
  fake.tools.capture = async (ownerId, job, onStage) => {
    const outcome = await capture(ownerId, job, onStage);
    if (outcome.ok) {
      const dir = filmstripDirFor(job.screenshotPath);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "000.jpg"), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0xff, 0xd9]));
      writeFileSync(
        join(dir, MANIFEST_FILE),
        JSON.stringify({ version: 1, width: 1440, height: 900, frames: [{ ms: 120, file: "000.jpg" }] }),
      );
    }
    return outcome;
  };
  // Progress and activity go through the app's real hub and activity log, as in production.
  delete fake.tools.publish;
  delete fake.tools.recordActivity;
  // The fake run tools stand in for the capture pool, so readiness reports a pool that is up
  // (a 503 from /api/health/ready is an answer by design, not a failure the sweeps look for).
  const t = makeTestApp({
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" },
    runTools: fake.tools,
    captureReadiness: () => ({ available: true, browsers: 1, concurrency: 1, onDemand: false }),
  });
  return { t, dataDir, fake };
}

export async function sweepWorld() {
  const { t, dataDir, fake } = sweepApp("di-sweep-");
  const root = await t.signup(`root-${MARKER}@example.com`); // first account: admin
  const alice = await t.signup(`alice-${MARKER}@example.com`);
  const bob = await t.signup();
  const carol = await t.signup(); // promoted below: a second admin
  const dave = await t.signup(); // a member of alice's team workspaces
  const h = {
    root: t.auth(root.token),
    alice: t.auth(alice.token),
    bob: t.auth(bob.token),
    carol: t.auth(carol.token),
    dave: t.auth(dave.token),
  };
  const promoted = await t.call("PATCH", `/api/admin/users/${carol.user.id}`, { headers: h.root, body: { role: "admin" } });
  if (promoted.status !== 200) throw new Error(`promote failed: ${promoted.text}`);

  // Alice's comparison, run to completion by the fake run tools (real PNGs on disk).
  const mk = async (name: string) => {
    const c = await t.call("POST", "/api/comparisons", { headers: h.alice, body: { name, description: `${MARKER} notes` } });
    if (c.status !== 201) throw new Error(`create failed: ${c.text}`);
    const targets: string[] = [];
    for (const [i, label] of ["Ours", "Theirs"].entries()) {
      const r = await t.call("POST", `/api/comparisons/${c.json.id}/targets`, {
        headers: h.alice,
        body: { url: `http://127.0.0.1:9/${MARKER}/${name.length}-${i}`, label: `${label} ${MARKER}` },
      });
      if (r.status !== 201) throw new Error(`add target failed: ${r.text}`);
      targets.push(r.json.id);
    }
    return { id: c.json.id as string, targets };
  };
  const main = await mk(`Run ${MARKER}`);
  const started = await t.call("POST", `/api/comparisons/${main.id}/start`, { headers: h.alice });
  if (started.status !== 202) throw new Error(`start failed: ${started.text}`);
  await t.services.comparisons.whenIdle();
  // A second run, so the history holds two runs and their changes.
  const again = await t.call("POST", `/api/comparisons/${main.id}/start`, { headers: h.alice });
  if (again.status !== 202) throw new Error(`second start failed: ${again.text}`);
  await t.services.comparisons.whenIdle();
  const snapshots = (await t.call("GET", `/api/comparisons/${main.id}/snapshots`, { headers: h.alice })).json as { id: string }[];
  const diffs = (await t.call("GET", `/api/comparisons/${main.id}/diffs`, { headers: h.alice })).json as { id: string }[];
  const findings = (await t.call("GET", `/api/comparisons/${main.id}/findings`, { headers: h.alice })).json as { id: string }[];
  const runs = (await t.call("GET", `/api/comparisons/${main.id}/runs`, { headers: h.alice })).json as { id: string }[];
  if (snapshots.length < 2 || diffs.length < 1) throw new Error("the fake run left no snapshots or diffs");

  // The agents turn alice's capture into her own components, an A/B test and trends.
  const agents = new AgentLoop({ db: sqliteSql(t.db), emit: () => {}, log: () => {} });
  await agents.trendHunter.run();
  await agents.designNinja.run();
  await agents.designNinja.run();
  await agents.testCommander.run();
  const components = (await t.call("GET", "/api/components?limit=100", { headers: h.alice })).json as { id: string }[];
  const tests = (await t.call("GET", "/api/tests?limit=100", { headers: h.alice })).json as { id: string; ingestKey?: string }[];
  const ownedComponents = components.filter((c) =>
    t.db.query("SELECT 1 FROM components WHERE id = ? AND owner_id = ?").get(c.id, alice.user.id),
  );
  const ownedTests = tests.filter((x) => t.db.query("SELECT 1 FROM experiments WHERE id = ? AND owner_id = ?").get(x.id, alice.user.id));
  if (!ownedComponents.length || !ownedTests.length) throw new Error("the agents made nothing of alice's own");

  // Carol's own API key (admins see and revoke only their own) and a backup.
  const key = await t.call("POST", "/api/admin/api-keys", { headers: h.carol, body: { name: `key ${MARKER}` } });
  if (key.status !== 201) throw new Error(`key failed: ${key.text}`);
  // Alice's personal key (Settings), which only she may see or revoke.
  const personalKey = await t.call("POST", "/api/api-keys", { headers: h.alice, body: { name: `mine ${MARKER}`, scope: "run" } });
  if (personalKey.status !== 201) throw new Error(`personal key failed: ${personalKey.text}`);
  const backup = await t.call("POST", "/api/admin/backups", { headers: h.root });
  if (backup.status !== 201) throw new Error(`backup failed: ${backup.text}`);

  // An alert rule on alice's comparison (webhook to a closed loopback port: never delivered here).
  const newAlert = async (comparisonId: string) => {
    const r = await t.call("POST", `/api/comparisons/${comparisonId}/alerts`, {
      headers: h.alice,
      body: { channel: "webhook", url: `http://127.0.0.1:9/${MARKER}` },
    });
    if (r.status !== 201) throw new Error(`alert failed: ${r.text}`);
    return r.json.id as string;
  };
  const alert = await newAlert(main.id);

  // A share link of alice's latest run (its token opens that run's results to anyone who has it).
  const newShare = async () => {
    const r = await t.call("POST", `/api/comparisons/${main.id}/shares`, { headers: h.alice, body: {} });
    if (r.status !== 201) throw new Error(`share failed: ${r.text}`);
    return { id: r.json.id as string, token: new URL(r.json.url as string).pathname.split("/").pop()! };
  };
  const share = await newShare();

  // A secret of alice's first site (its value is never answered to anyone, alice included).
  let secretCount = 0;
  const newSecret = async () => {
    const name = `spare-${++secretCount}`;
    const r = await t.call("PUT", `/api/targets/${main.targets[0]}/secrets/${name}`, {
      headers: h.alice,
      body: { value: `${MARKER} secret value` },
    });
    if (r.status !== 204) throw new Error(`secret failed: ${r.text}`);
    return name;
  };
  await newSecret();

  // A pricing page of alice's first site (its home page is made with the target).
  let pageCount = 0;
  const newPage = async () => {
    const r = await t.call("POST", `/api/targets/${main.targets[0]}/pages`, {
      headers: h.alice,
      body: { path: `/pricing-${++pageCount}`, role: "pricing" },
    });
    if (r.status !== 201) throw new Error(`page failed: ${r.text}`);
    return r.json.id as string;
  };
  const page = await newPage();

  // A team workspace of alice's, which dave joined as an editor through an invitation, and an
  // invitation still open.
  const newInvitation = async (workspaceId: string, role = "viewer") => {
    const r = await t.call("POST", `/api/workspaces/${workspaceId}/invitations`, { headers: h.alice, body: { role } });
    if (r.status !== 201) throw new Error(`invitation failed: ${r.text}`);
    return { id: r.json.id as string, token: new URL(r.json.url as string).pathname.split("/").pop()! };
  };
  const newTeam = async () => {
    const r = await t.call("POST", "/api/workspaces", { headers: h.alice, body: { name: `Team ${MARKER}` } });
    if (r.status !== 201) throw new Error(`workspace failed: ${r.text}`);
    const id = r.json.id as string;
    const joined = await t.call("POST", "/api/invitations/accept", {
      headers: h.dave,
      body: { token: (await newInvitation(id, "editor")).token },
    });
    if (joined.status !== 200) throw new Error(`accept failed: ${joined.text}`);
    return id;
  };
  const team = await newTeam();
  const invitation = await newInvitation(team);

  const ids = {
    team,
    invitation: invitation.id,
    comparison: main.id,
    alert,
    targets: main.targets,
    snapshot: snapshots[0]!.id,
    run: runs[0]!.id,
    component: ownedComponents[0]!.id,
    test: ownedTests[0]!.id,
    apiKey: key.json.apiKey.id as string,
    personalKey: personalKey.json.id as string,
    backup: backup.json.backup.name as string,
    share: share.id,
    shareToken: share.token,
    page,
  };

  /** Values only alice (or carol, for her key) should ever get back. */
  const secrets = [
    MARKER,
    main.id,
    ...main.targets,
    ...snapshots.map((s) => s.id),
    ...diffs.map((d) => d.id),
    ...findings.map((f) => f.id),
    ...runs.map((r) => r.id),
    ...ownedComponents.map((c) => c.id),
    ...ownedTests.flatMap((x) => [x.id, x.ingestKey ?? x.id]),
    ids.apiKey,
    key.json.key as string,
    ids.personalKey,
    personalKey.json.key as string,
    alert,
    share.id,
    share.token,
    page,
    team,
    invitation.id,
    invitation.token,
  ];

  return {
    t,
    fake,
    dataDir,
    root,
    alice,
    bob,
    carol,
    dave,
    h,
    ids,
    secrets,
    /** A fresh comparison of alice's with two targets (for routes that change or delete it). */
    freshComparison: () => mk(`Spare ${MARKER}`),
    /** A fresh alert rule of alice's (for routes that delete it). */
    freshAlert: () => newAlert(main.id),
    /** A fresh share link of alice's (for routes that revoke it). */
    freshShare: newShare,
    /** A fresh secret of alice's first site (for routes that delete it); its name. */
    freshSecret: newSecret,
    /** A fresh team workspace of alice's, dave an editor in it; its id. */
    freshTeam: newTeam,
    /** A fresh open invitation to alice's team workspace. */
    freshInvitation: () => newInvitation(team),
    /** A fresh page of alice's first site (for routes that delete it); its id. */
    freshPage: newPage,
    async close() {
      await t.services.comparisons.whenIdle();
      await t.services.system.shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type SweepWorld = Awaited<ReturnType<typeof sweepWorld>>;
