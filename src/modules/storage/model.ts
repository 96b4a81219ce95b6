// The blob store: where screenshots, filmstrips and backups are kept, by key. Keys are relative
// POSIX paths made by the server ("screenshots/<user>/<comparison>/<sha256>.png",
// "backups/design-intel-….db"), the same as the paths under DATA_DIR, so an install moves from
// one store to the other by copying keys. Two implementations: files under DATA_DIR (the default)
// and an S3-compatible bucket (STORAGE_URL=s3://bucket/prefix).
import { z } from "zod";

export interface BlobInfo {
  key: string;
  size: number;
  /** Last write, ms since the epoch. */
  modifiedAt: number;
}

/** What a route streams to the browser: a body Response takes, and its length. */
export interface BlobBody {
  body: Blob | ReadableStream<Uint8Array>;
  size: number;
}

export type BlobData = Uint8Array | string | Blob;

export interface BlobStore {
  readonly kind: "files" | "s3";
  /** What readiness and the boot line say: "files /srv/data" or "s3 http://127.0.0.1:9000/bucket/prefix". */
  readonly description: string;
  /** Writes the whole object; readers see the old one or the new one, never a part. */
  put(key: string, data: BlobData, type?: string): Promise<void>;
  /** The object's bytes; null when there is none. */
  get(key: string): Promise<Uint8Array | null>;
  /** A body to stream; null when there is none. */
  open(key: string): Promise<BlobBody | null>;
  /** Copies the object to a local file; false when there is none. */
  download(key: string, path: string): Promise<boolean>;
  stat(key: string): Promise<BlobInfo | null>;
  /** Deleting what is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes every object whose key starts with `prefix` (a folder: end it with "/"). */
  deletePrefix(prefix: string): Promise<void>;
  /** Every object whose key starts with `prefix`, in no promised order. */
  list(prefix: string): AsyncGenerator<BlobInfo>;
  /** Writes and removes a probe object: throws, with the store's reason, when that fails. */
  probe(): Promise<void>;
}

/** Keys are made by the server; anything else (a "..", an absolute path, odd characters) is a bug, refused before it reaches a store. */
const KEY = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;
export function checkKey(key: string): string {
  if (!KEY.test(key) || key.split("/").some((s) => s === "." || s === "..")) throw new Error(`unsafe storage key: ${key}`);
  return key;
}

/** A prefix is a key, or a key and "/" (a folder). */
export function checkPrefix(prefix: string): string {
  if (prefix === "") return prefix;
  checkKey(prefix.endsWith("/") ? prefix.slice(0, -1) : prefix);
  return prefix;
}

/** STORAGE_URL: s3://bucket or s3://bucket/some/prefix. */
export const storageUrl = z
  .string()
  .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9._/-]*)?$/, "must be s3://bucket or s3://bucket/prefix")
  .transform((v) => {
    const rest = v.slice("s3://".length);
    const slash = rest.indexOf("/");
    const bucket = slash < 0 ? rest : rest.slice(0, slash);
    const prefix = slash < 0 ? "" : rest.slice(slash + 1).replace(/^\/+|\/+$/g, "");
    return { bucket, prefix: prefix ? `${prefix}/` : "" };
  })
  .refine((v) => v.prefix === "" || v.prefix.split("/").every((s) => s !== "." && s !== ".."), "the prefix may not hold . or ..");
export type StorageUrl = z.infer<typeof storageUrl>;

export interface S3Settings extends StorageUrl {
  /** S3_ENDPOINT; AWS S3 of the region when absent. */
  endpoint?: string;
  region?: string;
  accessKeyId: string;
  secretAccessKey: string;
}
