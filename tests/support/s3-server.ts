// An S3-compatible server on 127.0.0.1 for object-storage tests: s3rver (an imitation of S3 for
// tests, keeping its objects in a folder of its own) with one bucket. It checks that an access key
// is one it knows (S3RVER) but not the request's signature, and its listings are only right in one
// page (under Bun it cannot make continuation tokens, and its pages skip keys), so tests keep
// listings under S3's 1000 keys a page. The production stores are named in docs/scaling.md. The
// server can be stopped and started again on the same port (a lost store). S3RVER_LOG=1 prints
// its request log.
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { s3Store, storageUrl, type BlobStorage, type S3Settings } from "#server/modules/storage";

export const S3_ACCESS_KEY = "S3RVER";
export const S3_SECRET_KEY = "S3RVER";

export interface S3TestServer {
  /** "http://127.0.0.1:PORT" */
  endpoint: string;
  bucket: string;
  /** The environment an app reads to keep its files in the bucket, under `prefix`. */
  env(prefix?: string): Record<string, string>;
  settings(prefix?: string): S3Settings;
  /** A store on the bucket, with its own working folder (removed by close()). */
  storage(prefix?: string): BlobStorage;
  /** Every key in the bucket (prefix included), sorted. */
  keys(): Promise<string[]>;
  /** Makes an object look written `ms` ago (s3rver lists its file's modification time). */
  backdate(key: string, ms: number): void;
  /** Stops answering (connections refused) until start(). */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startS3Server(bucket = "design-intel-test"): Promise<S3TestServer> {
  const directory = mkdtempSync(join(tmpdir(), "di-s3rver-"));
  const workDirs: string[] = [];
  const make = (port: number) =>
    new S3rver({
      address: "127.0.0.1",
      port,
      silent: process.env.S3RVER_LOG !== "1",
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
  let server = make(0);
  const { port } = await server.run();
  let running = true;
  const endpoint = `http://127.0.0.1:${port}`;
  const settings = (prefix = ""): S3Settings => ({
    ...storageUrl.parse(`s3://${bucket}${prefix ? `/${prefix}` : ""}`),
    endpoint,
    region: "us-east-1",
    accessKeyId: S3_ACCESS_KEY,
    secretAccessKey: S3_SECRET_KEY,
  });
  const admin = new Bun.S3Client({ endpoint, bucket, region: "us-east-1", accessKeyId: S3_ACCESS_KEY, secretAccessKey: S3_SECRET_KEY });

  return {
    endpoint,
    bucket,
    env: (prefix = "") => ({
      STORAGE_URL: `s3://${bucket}${prefix ? `/${prefix}` : ""}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: S3_ACCESS_KEY,
      AWS_SECRET_ACCESS_KEY: S3_SECRET_KEY,
    }),
    settings,
    storage(prefix = "") {
      const workDir = mkdtempSync(join(tmpdir(), "di-s3-work-"));
      workDirs.push(workDir);
      return { store: s3Store(settings(prefix)), workDir };
    },
    async keys() {
      const out: string[] = [];
      let continuationToken: string | undefined;
      do {
        const page = await admin.list({ continuationToken });
        out.push(...(page.contents ?? []).map((c) => c.key));
        continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
      } while (continuationToken);
      return out.sort();
    },
    backdate(key, ms) {
      const at = new Date(Date.now() - ms);
      utimesSync(join(directory, bucket, `${key}._S3rver_object`), at, at);
    },
    async stop() {
      if (!running) return;
      running = false;
      await server.close();
    },
    async start() {
      if (running) return;
      server = make(port);
      await server.run();
      running = true;
    },
    async close() {
      if (running) await server.close();
      running = false;
      for (const d of [directory, ...workDirs]) rmSync(d, { recursive: true, force: true });
    },
  };
}

export interface S3TestFile extends S3TestServer {
  /** A fresh folder, removed after the file's tests. */
  tempDir(): string;
  /** Removes this folder too after the file's tests. */
  cleanUp(dir: string): void;
}

/** The S3 server of a test file: started in its beforeAll, closed with its folders in its afterAll. */
export function useS3Server(): S3TestFile {
  let server: S3TestServer | undefined;
  const dirs: string[] = [];
  beforeAll(async () => {
    server = await startS3Server();
  });
  afterAll(async () => {
    await server?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const s = () => {
    if (!server) throw new Error("the S3 server is used before its beforeAll ran");
    return server;
  };
  return {
    get endpoint() {
      return s().endpoint;
    },
    get bucket() {
      return s().bucket;
    },
    env: (prefix) => s().env(prefix),
    settings: (prefix) => s().settings(prefix),
    storage: (prefix) => s().storage(prefix),
    keys: () => s().keys(),
    backdate: (key, ms) => s().backdate(key, ms),
    stop: () => s().stop(),
    start: () => s().start(),
    close: () => s().close(),
    tempDir() {
      const d = mkdtempSync(join(tmpdir(), "di-s3-test-"));
      dirs.push(d);
      return d;
    },
    cleanUp: (dir) => void dirs.push(dir),
  };
}
