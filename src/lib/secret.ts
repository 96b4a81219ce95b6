import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomToken } from "./ids";

/** JWT_SECRET when given; otherwise a random secret kept in DATA_DIR so sessions survive restarts. */
export function loadSecret(dataDir: string, fromEnv?: string): Uint8Array {
  if (fromEnv) return new TextEncoder().encode(fromEnv);
  const path = join(dataDir, ".jwt-secret");
  if (!existsSync(path)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path, randomToken(48), { mode: 0o600 });
  }
  return new TextEncoder().encode(readFileSync(path, "utf8").trim());
}
