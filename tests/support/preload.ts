// Runs before every test file: the SSR code imports the client manifest, so build it once if missing.
import { existsSync } from "node:fs";
import { join } from "node:path";

const manifest = join(import.meta.dir, "../../src/ssr/client-manifest.generated.ts");
if (!existsSync(manifest)) {
  const proc = Bun.spawnSync(["bun", join(import.meta.dir, "../../scripts/build-client.ts")], { stdout: "inherit", stderr: "inherit" });
  if (proc.exitCode !== 0) throw new Error("client build failed");
}
process.env.NODE_ENV ??= "test";

// Browser and server tests need more than bun's 5 s default; unit tests finish far below it anyway.
import { setDefaultTimeout } from "bun:test";
setDefaultTimeout(30_000);
