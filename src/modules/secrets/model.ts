// Request and response shapes of site secrets, declared once (zod) with their types derived. A
// secret's value goes in (PUT) and never comes out over HTTP: no schema here carries it back.
import { z } from "zod";

/** A secret's name as steps write it, `{{secret:name}}`. */
export const SECRET_NAME = /^[a-z][a-z0-9_-]{0,39}$/;
/** A value's size at most, in UTF-8 bytes. */
export const MAX_SECRET_BYTES = 4096;
/** Secrets one site (target) keeps at most. */
export const MAX_SECRETS_PER_SITE = 20;
/** AES-256: the key is 32 bytes. */
export const SECRETS_KEY_BYTES = 32;

export const secretParams = z.object({
  id: z.string(),
  name: z.string().regex(SECRET_NAME, "name must start with a lowercase letter and hold only a-z, 0-9, _ and - (40 characters at most)"),
});

// The messages never quote the value: an error answer is the one place it could otherwise come back.
export const putSecretBody = z.object({
  value: z
    .string({ error: "value must be a string" })
    .min(1, "value must not be empty")
    .refine((v) => Buffer.byteLength(v, "utf8") <= MAX_SECRET_BYTES, `value must be at most ${MAX_SECRET_BYTES} bytes`),
});
export type PutSecretInput = z.infer<typeof putSecretBody>;

export const secretView = z.object({
  name: z.string(),
  updatedAt: z.string(),
});
export type SecretView = z.infer<typeof secretView>;

/**
 * SECRETS_KEY: 32 bytes in base64 (`openssl rand -base64 32`), checked at boot by src/env.ts.
 * The message never quotes the value.
 */
export const secretsKeyEnv = z
  .string()
  .refine(
    (v) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(v) && Buffer.from(v, "base64").length === SECRETS_KEY_BYTES,
    `must be ${SECRETS_KEY_BYTES} bytes in base64 (make one with: openssl rand -base64 32)`,
  );
