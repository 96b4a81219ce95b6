// The blob store on an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Garage) through Bun's
// own S3 client. Every key lives under the STORAGE_URL prefix. A missing object is an answer (null,
// false); anything else the store or the network says becomes an ObjectStoreError, which the HTTP
// layer answers with 503 and runs treat like a full disk.
import { ObjectStoreError } from "#server/http/storage-errors";
import { checkKey, checkPrefix, type BlobData, type BlobInfo, type BlobStore, type S3Settings } from "./model";

/** An operation the store has not answered in this long has failed (a black-holed endpoint would hang a run). */
const OPERATION_TIMEOUT_MS = 60_000;
/** Deletes of one prefix in flight at once. */
const DELETE_PARALLEL = 8;

const NOT_FOUND = new Set(["NoSuchKey", "NotFound", "ENOENT"]);
/** Answers S3 says to retry (its 500 and 503), and the waits before each retry. */
const RETRYABLE = new Set(["InternalError", "ServiceUnavailable", "SlowDown", "RequestTimeout"]);
const RETRIES = [100, 400];
const codeOf = (e: unknown) => (e && typeof e === "object" && "code" in e ? String((e as { code: unknown }).code) : "");
const isMissing = (e: unknown) => NOT_FOUND.has(codeOf(e)) || (e as { status?: number })?.status === 404;

/** The store's reason in a few words: its code, and its message when that adds something. */
export function s3Reason(e: unknown): string {
  const code = codeOf(e);
  const message = e instanceof Error ? e.message : String(e);
  if (!code) return message;
  return message && !/unexpected error/i.test(message) && message !== code ? `${code}: ${message}` : code;
}

/** The endpoint requests go to: S3_ENDPOINT, or AWS S3 of the region when none is set. */
export const s3Endpoint = (s: Pick<S3Settings, "endpoint" | "region">) =>
  (s.endpoint ?? `https://s3.${s.region ?? "us-east-1"}.amazonaws.com`).replace(/\/+$/, "");

/** Where a bucket is, in words: the endpoint, the bucket and the prefix. */
export const s3Location = (s: Pick<S3Settings, "endpoint" | "region" | "bucket" | "prefix">) =>
  `${s3Endpoint(s)}/${s.bucket}${s.prefix ? `/${s.prefix.replace(/\/$/, "")}` : ""}`;

export function s3Store(settings: S3Settings, opts: { timeoutMs?: number } = {}): BlobStore {
  const client = new Bun.S3Client({
    bucket: settings.bucket,
    endpoint: settings.endpoint,
    region: settings.region,
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
  });
  const timeoutMs = opts.timeoutMs ?? OPERATION_TIMEOUT_MS;
  const full = (key: string) => settings.prefix + checkKey(key);

  /** One attempt, failed with a Timeout when the store does not answer in time. */
  async function attempt<T>(work: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`no answer in ${timeoutMs / 1000} s`), { code: "Timeout" })), timeoutMs);
    });
    try {
      return await Promise.race([work(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Runs one request; a missing object is `onMissing`, any other failure an ObjectStoreError. S3
   * asks clients to retry its 500 and 503 answers: each request is sent again, twice at most.
   */
  async function call<T>(what: string, key: string, work: () => Promise<T>, onMissing?: () => T): Promise<T> {
    for (let n = 0; ; n++) {
      try {
        return await attempt(work);
      } catch (e) {
        if (onMissing && isMissing(e)) return onMissing();
        if (n < RETRIES.length && RETRYABLE.has(codeOf(e))) {
          await Bun.sleep(RETRIES[n]!);
          continue;
        }
        throw new ObjectStoreError(`object storage: ${what} ${key} failed (${s3Reason(e)})`, { cause: e });
      }
    }
  }

  const store: BlobStore = {
    kind: "s3",
    description: `s3 ${s3Location(settings)}`,

    async put(key: string, data: BlobData, type?: string) {
      await call("write", key, () => client.write(full(key), data, type ? { type } : undefined));
    },

    get: (key: string) =>
      call(
        "read",
        key,
        () => client.file(full(key)).bytes(),
        () => null,
      ),

    async open(key: string) {
      const info = await store.stat(key);
      // Streamed through the app (docs/decisions/0016-images-through-the-app.md): a Response given the
      // S3File itself would redirect the browser to the bucket.
      return info ? { body: client.file(full(key)).stream(), size: info.size } : null;
    },

    async download(key: string, path: string) {
      const bytes = await store.get(key);
      if (!bytes) return false;
      await Bun.write(path, bytes);
      return true;
    },

    stat: (key: string) =>
      call(
        "stat",
        key,
        async () => {
          const s = await client.stat(full(key));
          return { key, size: s.size, modifiedAt: s.lastModified.getTime() } as BlobInfo | null;
        },
        () => null,
      ),

    async delete(key: string) {
      await call(
        "delete",
        key,
        () => client.delete(full(key)),
        () => undefined,
      );
    },

    async deletePrefix(prefix: string) {
      const keys: string[] = [];
      for await (const b of store.list(prefix)) keys.push(b.key);
      for (let i = 0; i < keys.length; i += DELETE_PARALLEL)
        await Promise.all(keys.slice(i, i + DELETE_PARALLEL).map((k) => store.delete(k)));
    },

    async *list(prefix: string): AsyncGenerator<BlobInfo> {
      checkPrefix(prefix);
      let continuationToken: string | undefined;
      do {
        const page = await call("list", prefix || "/", () => client.list({ prefix: settings.prefix + prefix, continuationToken }));
        for (const o of page.contents ?? []) {
          if (!o.key.startsWith(settings.prefix)) continue;
          yield {
            key: o.key.slice(settings.prefix.length),
            size: o.size ?? 0,
            modifiedAt: o.lastModified ? Date.parse(o.lastModified) : 0,
          };
        }
        continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
      } while (continuationToken);
    },

    async probe() {
      const key = `.ready-probe-${process.pid}`;
      await store.put(key, "ready", "text/plain");
      await store.delete(key);
    },
  };
  return store;
}
