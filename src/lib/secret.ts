import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomToken } from "./ids";
import { OWNER_ONLY_FILE, makeOwnerOnlyDir } from "./owner-only";

/**
 * The text of an owner-only file under `dir`, made from `generate()` the first time. Creation is
 * atomic: the value is written whole to a temporary name, then hard-linked to `name`, which fails
 * if the name exists; so two processes booting at once agree on one value, and no reader ever sees
 * a half-written file.
 */
export function ownerOnlySecretFile(dir: string, name: string, generate: () => string): string {
  const path = join(dir, name);
  if (!existsSync(path)) {
    makeOwnerOnlyDir(dir);
    const tmp = join(dir, `.${name}.${process.pid}.${randomToken(6)}.tmp`);
    writeFileSync(tmp, generate(), { mode: OWNER_ONLY_FILE, flag: "wx" });
    try {
      linkSync(tmp, path);
    } catch (e) {
      // Another process made it first: its value is the one.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    } finally {
      unlinkSync(tmp);
    }
  }
  return readFileSync(path, "utf8").trim();
}

/** JWT_SECRET when given; otherwise a random secret kept in DATA_DIR so sessions survive restarts. */
export function loadSecret(dataDir: string, fromEnv?: string): Uint8Array {
  if (fromEnv) return new TextEncoder().encode(fromEnv);
  return new TextEncoder().encode(ownerOnlySecretFile(dataDir, ".jwt-secret", () => randomToken(48)));
}
