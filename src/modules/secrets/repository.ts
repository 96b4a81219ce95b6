import type { Db } from "#server/db/connection";
import type { Sealed } from "./cipher";

interface SecretRow {
  name: string;
  nonce: Uint8Array;
  ciphertext: Uint8Array;
  updated_at: string;
}

export function secretsRepository(db: Db) {
  const q = {
    // A target belongs to a comparison of its owner; owner_id is on the row.
    owned: db.query<{ id: string }, [string, string]>("SELECT id FROM targets WHERE id = ? AND owner_id = ?"),
    names: db.query<{ name: string; updated_at: string }, [string]>(
      "SELECT name, updated_at FROM site_secrets WHERE target_id = ? ORDER BY name",
    ),
    count: db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM site_secrets WHERE target_id = ?"),
    exists: db.query<{ one: number }, [string, string]>("SELECT 1 AS one FROM site_secrets WHERE target_id = ? AND name = ?"),
    one: db.query<SecretRow, [string, string]>(
      "SELECT name, nonce, ciphertext, updated_at FROM site_secrets WHERE target_id = ? AND name = ?",
    ),
    all: db.query<SecretRow, [string]>("SELECT name, nonce, ciphertext, updated_at FROM site_secrets WHERE target_id = ?"),
    upsert: db.query<unknown, [string, string, Uint8Array, Uint8Array, string, string]>(
      `INSERT INTO site_secrets (target_id, name, nonce, ciphertext, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (target_id, name) DO UPDATE SET nonce = excluded.nonce, ciphertext = excluded.ciphertext, updated_at = excluded.updated_at`,
    ),
    remove: db.query<unknown, [string, string]>("DELETE FROM site_secrets WHERE target_id = ? AND name = ?"),
  };
  return {
    /** True when `ownerId` owns the target (someone else's target is not found). */
    owns: (ownerId: string, targetId: string) => q.owned.get(targetId, ownerId) !== null,
    names: (targetId: string) => q.names.all(targetId),
    count: (targetId: string) => q.count.get(targetId)!.n,
    exists: (targetId: string, name: string) => q.exists.get(targetId, name) !== null,
    one: (targetId: string, name: string) => q.one.get(targetId, name),
    all: (targetId: string) => q.all.all(targetId),
    upsert: (targetId: string, name: string, sealed: Sealed, at: string) =>
      q.upsert.run(targetId, name, sealed.nonce, sealed.ciphertext, at, at),
    /** True when a row was deleted. */
    remove: (targetId: string, name: string) => q.remove.run(targetId, name).changes > 0,
  };
}
export type SecretsRepository = ReturnType<typeof secretsRepository>;
