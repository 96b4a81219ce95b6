import type { SqlDb } from "#server/db/sql";
import type { Sealed } from "./cipher";

interface SecretRow {
  name: string;
  nonce: Uint8Array;
  ciphertext: Uint8Array;
  updated_at: string;
}

export function secretsRepository(db: SqlDb) {
  return {
    /** True when `ownerId` owns the target (someone else's target is not found). */
    // A target belongs to a comparison of its owner; owner_id is on the row.
    owns: async (ownerId: string, targetId: string) =>
      (await db.one("SELECT id FROM targets WHERE id = $1 AND owner_id = $2", [targetId, ownerId])) !== null,
    names: (targetId: string) =>
      db.all<{ name: string; updated_at: string }>("SELECT name, updated_at FROM site_secrets WHERE target_id = $1 ORDER BY name", [
        targetId,
      ]),
    count: async (targetId: string) =>
      (await db.one<{ n: number }>("SELECT COUNT(*) AS n FROM site_secrets WHERE target_id = $1", [targetId]))!.n,
    exists: async (targetId: string, name: string) =>
      (await db.one("SELECT 1 AS one FROM site_secrets WHERE target_id = $1 AND name = $2", [targetId, name])) !== null,
    one: (targetId: string, name: string) =>
      db.one<SecretRow>("SELECT name, nonce, ciphertext, updated_at FROM site_secrets WHERE target_id = $1 AND name = $2", [
        targetId,
        name,
      ]),
    all: (targetId: string) =>
      db.all<SecretRow>("SELECT name, nonce, ciphertext, updated_at FROM site_secrets WHERE target_id = $1", [targetId]),
    upsert: (targetId: string, name: string, sealed: Sealed, at: string) =>
      db.run(
        db.dialect.upsert("site_secrets", ["target_id", "name", "nonce", "ciphertext", "created_at", "updated_at"], ["target_id", "name"], {
          update: ["nonce", "ciphertext", "updated_at"],
        }),
        [targetId, name, sealed.nonce, sealed.ciphertext, at, at],
      ),
    /** True when a row was deleted. */
    remove: async (targetId: string, name: string) =>
      (await db.run("DELETE FROM site_secrets WHERE target_id = $1 AND name = $2", [targetId, name])) > 0,
  };
}
export type SecretsRepository = ReturnType<typeof secretsRepository>;
