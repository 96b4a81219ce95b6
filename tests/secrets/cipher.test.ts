// The sealing of site secrets (AES-256-GCM, the target and name bound in), the generated key file,
// and SECRETS_KEY's check at boot.
import { afterAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EnvError, loadEnv } from "#server/env";
import { SECRETS_KEY_FILE, SecretUnreadable, loadSecretsKey, open, seal } from "#server/modules/secrets/cipher";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "di-secrets-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const key = new Uint8Array(randomBytes(32));

describe("seal and open", () => {
  test("a value round-trips, unicode and 4 KiB included", () => {
    for (const value of ["hunter2", "pässwörd 🔑", "x".repeat(4096)]) {
      const sealed = seal(key, "t1", "password", value);
      expect(Buffer.from(sealed.ciphertext).includes(Buffer.from(value))).toBe(false);
      expect(open(key, "t1", "password", sealed)).toBe(value);
    }
  });

  test("every write gets a fresh 96-bit nonce", () => {
    const a = seal(key, "t1", "password", "same");
    const b = seal(key, "t1", "password", "same");
    expect(a.nonce.length).toBe(12);
    expect(Buffer.from(a.nonce).equals(Buffer.from(b.nonce))).toBe(false);
    expect(Buffer.from(a.ciphertext).equals(Buffer.from(b.ciphertext))).toBe(false);
  });

  test("a ciphertext moved to another site or name, or opened with another key, fails", () => {
    const sealed = seal(key, "t1", "password", "hunter2");
    expect(() => open(key, "t2", "password", sealed)).toThrow(SecretUnreadable);
    expect(() => open(key, "t1", "token", sealed)).toThrow(SecretUnreadable);
    expect(() => open(new Uint8Array(randomBytes(32)), "t1", "password", sealed)).toThrow(SecretUnreadable);
    const tampered = Buffer.from(sealed.ciphertext);
    tampered[0]! ^= 1;
    expect(() => open(key, "t1", "password", { nonce: sealed.nonce, ciphertext: tampered })).toThrow(SecretUnreadable);
    expect(() => open(key, "t1", "password", { nonce: new Uint8Array(3), ciphertext: sealed.ciphertext })).toThrow(SecretUnreadable);
  });

  test("the error names the secret, never the value or the key", () => {
    const sealed = seal(key, "t1", "password", "hunter2");
    try {
      open(key, "t2", "password", sealed);
      throw new Error("opened");
    } catch (e) {
      expect((e as Error).message).toBe("secret password does not decrypt with this server's key");
    }
  });
});

describe("the key", () => {
  test("without SECRETS_KEY, DATA_DIR/secrets.key is made once, owner-only, and reused", () => {
    const dir = join(tempDir(), "data");
    const first = loadSecretsKey(dir);
    expect(first.length).toBe(32);
    const path = join(dir, SECRETS_KEY_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(path, "utf8").trim(), "base64").equals(Buffer.from(first))).toBe(true);
    expect(Buffer.from(loadSecretsKey(dir)).equals(Buffer.from(first))).toBe(true);
    // No temporary file is left beside it.
    expect(readdirSync(dir)).toEqual([SECRETS_KEY_FILE]);
  });

  test("processes starting at once agree on one key", async () => {
    const dir = join(tempDir(), "data");
    const script = `import { loadSecretsKey } from "#server/modules/secrets/cipher"; process.stdout.write(Buffer.from(loadSecretsKey(${JSON.stringify(dir)})).toString("base64"));`;
    const procs = Array.from({ length: 4 }, () => Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" }));
    const keys = await Promise.all(procs.map((p) => new Response(p.stdout).text()));
    expect(new Set(keys).size).toBe(1);
    expect(Buffer.from(keys[0]!, "base64").length).toBe(32);
    expect(readdirSync(dir)).toEqual([SECRETS_KEY_FILE]);
  });

  test("SECRETS_KEY wins, and no file is made", () => {
    const dir = tempDir();
    const env = randomBytes(32).toString("base64");
    expect(Buffer.from(loadSecretsKey(dir, env)).toString("base64")).toBe(env);
    expect(readdirSync(dir)).toEqual([]);
  });

  test("SECRETS_KEY is checked at boot: 32 bytes of base64, its value never echoed", () => {
    const good = randomBytes(32).toString("base64");
    expect(loadEnv({ NODE_ENV: "test", SECRETS_KEY: good }).SECRETS_KEY).toBe(good);
    for (const bad of [randomBytes(16).toString("base64"), randomBytes(33).toString("base64"), "not base64 at all!!", "x".repeat(44)]) {
      let message = "";
      try {
        loadEnv({ NODE_ENV: "test", SECRETS_KEY: bad });
      } catch (e) {
        expect(e).toBeInstanceOf(EnvError);
        message = (e as Error).message;
      }
      expect(message).toContain("SECRETS_KEY: must be 32 bytes in base64");
      expect(message).toContain("not shown");
      expect(message).not.toContain(bad);
    }
  });
});
