// Workspaces through the API: make, rename, delete and hand over; the current workspace; members,
// roles, leaving; invitations by link and e-mail (single use, 7 days, hashed, revocable, 410 once
// dead); each workspace's audit; and where SSO newcomers land.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { OIDC_COOKIE } from "#server/modules/auth/oidc/state-cookie";
import { INVITATION_MAILS_PER_HOUR, INVITATION_TTL_MS } from "#server/modules/workspaces/model";
import { makeTestApp } from "#tests/support/app";
import { mailText, startMailbox, type Mailbox } from "#tests/support/mailbox";
import { signInAtProvider, startProvider, TEST_CLIENT, type TestProvider } from "#tests/support/oidc-provider";

type TestApp = ReturnType<typeof makeTestApp>;
type Account = Awaited<ReturnType<TestApp["signup"]>>;

const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;

/** An app with its admin (the first account), and a team workspace owned by `owner`. */
async function world(env: Record<string, string> = {}) {
  const t = makeTestApp({ env });
  const root = await t.signup();
  const owner = await t.signup();
  const h = (a: Account, workspaceId?: string) => ({
    ...t.auth(a.token),
    ...(workspaceId ? { "x-workspace-id": workspaceId } : {}),
  });
  const team = (await t.call("POST", "/api/workspaces", { headers: h(owner), body: { name: "Acme design" } })).json.id as string;
  /** A new account that joined the team with `role`. */
  const member = async (role: "admin" | "editor" | "viewer") => {
    const a = await t.signup();
    const inv = await t.call("POST", `/api/workspaces/${team}/invitations`, { headers: h(owner), body: { role } });
    expect(inv.status).toBe(201);
    const ok = await t.call("POST", "/api/invitations/accept", { headers: h(a), body: { token: tokenOf(inv.json.url) } });
    expect(ok.status).toBe(200);
    return a;
  };
  const roleOf = (userId: string) =>
    t.db
      .query<{ role: string }, [string, string]>("SELECT role FROM workspace_members WHERE workspace_id = ? AND user_id = ?")
      .get(team, userId)?.role ?? null;
  return { t, root, owner, team, h, member, roleOf };
}

describe("workspaces", () => {
  test("the list: personal first, then the teams, with the caller's role; a new one is theirs as owner", async () => {
    const { t, owner, team, h, member } = await world();
    const viewer = await member("viewer");
    const mine = await t.call("GET", "/api/workspaces", { headers: h(owner) });
    expect(mine.status).toBe(200);
    expect(mine.json).toEqual([
      { id: owner.user.id, name: "Personal", role: "owner", personal: true },
      { id: team, name: "Acme design", role: "owner", personal: false },
    ]);
    const theirs = await t.call("GET", "/api/workspaces", { headers: h(viewer) });
    expect(theirs.json.map((w: { role: string }) => w.role)).toEqual(["owner", "viewer"]);
    expect((await t.call("GET", "/api/workspaces")).status).toBe(401);
    expect((await t.call("POST", "/api/workspaces", { headers: h(owner), body: { name: "  " } })).status).toBe(400);
    expect((await t.call("POST", "/api/workspaces", { headers: h(owner), body: { name: "x".repeat(81) } })).status).toBe(400);
  });

  test("rename (owner), delete (owner; never the personal one): its comparisons go with it", async () => {
    const { t, root, owner, team, h, member } = await world();
    const admin = await member("admin");
    const renamed = await t.call("PATCH", `/api/workspaces/${team}`, { headers: h(owner), body: { name: "Acme" } });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toEqual({ id: team, name: "Acme", role: "owner", personal: false });
    const refused = await t.call("PATCH", `/api/workspaces/${team}`, { headers: h(admin), body: { name: "Mine now" } });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe("Your role in this workspace is admin; this needs owner (rename, delete and hand over the workspace)");
    expect((await t.call("PATCH", `/api/workspaces/${team}`, { headers: h(root), body: { name: "x" } })).status).toBe(404);

    const c = await t.call("POST", "/api/comparisons", { headers: h(owner, team), body: { name: "Team comparison" } });
    expect(c.status).toBe(201);
    expect((await t.call("DELETE", `/api/workspaces/${team}`, { headers: h(admin) })).status).toBe(403);
    expect((await t.call("DELETE", `/api/workspaces/${owner.user.id}`, { headers: h(owner) })).status).toBe(400);
    expect((await t.call("DELETE", `/api/workspaces/${team}`, { headers: h(owner) })).status).toBe(204);
    expect(t.db.query("SELECT 1 FROM comparisons WHERE id = ?").get(c.json.id)).toBeNull();
    expect(t.db.query("SELECT 1 FROM workspace_members WHERE workspace_id = ?").get(team)).toBeNull();
    expect((await t.call("GET", "/api/comparisons", { headers: h(admin, team) })).status).toBe(404);
    // Kept in the operator's audit, the workspace's own being gone.
    const entry = t.db
      .query<{ workspace_id: string | null }, []>("SELECT workspace_id FROM audit_log WHERE action = 'workspace.deleted'")
      .get();
    expect(entry).toEqual({ workspace_id: null });
  });

  test("choosing the current workspace: requests that name none act in it; only a member may choose it", async () => {
    const { t, root, owner, team, h } = await world();
    const c = await t.call("POST", "/api/comparisons", { headers: h(owner, team), body: { name: "Team comparison" } });
    expect((await t.call("GET", "/api/comparisons", { headers: h(owner) })).json).toEqual([]);
    const chosen = await t.call("PUT", "/api/me/workspace", { headers: h(owner), body: { id: team } });
    expect(chosen.status).toBe(200);
    expect(chosen.json).toMatchObject({ id: team, role: "owner" });
    expect((await t.call("GET", "/api/comparisons", { headers: h(owner) })).json.map((x: { id: string }) => x.id)).toEqual([c.json.id]);
    expect((await t.call("PUT", "/api/me/workspace", { headers: h(root), body: { id: team } })).status).toBe(404);
    expect((await t.call("PUT", "/api/me/workspace", { headers: h(root), body: { id: "nope" } })).status).toBe(404);
    expect((await t.call("PUT", "/api/me/workspace", { headers: h(root), body: {} })).status).toBe(400);
  });

  test("hand-over: to a member only; the new owner owns it, the old one stays on as admin", async () => {
    const { t, root, owner, team, h, member, roleOf } = await world();
    const editor = await member("editor");
    expect((await t.call("POST", `/api/workspaces/${team}/owner`, { headers: h(owner), body: { userId: root.user.id } })).status).toBe(404);
    expect((await t.call("POST", `/api/workspaces/${team}/owner`, { headers: h(editor), body: { userId: editor.user.id } })).status).toBe(
      403,
    );
    const personal = await t.call("POST", `/api/workspaces/${owner.user.id}/owner`, {
      headers: h(owner),
      body: { userId: editor.user.id },
    });
    expect(personal.status).toBe(400);
    const done = await t.call("POST", `/api/workspaces/${team}/owner`, { headers: h(owner), body: { userId: editor.user.id } });
    expect(done.status).toBe(200);
    expect(done.json.role).toBe("admin");
    expect(roleOf(editor.user.id)).toBe("owner");
    expect(roleOf(owner.user.id)).toBe("admin");
  });
});

describe("members", () => {
  test("viewers read the list; admins change roles but never an owner's; only an owner makes owners", async () => {
    const { t, owner, team, h, member, roleOf } = await world();
    const admin = await member("admin");
    const editor = await member("editor");
    const viewer = await member("viewer");
    const list = await t.call("GET", `/api/workspaces/${team}/members`, { headers: h(viewer) });
    expect(list.status).toBe(200);
    expect(list.json.map((m: { role: string }) => m.role)).toEqual(["owner", "admin", "editor", "viewer"]);
    expect(list.json[0]).toMatchObject({ userId: owner.user.id, email: owner.email, username: null, alerts: true });
    expect(list.json[0].joinedAt).toBeString();

    const path = (u: Account) => `/api/workspaces/${team}/members/${u.user.id}`;
    expect((await t.call("PATCH", path(viewer), { headers: h(editor), body: { role: "editor" } })).status).toBe(403);
    expect((await t.call("PATCH", path(viewer), { headers: h(admin), body: { role: "editor" } })).status).toBe(200);
    expect(roleOf(viewer.user.id)).toBe("editor");
    const demote = await t.call("PATCH", path(owner), { headers: h(admin), body: { role: "viewer" } });
    expect(demote.status).toBe(403);
    expect(demote.json.error).toBe("An admin cannot demote an owner");
    const promote = await t.call("PATCH", path(editor), { headers: h(admin), body: { role: "owner" } });
    expect(promote.status).toBe(403);
    expect(promote.json.error).toBe("Only an owner can make owners");
    expect((await t.call("PATCH", path(editor), { headers: h(owner), body: { role: "owner" } })).status).toBe(200);
    expect(roleOf(editor.user.id)).toBe("owner");
    expect((await t.call("PATCH", path(owner), { headers: h(owner), body: { role: "fancy" } })).status).toBe(400);
    expect((await t.call("PATCH", path(owner), { headers: h(owner), body: {} })).status).toBe(400);
  });

  test("the last owner stays one: cannot step down or leave; a personal workspace cannot be left", async () => {
    const { t, owner, team, h } = await world();
    const self = `/api/workspaces/${team}/members/${owner.user.id}`;
    const down = await t.call("PATCH", self, { headers: h(owner), body: { role: "admin" } });
    expect(down.status).toBe(409);
    expect(down.json.error).toContain("needs an owner");
    expect((await t.call("DELETE", self, { headers: h(owner) })).status).toBe(409);
    const personal = await t.call("DELETE", `/api/workspaces/${owner.user.id}/members/${owner.user.id}`, { headers: h(owner) });
    expect(personal.status).toBe(409);
    expect(personal.json.error).toBe("You cannot leave your personal workspace");
  });

  test("leave, remove: admins remove members but not owners; a removed member loses access at once", async () => {
    const { t, owner, team, h, member, roleOf } = await world();
    const admin = await member("admin");
    const editor = await member("editor");
    const viewer = await member("viewer");
    const path = (u: Account) => `/api/workspaces/${team}/members/${u.user.id}`;
    expect((await t.call("DELETE", path(editor), { headers: h(viewer) })).status).toBe(403);
    const owners = await t.call("DELETE", path(owner), { headers: h(admin) });
    expect(owners.status).toBe(403);
    expect(owners.json.error).toBe("An admin cannot remove an owner");
    expect((await t.call("DELETE", path(viewer), { headers: h(viewer) })).status).toBe(204); // leaves
    expect(roleOf(viewer.user.id)).toBeNull();
    expect((await t.call("GET", "/api/comparisons", { headers: h(viewer, team) })).status).toBe(404);
    expect((await t.call("PUT", "/api/me/workspace", { headers: h(editor), body: { id: team } })).status).toBe(200);
    expect((await t.call("DELETE", path(editor), { headers: h(admin) })).status).toBe(204);
    // Their requests no longer reach it, even without naming it: the choice they made is forgotten.
    expect((await t.call("GET", "/api/comparisons", { headers: h(editor, team) })).status).toBe(404);
    expect((await t.call("GET", "/api/comparisons", { headers: h(editor) })).status).toBe(200);
    expect(t.db.query("SELECT last_workspace_id FROM users WHERE id = ?").get(editor.user.id)).toEqual({ last_workspace_id: null });
    expect((await t.call("DELETE", path(editor), { headers: h(admin) })).status).toBe(404);
    expect((await t.call("DELETE", path(admin), { headers: h(owner) })).status).toBe(204);
  });

  test("a removed member's API key for the workspace stops working at once", async () => {
    const { t, owner, team, h, member } = await world();
    const editor = await member("editor");
    const made = await t.call("POST", "/api/api-keys", { headers: h(editor, team), body: { name: "ci", scope: "read" } });
    expect(made.status).toBe(201);
    // Bound to the team (the api-keys module binds a new key to the request's workspace).
    t.db.query("UPDATE api_keys SET workspace_id = ? WHERE id = ?").run(team, made.json.id);
    const key = { authorization: `Bearer ${made.json.key}` };
    expect((await t.call("GET", "/api/comparisons", { headers: key })).status).toBe(200);
    expect((await t.call("GET", "/api/workspaces", { headers: key })).json.map((w: { id: string }) => w.id)).toEqual([team]);
    // The key reaches no other workspace of its user's.
    expect((await t.call("GET", "/api/comparisons", { headers: { ...key, "x-workspace-id": editor.user.id } })).status).toBe(404);
    expect((await t.call("DELETE", `/api/workspaces/${team}/members/${editor.user.id}`, { headers: h(owner) })).status).toBe(204);
    expect((await t.call("GET", "/api/comparisons", { headers: key })).status).toBe(401);
  });

  test("alerts: each member opts in or out for themselves only", async () => {
    const { t, owner, team, h, member } = await world();
    const viewer = await member("viewer");
    const path = (u: Account) => `/api/workspaces/${team}/members/${u.user.id}`;
    const off = await t.call("PATCH", path(viewer), { headers: h(viewer), body: { alerts: false } });
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({ role: "viewer", alerts: false });
    expect((await t.call("PATCH", path(viewer), { headers: h(owner), body: { alerts: true } })).status).toBe(403);
    expect((await t.call("PATCH", path(viewer), { headers: h(viewer), body: { role: "admin" } })).status).toBe(403);
  });
});

describe("invitations", () => {
  test("by link: 256-bit token stored only hashed, 7 days, single use; the viewer sees the team's comparison but cannot change it", async () => {
    const { t, root, owner, team, h } = await world();
    const c = await t.call("POST", "/api/comparisons", { headers: h(owner, team), body: { name: "Competitors" } });
    const inv = await t.call("POST", `/api/workspaces/${team}/invitations`, { headers: h(owner), body: { role: "viewer" } });
    expect(inv.status).toBe(201);
    expect(inv.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(inv.json).sort()).toEqual(["emailed", "expiresAt", "id", "role", "url"]);
    expect(inv.json.role).toBe("viewer");
    expect(inv.json.emailed).toBe(false);
    expect(inv.json.url).toMatch(/^http:\/\/localhost\/invite\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(inv.json.url);
    expect(Date.parse(inv.json.expiresAt) - Date.now()).toBeGreaterThan(INVITATION_TTL_MS - 60_000);
    expect(Date.parse(inv.json.expiresAt) - Date.now()).toBeLessThanOrEqual(INVITATION_TTL_MS);
    // Nothing in the database holds the token itself.
    const dump = JSON.stringify(t.db.query("SELECT * FROM workspace_invitations").all());
    expect(dump).not.toContain(token);
    expect(dump).toContain(new Bun.CryptoHasher("sha256").update(token).digest("hex"));

    const viewer = await t.signup();
    const joined = await t.call("POST", "/api/invitations/accept", { headers: h(viewer), body: { token } });
    expect(joined.status).toBe(200);
    expect(joined.json).toEqual({ workspace: { id: team, name: "Acme design", role: "viewer" } });
    const seen = await t.call("GET", "/api/comparisons", { headers: h(viewer, team) });
    expect(seen.json.map((x: { id: string }) => x.id)).toEqual([c.json.id]);
    const start = await t.call("POST", `/api/comparisons/${c.json.id}/start`, { headers: h(viewer, team) });
    expect(start.status).toBe(403);
    expect(start.json.error).toBe(
      "Your role in this workspace is viewer; this needs editor (create, edit, run, schedule and delete comparisons)",
    );
    expect((await t.call("DELETE", `/api/comparisons/${c.json.id}`, { headers: h(viewer, team) })).status).toBe(403);

    // Used: 410 for anyone, the one who used it included.
    const again = await t.call("POST", "/api/invitations/accept", { headers: h(root), body: { token } });
    expect(again.status).toBe(410);
    expect(again.json.error).toBe("This invitation was already used");
    const listed = await t.call("GET", `/api/workspaces/${team}/invitations`, { headers: h(owner) });
    expect(listed.json[0]).toMatchObject({ id: inv.json.id, state: "accepted", role: "viewer", acceptedBy: { id: viewer.user.id } });
    expect(listed.text).not.toContain(token);
  });

  test("expired and revoked invitations are 410; unknown tokens 404; members 409; revoking is for admins", async () => {
    const { t, root, owner, team, h, member } = await world();
    const editor = await member("editor");
    const make = async () =>
      (await t.call("POST", `/api/workspaces/${team}/invitations`, { headers: h(owner), body: { role: "editor" } })).json as {
        id: string;
        url: string;
      };
    const accept = (a: Account, token: string) => t.call("POST", "/api/invitations/accept", { headers: h(a), body: { token } });

    const old = await make();
    t.db.query("UPDATE workspace_invitations SET expires_at = ? WHERE id = ?").run(new Date(Date.now() - 1000).toISOString(), old.id);
    const expired = await accept(root, tokenOf(old.url));
    expect(expired.status).toBe(410);
    expect(expired.json.error).toBe("This invitation has expired; ask for a new one");

    const revoked = await make();
    expect((await t.call("DELETE", `/api/invitations/${revoked.id}`, { headers: h(editor) })).status).toBe(403);
    expect((await t.call("DELETE", `/api/invitations/${revoked.id}`, { headers: h(root) })).status).toBe(404);
    expect((await t.call("DELETE", `/api/invitations/${revoked.id}`, { headers: h(owner) })).status).toBe(204);
    expect((await t.call("DELETE", `/api/invitations/${revoked.id}`, { headers: h(owner) })).status).toBe(204); // no change
    const gone = await accept(root, tokenOf(revoked.url));
    expect(gone.status).toBe(410);
    expect(gone.json.error).toBe("This invitation was revoked");

    expect((await accept(root, "A".repeat(43))).status).toBe(404);
    expect((await accept(root, "not a token")).status).toBe(404);
    expect((await t.call("POST", "/api/invitations/accept", { headers: h(root), body: {} })).status).toBe(400);
    expect((await t.call("POST", "/api/invitations/accept", { body: { token: "x" } })).status).toBe(401);

    const open = await make();
    expect((await accept(editor, tokenOf(open.url))).status).toBe(409);
    // Still open for whoever it was meant for.
    expect((await accept(root, tokenOf(open.url))).status).toBe(200);
    const used = await make();
    await accept(await t.signup(), tokenOf(used.url));
    expect((await t.call("DELETE", `/api/invitations/${used.id}`, { headers: h(owner) })).status).toBe(409);

    const states = (await t.call("GET", `/api/workspaces/${team}/invitations`, { headers: h(owner) })).json.map(
      (i: { state: string }) => i.state,
    );
    expect(states).toEqual(["accepted", "accepted", "revoked", "expired", "accepted"]);
    expect((await t.call("GET", `/api/workspaces/${team}/invitations`, { headers: h(editor) })).status).toBe(403);
  });

  test("who may invite, and with which role", async () => {
    const { t, owner, team, h, member } = await world();
    const admin = await member("admin");
    const editor = await member("editor");
    const invite = (a: Account, body: unknown, ws = team) => t.call("POST", `/api/workspaces/${ws}/invitations`, { headers: h(a), body });
    expect((await invite(admin, { role: "admin" })).status).toBe(201);
    expect((await invite(editor, { role: "viewer" })).status).toBe(403);
    expect((await invite(owner, { role: "owner" })).status).toBe(400);
    expect((await invite(owner, { role: "viewer", email: "not-an-address" })).status).toBe(400);
    const personal = await invite(owner, { role: "viewer" }, owner.user.id);
    expect(personal.status).toBe(400);
    expect(personal.json.error).toContain("personal workspace");
  });

  test("accepting through sign-up: a new account accepts with the access token sign-up gave it", async () => {
    const { t, owner, team, h } = await world();
    const inv = await t.call("POST", `/api/workspaces/${team}/invitations`, { headers: h(owner), body: { role: "editor" } });
    const fresh = await t.call("POST", "/api/auth/signup", { body: { email: "newcomer@example.com", password: "correct-horse-battery" } });
    expect(fresh.status).toBe(201);
    const joined = await t.call("POST", "/api/invitations/accept", {
      headers: t.auth(fresh.json.accessToken),
      body: { token: tokenOf(inv.json.url) },
    });
    expect(joined.status).toBe(200);
    expect(joined.json.workspace.role).toBe("editor");
  });

  describe("by e-mail", () => {
    let box: Mailbox;
    beforeAll(async () => {
      box = await startMailbox();
    });
    afterAll(() => box.close());

    test("with SMTP_URL the link goes to the address, and the link in the mail works", async () => {
      const { t, owner, team, h } = await world({ SMTP_URL: box.url, PUBLIC_URL: "http://127.0.0.1:8123" });
      const inv = await t.call("POST", `/api/workspaces/${team}/invitations`, {
        headers: h(owner),
        body: { role: "viewer", email: "guest@example.com" },
      });
      expect(inv.status).toBe(201);
      expect(inv.json.emailed).toBe(true);
      expect(inv.json.url).toStartWith("http://127.0.0.1:8123/invite/");
      expect(box.mails).toHaveLength(1);
      expect(box.mails[0]!.to).toEqual(["guest@example.com"]);
      const text = mailText(box.mails[0]!.data);
      expect(text).toContain("Acme design");
      expect(text).toContain(inv.json.url);
      const guest = await t.signup("guest@example.com");
      const joined = await t.call("POST", "/api/invitations/accept", { headers: h(guest), body: { token: tokenOf(inv.json.url) } });
      expect(joined.status).toBe(200);
      const listed = await t.call("GET", `/api/workspaces/${team}/invitations`, { headers: h(owner) });
      expect(listed.json[0]).toMatchObject({ email: "guest@example.com", state: "accepted" });
    });

    test("a workspace sends a bounded number of invitation e-mails an hour", async () => {
      const { t, owner, team, h } = await world({ SMTP_URL: box.url });
      const sent = box.mails.length;
      const invite = () =>
        t.call("POST", `/api/workspaces/${team}/invitations`, { headers: h(owner), body: { role: "viewer", email: "guest@example.com" } });
      for (let i = 0; i < INVITATION_MAILS_PER_HOUR; i++) expect((await invite()).status).toBe(201);
      const over = await invite();
      expect(over.status).toBe(429);
      expect(over.headers.get("retry-after")).toBeTruthy();
      expect(box.mails.length - sent).toBe(INVITATION_MAILS_PER_HOUR);
      // A link without an address still works.
      expect((await t.call("POST", `/api/workspaces/${team}/invitations`, { headers: h(owner), body: { role: "viewer" } })).status).toBe(
        201,
      );
    });

    test("a mail server that refuses leaves the link to be copied", async () => {
      const { t, owner, team, h } = await world({ SMTP_URL: box.url });
      box.refusing = true;
      try {
        const inv = await t.call("POST", `/api/workspaces/${team}/invitations`, {
          headers: h(owner),
          body: { role: "viewer", email: "guest@example.com" },
        });
        expect(inv.status).toBe(201);
        expect(inv.json.emailed).toBe(false);
      } finally {
        box.refusing = false;
      }
    });
  });
});

describe("audit per workspace", () => {
  test("owners and admins read their workspace's entries, and only theirs", async () => {
    const { t, root, owner, team, h, member } = await world();
    const admin = await member("admin");
    const editor = await member("editor");
    await t.call("PATCH", `/api/workspaces/${team}/members/${editor.user.id}`, { headers: h(admin), body: { role: "viewer" } });
    await t.call("DELETE", `/api/workspaces/${team}/members/${editor.user.id}`, { headers: h(admin) });
    const inv = await t.call("POST", `/api/workspaces/${team}/invitations`, { headers: h(owner), body: { role: "viewer" } });
    await t.call("DELETE", `/api/invitations/${inv.json.id}`, { headers: h(owner) });
    // Something in another workspace, which must not show.
    const other = (await t.call("POST", "/api/workspaces", { headers: h(root), body: { name: "Elsewhere" } })).json.id;

    const page = await t.call("GET", `/api/workspaces/${team}/audit?pageSize=100`, { headers: h(admin) });
    expect(page.status).toBe(200);
    const actions = page.json.entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual([
      "invitation.revoked",
      "member.invited",
      "member.removed",
      "member.role_changed",
      "member.joined",
      "member.invited",
      "member.joined",
      "member.invited",
      "workspace.created",
    ]);
    expect(page.text).not.toContain(other);
    const roleChange = page.json.entries.find((e: { action: string }) => e.action === "member.role_changed");
    expect(roleChange).toMatchObject({ actorId: admin.user.id, target: editor.user.id, details: { from: "editor", to: "viewer" } });
    const filtered = await t.call("GET", `/api/workspaces/${team}/audit?action=member.invited`, { headers: h(owner) });
    expect(filtered.json.total).toBe(3);
    const viewer = await member("viewer");
    expect((await t.call("GET", `/api/workspaces/${team}/audit`, { headers: h(viewer) })).status).toBe(403);
    expect((await t.call("GET", `/api/workspaces/${team}/audit`, { headers: h(root) })).status).toBe(404);
    expect((await t.call("GET", `/api/workspaces/${team}/audit?action=nope`, { headers: h(owner) })).status).toBe(400);
  });
});

describe("SSO newcomers", () => {
  const REDIRECT = "http://localhost/api/auth/oidc/callback";
  let idp: TestProvider;
  beforeAll(async () => {
    idp = await startProvider(REDIRECT);
  });
  afterAll(() => idp?.close());

  const ssoEnv = () => ({
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: TEST_CLIENT.id,
    OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
    OIDC_NAME: "Test IdP",
  });
  async function signIn(t: TestApp, account: Parameters<TestProvider["signInAs"]>[0]) {
    idp.signInAs(account);
    const s = await t.app.handle(new Request("http://localhost/api/auth/oidc/start"));
    const pending = s.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .find((c) => c.startsWith(`${OIDC_COOKIE}=`))!;
    const back = new URL(await signInAtProvider(s.headers.get("location")!, REDIRECT));
    return t.app.handle(new Request(`http://localhost${back.pathname}${back.search}`, { headers: { cookie: pending } }));
  }

  test("the super-admin chooses a team workspace and role; first-time SSO users join it, besides their personal one", async () => {
    const { t, root, owner, team, h, roleOf } = await world(ssoEnv());
    expect((await t.call("GET", "/api/admin/sso-newcomers", { headers: h(root) })).json).toEqual({
      workspaceId: null,
      role: "viewer",
      workspaceName: null,
    });
    expect(
      (await t.call("PUT", "/api/admin/sso-newcomers", { headers: h(owner), body: { workspaceId: team, role: "editor" } })).status,
    ).toBe(403);
    const personal = await t.call("PUT", "/api/admin/sso-newcomers", {
      headers: h(root),
      body: { workspaceId: owner.user.id, role: "editor" },
    });
    expect(personal.status).toBe(400);
    expect(
      (await t.call("PUT", "/api/admin/sso-newcomers", { headers: h(root), body: { workspaceId: "nope", role: "editor" } })).status,
    ).toBe(404);
    expect((await t.call("PUT", "/api/admin/sso-newcomers", { headers: h(root), body: { workspaceId: team, role: "owner" } })).status).toBe(
      400,
    );
    const set = await t.call("PUT", "/api/admin/sso-newcomers", { headers: h(root), body: { workspaceId: team, role: "editor" } });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ workspaceId: team, role: "editor", workspaceName: "Acme design" });

    await signIn(t, { sub: "new-1", email: "new@example.com", email_verified: true });
    const id = t.db.query<{ id: string }, []>("SELECT id FROM users WHERE email = 'new@example.com'").get()!.id;
    expect(roleOf(id)).toBe("editor");
    expect(t.db.query("SELECT role FROM workspace_members WHERE workspace_id = ? AND user_id = ?").get(id, id)).toEqual({ role: "owner" });
    // A later sign-in changes nothing, even after an admin changed their role.
    t.db.query("UPDATE workspace_members SET role = 'viewer' WHERE workspace_id = ? AND user_id = ?").run(team, id);
    await signIn(t, { sub: "new-1", email: "new@example.com", email_verified: true });
    expect(roleOf(id)).toBe("viewer");
    // Turned off: the next newcomer gets only their personal workspace.
    await t.call("PUT", "/api/admin/sso-newcomers", { headers: h(root), body: { workspaceId: null, role: "viewer" } });
    await signIn(t, { sub: "new-2", email: "other@example.com", email_verified: true });
    const other = t.db.query<{ id: string }, []>("SELECT id FROM users WHERE email = 'other@example.com'").get()!.id;
    expect(roleOf(other)).toBeNull();
  });
});
