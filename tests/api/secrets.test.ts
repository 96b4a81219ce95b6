// Site secrets over HTTP: set, list (names only), delete; ownership, bad input, limits; and the
// value's absence from every answer, the logs, the export, a backup and every file under DATA_DIR.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "#tests/support/app";

/** Unique enough that finding it anywhere can only be the secret itself. */
const VALUE = "pw-Zq8v!secret-4c1f-do-not-leak";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), "di-secrets-api-"));
  dirs.push(dataDir);
  const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" }, dbPath: join(dataDir, "design-intel.db") });
  /** Every answer's text, so a test can say the value was in none of them. */
  const answers: string[] = [];
  const call: typeof t.call = async (...args) => {
    const r = await t.call(...args);
    answers.push(`${[...r.headers].join("\n")}\n${r.text}`);
    return r;
  };
  return { ...t, call, dataDir, answers };
}

async function owner(t: ReturnType<typeof setup>) {
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = await t.call("POST", "/api/comparisons", { body: { name: "Logged in" }, headers: h });
  const target = async (label: string) => {
    const r = await t.call("POST", `/api/comparisons/${c.json.id}/targets`, {
      body: { url: `http://127.0.0.1:9/${label.toLowerCase()}`, label },
      headers: h,
    });
    expect(r.status, r.text).toBe(201);
    return r.json.id as string;
  };
  return { u, h, comparisonId: c.json.id as string, target };
}

/** Every file under `dir`, as bytes. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  const out: { path: string; bytes: Buffer }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push({ path, bytes: readFileSync(path) });
  }
  return out;
}

describe("site secrets", () => {
  test("put, list and delete; the value is never answered", async () => {
    const t = setup();
    const a = await owner(t);
    const site = await a.target("Acme");
    const put = await t.call("PUT", `/api/targets/${site}/secrets/password`, { body: { value: VALUE }, headers: a.h });
    expect(put.status, put.text).toBe(204);
    expect(put.text).toBe("");
    expect((await t.call("PUT", `/api/targets/${site}/secrets/api_token-2`, { body: { value: "t0k" }, headers: a.h })).status).toBe(204);

    const list = await t.call("GET", `/api/targets/${site}/secrets`, { headers: a.h });
    expect(list.status).toBe(200);
    expect(list.json.map((s: { name: string }) => s.name)).toEqual(["api_token-2", "password"]);
    for (const s of list.json) expect(Object.keys(s).sort()).toEqual(["name", "updatedAt"]);

    // Replacing keeps one row, and the service reads the new value.
    expect((await t.call("PUT", `/api/targets/${site}/secrets/password`, { body: { value: `${VALUE}!` }, headers: a.h })).status).toBe(204);
    expect(await t.services.secrets.reveal(site, "password")).toBe(`${VALUE}!`);
    expect((await t.services.secrets.valuesOf(site)).sort()).toEqual([`${VALUE}!`, "t0k"]);
    expect(await t.services.secrets.reveal(site, "nope")).toBeNull();
    await t.call("PUT", `/api/targets/${site}/secrets/password`, { body: { value: VALUE }, headers: a.h });

    expect((await t.call("DELETE", `/api/targets/${site}/secrets/api_token-2`, { headers: a.h })).status).toBe(204);
    const gone = await t.call("DELETE", `/api/targets/${site}/secrets/api_token-2`, { headers: a.h });
    expect(gone.status).toBe(404);
    expect(gone.json.error).toBe("Secret not found");
    expect((await t.call("GET", `/api/targets/${site}/secrets`, { headers: a.h })).json.map((s: { name: string }) => s.name)).toEqual([
      "password",
    ]);

    // The audit log has the names, never the value.
    const audit = t.db
      .query<{ action: string; target: string; details: string }, []>(
        "SELECT action, target, details FROM audit_log WHERE action LIKE 'secret.%' ORDER BY id",
      )
      .all();
    expect(audit.map((r) => [r.action, r.target, JSON.parse(r.details)])).toEqual([
      ["secret.set", site, { name: "password" }],
      ["secret.set", site, { name: "api_token-2" }],
      ["secret.set", site, { name: "password" }],
      ["secret.set", site, { name: "password" }],
      ["secret.deleted", site, { name: "api_token-2" }],
    ]);
    for (const text of t.answers) expect(text).not.toContain(VALUE);
    expect(t.logs.text()).not.toContain(VALUE);
  });

  test("another user's or an unknown target is not found, for every route", async () => {
    const t = setup();
    const a = await owner(t);
    const b = await owner(t);
    const site = await a.target("Acme");
    await t.call("PUT", `/api/targets/${site}/secrets/password`, { body: { value: VALUE }, headers: a.h });
    for (const id of [site, "no-such-target"]) {
      const calls = [
        t.call("GET", `/api/targets/${id}/secrets`, { headers: b.h }),
        t.call("PUT", `/api/targets/${id}/secrets/password`, { body: { value: "overwritten" }, headers: b.h }),
        t.call("DELETE", `/api/targets/${id}/secrets/password`, { headers: b.h }),
      ];
      for (const r of await Promise.all(calls)) {
        expect(r.status).toBe(404);
        expect(r.json).toEqual({ error: "Target not found" });
      }
    }
    expect((await t.call("GET", `/api/targets/${site}/secrets`)).status).toBe(401);
    expect(await t.services.secrets.reveal(site, "password")).toBe(VALUE);
  });

  test("bad names and values are 400s naming what is wrong; a site keeps at most 20", async () => {
    const t = setup();
    const a = await owner(t);
    const site = await a.target("Acme");
    const put = (name: string, body: unknown) => t.call("PUT", `/api/targets/${site}/secrets/${name}`, { body, headers: a.h });
    for (const name of ["Password", "1st", "_x", "a".repeat(41), "pass%20word", "pass.word"]) {
      const r = await put(name, { value: "v" });
      expect(r.status, name).toBe(400);
      expect(r.json.error).toStartWith("name must start with a lowercase letter");
    }
    expect((await put("a".repeat(40), { value: "v" })).status).toBe(204);
    const cases: [unknown, string][] = [
      [{}, "value must be a string"],
      [{ value: 42 }, "value must be a string"],
      [{ value: "" }, "value must not be empty"],
      [{ value: "é".repeat(2049) }, "value must be at most 4096 bytes"],
    ];
    for (const [body, error] of cases) {
      const r = await put("password", body);
      expect(r.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(r.json.error).toBe(error);
    }
    expect((await put("password", { value: "x".repeat(4096) })).status).toBe(204);

    for (let i = 2; i < 20; i++) expect((await put(`s${i}`, { value: "v" })).status).toBe(204);
    const full = await put("one-more", { value: "v" });
    expect(full.status).toBe(409);
    expect(full.json.error).toBe("A site keeps at most 20 secrets; delete one first");
    // Replacing one of the 20 is not a new one.
    expect((await put("s2", { value: "w" })).status).toBe(204);
  });

  test("deleting the target or its comparison deletes its secrets", async () => {
    const t = setup();
    const a = await owner(t);
    const [one, two] = [await a.target("One"), await a.target("Two")];
    for (const site of [one, two]) await t.call("PUT", `/api/targets/${site}/secrets/password`, { body: { value: VALUE }, headers: a.h });
    const rows = () => t.db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM site_secrets").get()!.n;
    expect(rows()).toBe(2);
    expect((await t.call("DELETE", `/api/targets/${one}`, { headers: a.h })).status).toBe(200);
    expect(rows()).toBe(1);
    expect((await t.call("DELETE", `/api/comparisons/${a.comparisonId}`, { headers: a.h })).status).toBe(200);
    expect(rows()).toBe(0);
  });

  test("a row copied to another site does not decrypt there", async () => {
    const t = setup();
    const a = await owner(t);
    const [one, two] = [await a.target("One"), await a.target("Two")];
    await t.call("PUT", `/api/targets/${one}/secrets/password`, { body: { value: VALUE }, headers: a.h });
    t.db.run(
      "INSERT INTO site_secrets (target_id, name, nonce, ciphertext, created_at, updated_at) SELECT ?, name, nonce, ciphertext, created_at, updated_at FROM site_secrets WHERE target_id = ?",
      [two, one],
    );
    await expect(t.services.secrets.reveal(two, "password")).rejects.toThrow("secret password does not decrypt with this server's key");
    expect(await t.services.secrets.reveal(one, "password")).toBe(VALUE);
  });

  test("the plain value is in no file under DATA_DIR, no export and no backup; the key file is owner-only and outside backups", async () => {
    const t = setup();
    const admin = await owner(t); // the first account: the admin
    const a = await owner(t);
    const site = await a.target("Acme");
    expect((await t.call("PUT", `/api/targets/${site}/secrets/password`, { body: { value: VALUE }, headers: a.h })).status).toBe(204);

    for (const format of ["json", "html"]) {
      const r = await t.call("GET", `/api/comparisons/${a.comparisonId}/export?format=${format}`, { headers: a.h });
      expect(r.status, r.text.slice(0, 200)).toBe(200);
      expect(r.text).not.toContain(VALUE);
    }
    const backup = await t.call("POST", "/api/admin/backups", { headers: admin.h });
    expect(backup.status, backup.text).toBe(201);
    const download = await t.call("GET", `/api/admin/backups/${backup.json.backup.name}`, { headers: admin.h });
    expect(download.status).toBe(200);
    expect(download.text).not.toContain(VALUE);

    const plain = Buffer.from(VALUE);
    const scan = () => {
      const files = filesUnder(t.dataDir);
      // The database and its WAL are among them, and so is the backup.
      expect(files.some((f) => f.path.endsWith("design-intel.db-wal"))).toBe(true);
      expect(files.some((f) => f.path.includes(`${join(t.dataDir, "backups")}/`))).toBe(true);
      for (const f of files) expect(f.bytes.includes(plain), f.path).toBe(false);
      return files;
    };
    const files = scan();
    t.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    scan();

    const keyFile = join(t.dataDir, "secrets.key");
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(files.filter((f) => f.path.includes("/backups/") && f.path.endsWith(".key"))).toEqual([]);
    for (const text of t.answers) expect(text).not.toContain(VALUE);
    expect(t.logs.text()).not.toContain(VALUE);
  });
});
