// The live feed of a team workspace, over real sockets: a run of the team's comparison reaches the
// sockets of its members (progress, status and the run's changes), never those of anyone else, and
// stops reaching a member the moment they are removed. A socket opened with an API key hears only
// its key's workspace.
import { afterAll, afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LiveHub } from "#server/live/hub";
import { WS_SUBPROTOCOL } from "#server/live/ws";
import type { CaptureFn } from "#server/modules/comparisons/active-runs";
import { pngBytes, recordingSocket } from "#tests/api/comparisons-support";
import { clone, landing } from "#tests/changes/extractions";
import { makeTestApp } from "#tests/support/app";
import { openSocket, serveTestApp, type TestSocket } from "#tests/support/live-server";
import { waitFor } from "#tests/support/wait";
import { addMember, inWorkspace, makeTeam, removeMember } from "#tests/support/workspaces";

const dataDir = mkdtempSync(join(tmpdir(), "di-workspace-live-"));
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Each site's primary CTA label, switched between runs so the second run has changes. */
const ctaOf = new Map<string, string>();
const capture: CaptureFn = async (_owner, job) => {
  const x = clone(landing());
  x.url = x.finalUrl = job.url;
  x.viewport = job.viewport;
  const label = ctaOf.get(job.url) ?? "Start free";
  x.elements.ctas[0]!.text = label;
  x.copy.visibleText = x.copy.visibleText.replace("Start free", label);
  writeFileSync(job.screenshotPath, pngBytes(job.viewport === "desktop" ? 48 : 13, 40, [240, 240, 240]));
  return { ok: true, extraction: x, screenshotPath: job.screenshotPath };
};

/** The bound only names a condition that never comes; a busy machine can take seconds to deliver. */
const until = (probe: () => boolean, what: string) => waitFor(what, probe, 15_000, 10);

const bearer = (token: string) => ({ protocols: [WS_SUBPROTOCOL, `bearer.${token}`] });

async function setup() {
  const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" }, runTools: { capture } });
  const srv = serveTestApp(t);
  cleanups.push(() => srv.stop());
  const [owner, viewer, stranger] = [await t.signup(), await t.signup(), await t.signup()];
  const team = makeTeam(t.db, owner.user.id, "Acme");
  addMember(t.db, team, viewer.user.id, "viewer");
  const h = inWorkspace(owner.token, team);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Team rivals" }, headers: h })).json;
  for (const s of ["orbit", "ember"])
    expect(
      (await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url: `http://127.0.0.1:9/${s}`, label: s }, headers: h })).status,
    ).toBe(201);
  const run = async () => {
    expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h })).status).toBe(202);
    await t.services.comparisons.whenIdle();
    expect((await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json.status).toBe("completed");
  };
  const socket = async (token: string) => {
    const s = openSocket(srv.wsUrl, bearer(token));
    cleanups.push(() => s.ws.close());
    expect(await s.opened).toBe(true);
    return s;
  };
  return { t, team, owner, viewer, stranger, c, run, socket };
}

const about = (s: TestSocket, comparisonId: string) =>
  s.messages.filter((m) => (m.payload as { comparisonId?: string } | null)?.comparisonId === comparisonId);
const typesAbout = (s: TestSocket, comparisonId: string) => new Set(about(s, comparisonId).map((m) => m.type));

test("a team member's socket receives the team comparison's progress, status and changes; a non-member's does not", async () => {
  const { t, owner, viewer, stranger, c, run, socket } = await setup();
  const [own, member, outsider] = [await socket(owner.token), await socket(viewer.token), await socket(stranger.token)];
  await until(() => t.services.live.size === 3, "three registered sockets");

  await run();
  ctaOf.set("http://127.0.0.1:9/orbit", "Book a demo");
  await run();

  for (const s of [own, member]) {
    await until(() => typesAbout(s, c.id).has("RUN_CHANGES"), "the second run's changes");
    expect(typesAbout(s, c.id)).toEqual(new Set(["COMPARISON_PROGRESS", "COMPARISON_STATUS", "RUN_CHANGES"]));
  }
  // Both members heard the same messages about the team's comparison.
  expect(about(member, c.id)).toEqual(about(own, c.id));
  expect(about(member, c.id).find((m) => m.type === "RUN_CHANGES")?.payload).toMatchObject({ comparisonId: c.id, changeCount: 2 });
  // Sent after the members' messages on the same hub: had any reached the outsider, it would be here by now.
  expect(outsider.messages).toEqual([]);
  expect(
    await t.services.live.deliver({ type: "AGENT_UPDATE", payload: { id: "probe" } }, { kind: "user", userId: stranger.user.id }),
  ).toBe(1);
  await until(() => outsider.messages.length === 1, "the outsider's own message");
  expect(outsider.messages.map((m) => m.type)).toEqual(["AGENT_UPDATE"]);
});

test("a removed member stops hearing the workspace at once; someone added hears it from then on", async () => {
  const { t, team, owner, viewer, stranger, socket } = await setup();
  const [own, member, newcomer] = [await socket(owner.token), await socket(viewer.token), await socket(stranger.token)];
  await until(() => t.services.live.size === 3, "three registered sockets");
  const hub = t.services.live;
  const say = (n: number) => hub.deliver({ type: "COMPARISON_PROGRESS", payload: { n } }, { kind: "workspace", workspaceId: team });

  expect(await say(1)).toBe(2);
  removeMember(t.db, team, viewer.user.id);
  addMember(t.db, team, stranger.user.id, "editor");
  expect(await say(2)).toBe(2);
  await until(() => own.messages.length === 2 && newcomer.messages.length === 1, "deliveries");
  const ns = (s: TestSocket) => s.messages.map((m) => (m.payload as { n: number }).n);
  expect(ns(own)).toEqual([1, 2]);
  expect(ns(member)).toEqual([1]);
  expect(ns(newcomer)).toEqual([2]);
  // A personal workspace (its id is its user's) reaches that user alone.
  expect(await hub.deliver({ type: "COMPARISON_PROGRESS", payload: { n: 3 } }, { kind: "workspace", workspaceId: owner.user.id })).toBe(1);
  await until(() => own.messages.length === 3, "the personal message");
});

test("a socket opened with an API key hears only the key's workspace", async () => {
  const { t, team, viewer, socket } = await setup();
  // A key made without naming a workspace is bound to the member's personal one.
  const made = await t.call("POST", "/api/api-keys", { body: { name: "feed", scope: "read" }, headers: t.auth(viewer.token) });
  expect(made.status).toBe(201);
  const [session, keyed] = [await socket(viewer.token), await socket(made.json.key)];
  await until(() => t.services.live.size === 2, "two registered sockets");
  const hub = t.services.live;
  expect(await hub.deliver({ type: "COMPARISON_PROGRESS", payload: { n: "team" } }, { kind: "workspace", workspaceId: team })).toBe(1);
  expect(
    await hub.deliver({ type: "COMPARISON_PROGRESS", payload: { n: "own" } }, { kind: "workspace", workspaceId: viewer.user.id }),
  ).toBe(2);
  await until(() => session.messages.length === 2 && keyed.messages.length === 1, "deliveries");
  expect(keyed.messages.map((m) => (m.payload as { n: string }).n)).toEqual(["own"]);
});

test("the hub reads a workspace's members once per message; `admins` adds the operators", async () => {
  const lookups: string[] = [];
  const hub = new LiveHub({
    membersOf: (id) => {
      lookups.push(id);
      return id === "team" ? ["ann", "bo"] : [];
    },
  });
  const [ann, bo, cy, op] = [recordingSocket("ann"), recordingSocket("bo"), recordingSocket("cy"), recordingSocket("op", "admin")];
  const annByKey = { ...recordingSocket("ann"), workspaceId: "elsewhere" };
  for (const s of [ann, bo, cy, op, annByKey]) hub.add(s);
  expect(await hub.deliver({ type: "COMPARISON_STATUS", payload: {} }, { kind: "workspace", workspaceId: "team" })).toBe(2);
  expect(await hub.deliver({ type: "COMPONENT_GENERATED", payload: {} }, { kind: "workspace", workspaceId: "team", admins: true })).toBe(3);
  expect(lookups).toEqual(["team", "team"]);
  expect([ann, bo, cy, op, annByKey].map((s) => s.received.length)).toEqual([2, 2, 0, 1, 0]);
});
