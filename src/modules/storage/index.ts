// Which blob store this server keeps its files in (STORAGE_URL), and the boot check that it works.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { filesStore } from "./files-store";
import type { BlobStore, StorageUrl } from "./model";
import { s3Endpoint, s3Location, s3Reason, s3Store } from "./s3-store";

export { filesStore } from "./files-store";
export { s3Store } from "./s3-store";
export { checkKey, storageUrl, type BlobBody, type BlobInfo, type BlobStore, type S3Settings } from "./model";

export interface StorageEnv {
  DATA_DIR: string;
  STORAGE_URL?: StorageUrl;
  S3_ENDPOINT?: string;
  S3_REGION?: string;
  AWS_ACCESS_KEY_ID?: string;
  AWS_SECRET_ACCESS_KEY?: string;
}

export interface BlobStorage {
  store: BlobStore;
  /**
   * Where files are made before they go to an object store (a capture's screenshot, a backup's
   * copy): a folder of this process's own, outside DATA_DIR. Absent for the files store, whose
   * files are made in place under DATA_DIR.
   */
  workDir?: string;
}

/** The store STORAGE_URL names: files under DATA_DIR when it is absent. */
export function storageFor(env: StorageEnv): BlobStorage {
  const url = env.STORAGE_URL;
  if (!url) return { store: filesStore(resolve(env.DATA_DIR)) };
  const store = s3Store({
    ...url,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    accessKeyId: env.AWS_ACCESS_KEY_ID ?? "",
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? "",
  });
  return { store, workDir: mkdtempSync(join(tmpdir(), "design-intel-work-")) };
}

const REFUSED =
  /^(InvalidAccessKeyId|SignatureDoesNotMatch|AccessDenied|InvalidToken|ExpiredToken|AuthorizationHeaderMalformed|ERR_S3_MISSING_CREDENTIALS|ERR_S3_INVALID_SIGNATURE|ERR_S3_INVALID_SESSION_TOKEN)$/;
const causeCode = (e: unknown) => {
  const cause = (e as { cause?: unknown })?.cause ?? e;
  return cause && typeof cause === "object" && "code" in cause ? String((cause as { code: unknown }).code) : "";
};

/**
 * Boot: writes and removes a probe object. Null when that works; otherwise the one line the fatal
 * log says: the endpoint cannot be reached, the bucket does not exist, or the credentials were refused.
 */
export async function storageProblem(env: StorageEnv, store: BlobStore, timeoutMs = 10_000): Promise<string | null> {
  const url = env.STORAGE_URL;
  if (!url || store.kind !== "s3") return null;
  const at = { ...url, endpoint: env.S3_ENDPOINT, region: env.S3_REGION };
  const where = s3Location(at);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      store.probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error("no answer"), { code: "Timeout" })), timeoutMs);
      }),
    ]);
    return null;
  } catch (e) {
    const code = causeCode(e);
    const reason = s3Reason((e as { cause?: unknown }).cause ?? e);
    if (code === "NoSuchBucket") return `object storage: the bucket "${url.bucket}" does not exist at ${s3Endpoint(at)}`;
    if (REFUSED.test(code))
      return `object storage: ${where} refused the credentials (${reason}); check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`;
    if (code === "Timeout") return `object storage: ${where} did not answer in ${timeoutMs / 1000} s (check S3_ENDPOINT)`;
    return `object storage: ${where} cannot be used (${reason}); check S3_ENDPOINT and STORAGE_URL`;
  } finally {
    clearTimeout(timer);
  }
}
