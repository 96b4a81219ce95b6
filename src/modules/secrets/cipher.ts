// AES-256-GCM for site secrets. Each write gets a fresh random 96-bit nonce; the target id and the
// name are the additional authenticated data, so a ciphertext moved to another row (another site,
// another name) fails its tag instead of decrypting. The "v1" label leaves room for a later key
// or format without guessing which one a row was written with.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { ownerOnlySecretFile } from "#server/lib/secret";
import { SECRETS_KEY_BYTES } from "./model";

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Where the generated key is kept when SECRETS_KEY is not set (owner-only, outside every backup). */
export const SECRETS_KEY_FILE = "secrets.key";

export interface Sealed {
  nonce: Uint8Array;
  /** Ciphertext followed by the GCM tag. */
  ciphertext: Uint8Array;
}

export class SecretUnreadable extends Error {}

const aadOf = (targetId: string, name: string) => Buffer.from(`design-intel/site-secret/v1\0${targetId}\0${name}`, "utf8");

export function seal(key: Uint8Array, targetId: string, name: string, value: string): Sealed {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(aadOf(targetId, name));
  const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return { nonce, ciphertext: body };
}

/** The value; SecretUnreadable when the key, the row's target or name, or the bytes are not the ones it was sealed with. */
export function open(key: Uint8Array, targetId: string, name: string, sealed: Sealed): string {
  const body = Buffer.from(sealed.ciphertext);
  if (sealed.nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) throw new SecretUnreadable(`secret ${name} is malformed`);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, sealed.nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(aadOf(targetId, name));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    // Never the bytes or the key in the message: it may end up in a log line.
    throw new SecretUnreadable(`secret ${name} does not decrypt with this server's key`);
  }
}

/**
 * The key: SECRETS_KEY (validated at boot) when set, else DATA_DIR/secrets.key, generated once
 * (32 random bytes in base64, mode 0600, created atomically). Not part of any backup: the database
 * copy alone opens nothing.
 */
export function loadSecretsKey(dataDir: string, fromEnv?: string): Uint8Array {
  const text = fromEnv ?? ownerOnlySecretFile(dataDir, SECRETS_KEY_FILE, () => randomBytes(SECRETS_KEY_BYTES).toString("base64"));
  const key = Buffer.from(text, "base64");
  if (key.length !== SECRETS_KEY_BYTES)
    throw new Error(`${fromEnv ? "SECRETS_KEY" : SECRETS_KEY_FILE} does not hold ${SECRETS_KEY_BYTES} bytes in base64`);
  return new Uint8Array(key);
}
