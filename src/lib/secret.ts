import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomToken } from "./ids";
import { OWNER_ONLY_FILE, makeOwnerOnlyDir } from "./owner-only";

/** JWT_SECRET when given; otherwise a random secret kept in DATA_DIR so sessions survive restarts. */
export function loadSecret(dataDir: string, fromEnv?: string): Uint8Array {
  if (fromEnv) return new TextEncoder().encode(fromEnv);
  const path = join(dataDir, ".jwt-secret");
  if (!existsSync(path)) {
    makeOwnerOnlyDir(dataDir);
    writeFileSync(path, randomToken(48), { mode: OWNER_ONLY_FILE });
  }
  return new TextEncoder().encode(readFileSync(path, "utf8").trim());
}
