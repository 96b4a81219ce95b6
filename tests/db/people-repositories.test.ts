// The people modules' repositories (auth, workspaces, API keys, users, audit, waitlist, OIDC) run
// their statements on SQLite and on PostgreSQL with the same answers: case-insensitive e-mails and
// searches, flags read as 0/1, counts as numbers, upserts and conflicts ignored.
import { expect } from "bun:test";
import type { SqlDb } from "#server/db/sql";
import { apiKeyRepository } from "#server/modules/api-keys/repository";
import { auditRepository } from "#server/modules/audit/repository";
import { oidcRepository } from "#server/modules/auth/oidc/repository";
import { authRepository } from "#server/modules/auth/repository";
import { usersRepository } from "#server/modules/users/repository";
import { waitlistRepository } from "#server/modules/waitlist/repository";
import { workspaceAccessRepository, workspacesRepository } from "#server/modules/workspaces/repository";
import { scenarioOnBothDialects } from "#tests/support/dialects";

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";
const LATER = "2030-01-01T00:00:00.000Z";

/** Times the database wrote itself (column defaults) differ between runs: they are compared as "time". */
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const settled = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v), (_k, x: unknown) => (typeof x === "string" && ISO.test(x) && x !== T0 && x !== T1 ? "time" : x));

async function scenario(db: SqlDb) {
  const out: Record<string, unknown> = {};
  const auth = authRepository(db);
  await auth.insertUser({ id: "u1", email: "ann@example.com", username: "Ann", passwordHash: "h", role: "admin" });
  await auth.insertUser({ id: "u2", email: "bob@example.com", username: null, passwordHash: "h", role: "user" });
  out.byEmail = (await auth.findUserByEmail("ANN@example.com"))?.id;
  out.users = await auth.countUsers();
  await auth.insertRefresh({ id: "r1", userId: "u2", familyId: "f1", hash: "h1", expiresAt: LATER });
  out.used = [await auth.markUsed("r1", T0), await auth.markUsed("r1", T0)];
  out.endedBefore = await auth.isSessionEnded("f1");
  out.revoked = await auth.revokeFamily("f1", T1);
  out.endedAfter = await auth.isSessionEnded("f1");
  out.refresh = await auth.findRefresh("h1");
  await auth.bumpTokenVersion("u2");
  out.version = (await auth.findUserById("u2"))?.token_version;
  out.purged = await auth.purgeExpired(LATER + "Z");

  const ws = workspacesRepository(db);
  const access = workspaceAccessRepository(db);
  await ws.insert("w1", "alpha Team", T0);
  out.added = [
    await ws.addMember("w1", "u1", "owner", T0),
    await ws.addMember("w1", "u2", "viewer", T0),
    await ws.addMember("w1", "u2", "viewer", T0),
  ];
  out.listFor = await ws.listFor("u1");
  out.ownedTeams = await ws.countOwnedTeams("u1");
  await ws.setRole("w1", "u2", "editor");
  await ws.setAlerts("w1", "u2", false);
  out.members = await ws.members("w1");
  out.owners = await ws.countOwners("w1");
  await ws.choose("u2", "w1");
  out.lastChosen = await access.lastChosen("u2");
  out.membership = await access.membership("w1", "u2");
  out.memberIds = (await access.memberIds("w1")).sort();
  const invitation = { workspaceId: "w1", role: "viewer", email: null, createdBy: "u1", at: T0, expiresAt: LATER };
  await ws.insertInvitation({ ...invitation, id: "i1", tokenHash: "t1" });
  await ws.insertInvitation({ ...invitation, id: "i2", tokenHash: "t2" });
  out.open = await ws.countOpenInvitations("w1", T1);
  out.accepted = [await ws.markAccepted("i1", "u2", T1), await ws.markAccepted("i1", "u2", T1)];
  out.revokedInvitation = [await ws.revokeInvitation("i1", T1), await ws.revokeInvitation("i2", T1)];
  out.invitations = await ws.invitations("w1");
  out.byHash = (await ws.invitationByHash("t2"))?.id;
  await ws.putSsoNewcomers({ workspaceId: "w1", role: "viewer" }, T0);
  await ws.putSsoNewcomers({ workspaceId: "w1", role: "editor" }, T1);
  out.ssoNewcomers = await ws.ssoNewcomers();

  const keys = apiKeyRepository(db);
  const key = { userId: "u2", workspaceId: "w1", scope: "read" as const, prefix: "di_", at: T0 };
  await keys.insert({ ...key, id: "k1", name: "CI", hash: "kh1" });
  await keys.insert({ ...key, id: "k2", name: "nightly", hash: "kh2" });
  out.scope = await keys.scopeOf("kh1");
  out.live = await keys.countLiveFor("u2");
  out.listFor = await keys.listFor("u2", "w1");
  out.inWorkspace = await keys.listInWorkspace("w1");
  out.owner = await keys.ownerOf("kh1");
  await keys.touch("k1", T1);
  // The search ignores case and takes % and _ literally.
  out.search = [
    (await keys.pageOfAll("BOB@", 10, 0)).total,
    (await keys.pageOfAll("ci", 10, 0)).total,
    (await keys.pageOfAll("%", 10, 0)).total,
  ];
  out.activeKeys = await keys.countActive();
  out.keyRevoked = [await keys.revoke("k1", "u2", T1), await keys.revoke("k1", "u2", T1)];
  out.memberKeys = await keys.revokeMemberKeys("w1", "u2", T1);
  out.allOf = await keys.revokeAllOf("u2", T1);
  out.findOwned = await keys.findOwned("k2");

  const users = usersRepository(db);
  await users.setDisabled("u2", true);
  out.page = await users.page("ANN", 10, 0);
  out.found = await users.findByEmail("bob@example.com");
  out.adminsExcept = [await users.activeAdminsExcept("u1"), await users.activeAdminsExcept("u2")];
  out.counts = await users.counts();
  out.adminEmails = await users.activeAdminEmails();
  await users.setRole("u2", "admin");
  out.afterPromotion = await users.counts();

  const audit = auditRepository(db);
  await audit.insert(
    { actorId: "u1", actorEmail: "ann@example.com", action: "auth.sign_in", ip: "1.2.3.4", details: { method: "password" } },
    T0,
  );
  await audit.insert({ actorId: null, actorEmail: "x@example.com", action: "auth.sign_in_failed" }, T1);
  await audit.insert({ actorId: "u1", actorEmail: "ann@example.com", action: "member.joined", workspaceId: "w1" }, T1);
  const ids = (e: { entries: { action: string }[]; total: number }) => ({ actions: e.entries.map((x) => x.action), total: e.total });
  out.audit = [
    ids(await audit.page(2, 0)),
    ids(await audit.page(10, 0, "auth.sign_in")),
    ids(await audit.pageIn("w1", 10, 0)),
    ids(await audit.pageIn("w1", 10, 0, "auth.sign_in")),
  ];
  out.since = await audit.countSince("auth.sign_in_failed", T1);
  out.lastSignIn = (await users.find("u1"))?.lastSignInAt;

  const waitlist = waitlistRepository(db);
  out.waitlist = [
    await waitlist.add("b1", "fan@example.com", "homepage"),
    await waitlist.add("b2", "fan@example.com", "cta"),
    await waitlist.count(),
  ];

  const oidc = oidcRepository(db);
  await oidc.link({ issuer: "https://idp", subject: "s1", userId: "u1", email: "ann@example.com" }, T0);
  await oidc.touch("https://idp", "s1", T1);
  out.oidc = [await oidc.userIdFor("https://idp", "s1"), await oidc.userIdFor("https://idp", "s2")];

  await ws.removeMember("w1", "u2");
  out.afterRemoval = [await access.membership("w1", "u2"), await access.lastChosen("u2")];
  out.removed = [await ws.remove("w1"), await ws.remove("u1")];
  return settled(out);
}

scenarioOnBothDialects("the people repositories", scenario, (answers) => {
  expect(answers).toMatchObject({
    byEmail: "u1",
    used: [true, false],
    endedBefore: false,
    endedAfter: true,
    added: [true, true, false],
    accepted: [true, false],
    revokedInvitation: [false, true],
    ssoNewcomers: { workspaceId: "w1", role: "editor" },
    search: [2, 1, 0],
    keyRevoked: [true, false],
    counts: { users: 2, admins: 1, disabled: 1 },
    since: 1,
    lastSignIn: T0,
    waitlist: [true, false, 1],
    oidc: ["u1", null],
    afterRemoval: [null, null],
    removed: [true, false],
  });
});
