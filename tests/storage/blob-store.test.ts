// The blob store contract, one test body run against both stores: files under a folder, and an
// S3-compatible bucket on 127.0.0.1 (s3rver) through Bun's S3 client, under a prefix. Then what
// only the object store has: its failures are storage errors (503, not 500), and the boot check
// names an endpoint that cannot be reached, a bucket that does not exist and refused credentials.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isStorageError, storageMessageOf, OBJECT_STORE_UNAVAILABLE_MESSAGE } from "#server/http/storage-errors";
import { EnvError, loadEnv } from "#server/env";
import { filesStore, s3Store, storageFor, storageProblem, type BlobStore } from "#server/modules/storage";
import { useS3Server } from "#tests/support/s3-server";

const s3 = useS3Server();
const tempDir = () => s3.tempDir();

const drain = async (it: AsyncGenerator<{ key: string; size: number; modifiedAt: number }>) => {
  const out = [];
  for await (const b of it) out.push(b);
  return out.sort((a, b) => a.key.localeCompare(b.key));
};
const text = (bytes: Uint8Array | null) => (bytes ? new TextDecoder().decode(bytes) : null);

const backends: [string, () => BlobStore][] = [
  ["files", () => filesStore(tempDir())],
  ["s3", () => s3Store(s3.settings(`contract-${crypto.randomUUID().slice(0, 8)}`))],
];

describe.each(backends)("blob store contract: %s", (_name, make) => {
  test("put, get, stat, open and download; a missing key is null or false, never an error", async () => {
    const store = make();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await store.put("screenshots/u1/c1/abc.png", png, "image/png");
    expect(await store.get("screenshots/u1/c1/abc.png")).toEqual(png);
    const info = await store.stat("screenshots/u1/c1/abc.png");
    expect(info).toMatchObject({ key: "screenshots/u1/c1/abc.png", size: png.length });
    expect(Math.abs(info!.modifiedAt - Date.now())).toBeLessThan(60_000);

    const opened = await store.open("screenshots/u1/c1/abc.png");
    expect(opened?.size).toBe(png.length);
    expect(new Uint8Array(await new Response(opened!.body).arrayBuffer())).toEqual(png);

    const local = join(tempDir(), "copy.png");
    expect(await store.download("screenshots/u1/c1/abc.png", local)).toBe(true);
    expect(new Uint8Array(readFileSync(local))).toEqual(png);

    expect(await store.get("screenshots/u1/c1/nope.png")).toBeNull();
    expect(await store.stat("screenshots/u1/c1/nope.png")).toBeNull();
    expect(await store.open("screenshots/u1/c1/nope.png")).toBeNull();
    expect(await store.download("screenshots/u1/c1/nope.png", join(tempDir(), "x"))).toBe(false);
    await store.delete("screenshots/u1/c1/nope.png"); // not there: not an error
  });

  test("a put replaces the whole object; a file's bytes can be the body", async () => {
    const store = make();
    await store.put("backups/a.db", "first version, longer");
    await store.put("backups/a.db", "second");
    expect(text(await store.get("backups/a.db"))).toBe("second");
    const src = join(tempDir(), "src.bin");
    await Bun.write(
      src,
      new Uint8Array(300_000).map((_, i) => i % 251),
    );
    await store.put("backups/b.db", Bun.file(src));
    expect((await store.stat("backups/b.db"))?.size).toBe(300_000);
    expect(await store.get("backups/b.db")).toEqual(new Uint8Array(readFileSync(src)));
  });

  test("list by prefix (a folder or a name's start), delete, and delete a whole folder", async () => {
    const store = make();
    const keys = [
      "screenshots/u1/c1/a.png",
      "screenshots/u1/c1/b.png",
      "screenshots/u1/c1/filmstrips/s1/000.jpg",
      "screenshots/u1/c1/filmstrips/s1/manifest.json",
      "screenshots/u1/c2/c.png",
      "screenshots/u2/c3/d.png",
    ];
    for (const k of keys) await store.put(k, k);
    expect((await drain(store.list("screenshots/"))).map((b) => b.key)).toEqual(keys);
    expect((await drain(store.list("screenshots/u1/c1/"))).map((b) => b.key)).toEqual(keys.slice(0, 4));
    expect((await drain(store.list("screenshots/u1/c1/filmstrips/s"))).map((b) => b.key)).toEqual(keys.slice(2, 4));
    expect((await drain(store.list("screenshots/u1/c1/a"))).map((b) => [b.key, b.size])).toEqual([[keys[0]!, keys[0]!.length]]);
    expect(await drain(store.list("screenshots/nobody/"))).toEqual([]);
    expect(await drain(store.list("nothing-here/"))).toEqual([]);

    await store.delete("screenshots/u1/c1/b.png");
    expect(await store.get("screenshots/u1/c1/b.png")).toBeNull();
    await store.deletePrefix("screenshots/u1/");
    expect((await drain(store.list("screenshots/"))).map((b) => b.key)).toEqual(["screenshots/u2/c3/d.png"]);
  });

  test("keys that could leave the store are refused before any request", async () => {
    const store = make();
    for (const bad of ["../x", "screenshots/../../etc/passwd", "/abs", "a//b", "a/./b", "with space", ""])
      await expect(store.put(bad, "x")).rejects.toThrow(/unsafe storage key/);
    await expect(store.get("screenshots/..")).rejects.toThrow(/unsafe storage key/);
    await expect(drain(store.list("../"))).rejects.toThrow(/unsafe storage key/);
  });

  test("the probe writes and removes its object", async () => {
    const store = make();
    await store.probe();
    expect((await drain(store.list(""))).map((b) => b.key)).toEqual([]);
  });
});

describe("the S3 store", () => {
  test("keys live under the STORAGE_URL prefix, and the description names endpoint, bucket and prefix", async () => {
    const store = s3Store(s3.settings("tenant-a/design"));
    await store.put("screenshots/u/c/x.png", "x");
    expect(await s3.keys()).toContain("tenant-a/design/screenshots/u/c/x.png");
    expect(store.description).toBe(`s3 ${s3.endpoint}/${s3.bucket}/tenant-a/design`);
    expect((await drain(store.list("screenshots/"))).map((b) => b.key)).toEqual(["screenshots/u/c/x.png"]);
  });

  test("a store that stopped answering fails with a storage error (503 in its own words), and works again when it is back", async () => {
    const store = s3Store(s3.settings("outage"));
    await store.put("k.txt", "before");
    await s3.stop();
    try {
      const failure = await store.get("k.txt").then(
        () => null,
        (e) => e,
      );
      expect(failure).toBeInstanceOf(Error);
      expect(isStorageError(failure)).toBe(true);
      expect(storageMessageOf(failure)).toBe(OBJECT_STORE_UNAVAILABLE_MESSAGE);
      expect(String(failure.message)).toContain("object storage: read k.txt failed");
      await expect(store.put("k2.txt", "x")).rejects.toMatchObject({ code: "EOBJECTSTORE" });
    } finally {
      await s3.start();
    }
    expect(text(await store.get("k.txt"))).toBe("before");
  });

  test("an operation the store does not answer in time fails instead of hanging", async () => {
    // A listening socket that never answers: a black-holed endpoint.
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      const store = s3Store({ ...s3.settings(), endpoint: `http://127.0.0.1:${silent.port}` }, { timeoutMs: 300 });
      await expect(store.get("x")).rejects.toMatchObject({ code: "EOBJECTSTORE", message: expect.stringContaining("no answer in 0.3 s") });
    } finally {
      silent.stop(true);
    }
  });
});

describe("STORAGE_URL at boot", () => {
  const envFor = (over: Record<string, string>) => loadEnv({ NODE_ENV: "test", DATA_DIR: tempDir(), ...s3.env(), ...over });
  const problemFor = async (over: Record<string, string>) => {
    const env = envFor(over);
    const storage = storageFor(env);
    if (storage.workDir) s3.cleanUp(storage.workDir);
    return storageProblem(env, storage.store, 2_000);
  };

  test("absent: files under DATA_DIR, nothing to check", async () => {
    const env = loadEnv({ NODE_ENV: "test", DATA_DIR: "/srv/data" });
    const storage = storageFor(env);
    expect(storage.store.description).toBe("files /srv/data");
    expect(storage.workDir).toBeUndefined();
    expect(await storageProblem(env, storage.store)).toBeNull();
  });

  test("a bucket that takes a write: no problem, and a working folder outside DATA_DIR", async () => {
    const env = envFor({});
    const storage = storageFor(env);
    s3.cleanUp(storage.workDir!);
    expect(await storageProblem(env, storage.store)).toBeNull();
    expect(existsSync(storage.workDir!)).toBe(true);
    expect(storage.workDir!.startsWith(env.DATA_DIR)).toBe(false);
    expect(storage.store.description).toBe(`s3 ${s3.endpoint}/${s3.bucket}`);
  });

  test("an endpoint that cannot be reached", async () => {
    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = closed.port;
    closed.stop(true);
    expect(await problemFor({ S3_ENDPOINT: `http://127.0.0.1:${port}` })).toBe(
      `object storage: http://127.0.0.1:${port}/${s3.bucket} cannot be used (ConnectionRefused); check S3_ENDPOINT and STORAGE_URL`,
    );
  });

  test("an endpoint that does not answer", async () => {
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      const env = envFor({ S3_ENDPOINT: `http://127.0.0.1:${silent.port}` });
      const storage = storageFor(env);
      s3.cleanUp(storage.workDir!);
      expect(await storageProblem(env, storage.store, 300)).toBe(
        `object storage: http://127.0.0.1:${silent.port}/${s3.bucket} did not answer in 0.3 s (check S3_ENDPOINT)`,
      );
    } finally {
      silent.stop(true);
    }
  });

  test("a bucket that does not exist", async () => {
    expect(await problemFor({ STORAGE_URL: "s3://no-such-bucket/x" })).toBe(
      `object storage: the bucket "no-such-bucket" does not exist at ${s3.endpoint}`,
    );
  });

  test("credentials the store refuses", async () => {
    expect(await problemFor({ AWS_ACCESS_KEY_ID: "NOT-A-KEY" })).toStartWith(
      `object storage: ${s3.endpoint}/${s3.bucket} refused the credentials (InvalidAccessKeyId`,
    );
  });

  test("the variables are validated with the others; the secret is never echoed", () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadEnv({ NODE_ENV: "test", ...env });
        return "";
      } catch (e) {
        if (!(e instanceof EnvError)) throw e;
        return e.message;
      }
    };
    expect(problems({ STORAGE_URL: "s3://bucket/prefix" })).toBe(
      [
        "Invalid configuration:",
        "  AWS_ACCESS_KEY_ID: is required when STORAGE_URL is set (got null)",
        "  AWS_SECRET_ACCESS_KEY: is required when STORAGE_URL is set (got null)",
      ].join("\n"),
    );
    expect(problems({ STORAGE_URL: "https://bucket", AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "very-secret-value" })).toBe(
      'Invalid configuration:\n  STORAGE_URL: must be s3://bucket or s3://bucket/prefix (got "https://bucket")',
    );
    expect(problems({ S3_ENDPOINT: "ftp://x", AWS_SECRET_ACCESS_KEY: "very-secret-value" })).toContain(
      'S3_ENDPOINT: must be an http:// or https:// URL (got "ftp://x")',
    );
    expect(problems({ STORAGE_URL: "s3://b/../x", AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s" })).toContain("STORAGE_URL");
    expect(loadEnv({ STORAGE_URL: "s3://my-bucket/a/b/", AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s" }).STORAGE_URL).toEqual({
      bucket: "my-bucket",
      prefix: "a/b/",
    });
  });
});
