// Sealing what must not sit in plain text in jobs.payload or capture_results: the steps' secret
// values and the login session (cookies). The secrets module's cipher (AES-256-GCM, a fresh nonce a
// write, the scope and field as authenticated data), keyed from the app secret every instance of a
// deployment shares (JWT_SECRET), so the serve that seals and the worker that opens agree.
import { hkdfSync } from "node:crypto";
import { open, seal } from "#server/modules/secrets/public";

const KEY_INFO = "design-intel/capture-jobs/v1";

export interface JobSealer {
  /** `value` as JSON, sealed: "nonce.ciphertext" in base64. */
  seal(scope: string, field: string, value: unknown): string;
  /** Throws SecretUnreadable when it was sealed under another secret, scope or field. */
  open<T>(scope: string, field: string, text: string): T;
}

/** A job's sealed parts are bound to its owner (payload) or its id (answer): moved to another row, they fail to open. */
export const payloadScope = (ownerId: string | null) => `capture-job/${ownerId ?? ""}`;
export const resultScope = (jobId: string) => `capture-result/${jobId}`;

export function jobSealer(appSecret: Uint8Array): JobSealer {
  // A key of its own, derived: the app secret signs tokens too, and one key is never used for two purposes.
  const key = new Uint8Array(hkdfSync("sha256", appSecret, new Uint8Array(0), KEY_INFO, 32));
  return {
    seal(scope, field, value) {
      const s = seal(key, scope, field, JSON.stringify(value));
      return `${Buffer.from(s.nonce).toString("base64")}.${Buffer.from(s.ciphertext).toString("base64")}`;
    },
    open<T>(scope: string, field: string, text: string): T {
      const [nonce = "", ciphertext = ""] = text.split(".");
      return JSON.parse(
        open(key, scope, field, { nonce: Buffer.from(nonce, "base64"), ciphertext: Buffer.from(ciphertext, "base64") }),
      ) as T;
    },
  };
}
