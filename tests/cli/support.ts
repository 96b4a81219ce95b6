import { chmodSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_TIMING_SAMPLES } from "#tests/support/server";

const MAIN = join(import.meta.dir, "../../src/main.ts");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `design-intel <args>` from source (or `cmd`, e.g. the compiled binary) with DATA_DIR set. */
export async function runCli(
  args: string[],
  opts: { dataDir?: string; stdin?: string; cmd?: string[]; env?: Record<string, string>; cwd?: string } = {},
): Promise<CliResult> {
  const proc = Bun.spawn([...(opts.cmd ?? [process.execPath, MAIN]), ...args], {
    cwd: opts.cwd,
    env: {
      ...process.env,
      NODE_ENV: "production",
      CAPTURE_TIMING_SAMPLES: TEST_TIMING_SAMPLES,
      ...(opts.dataDir ? { DATA_DIR: opts.dataDir } : {}),
      ...opts.env,
    },
    stdin: opts.stdin === undefined ? "ignore" : new TextEncoder().encode(opts.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/**
 * The compiled executable (`bun scripts/build-binary.ts`, as `bun run build` does after the client
 * build), copied alone into a temp folder so it runs with no node_modules beside it. Building takes
 * a minute or more on a busy machine; DESIGN_INTEL_BIN points at one already built (scripts/test.sh
 * builds it once for every file that needs it) to skip it.
 */
export function compiledBinary(): { cmd: string[]; dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "di-cli-bin-"));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  let built = process.env.DESIGN_INTEL_BIN;
  if (!built) {
    const root = join(import.meta.dir, "../..");
    const build = Bun.spawnSync(["bun", join(root, "scripts/build-binary.ts")], { cwd: root, stdout: "pipe", stderr: "pipe" });
    if (build.exitCode !== 0) throw new Error(`binary build failed: ${build.stderr.toString()}`);
    built = join(root, "dist/design-intel");
  }
  copyFileSync(built, join(dir, "design-intel"));
  chmodSync(join(dir, "design-intel"), 0o755);
  return { cmd: [join(dir, "design-intel")], dir, cleanup };
}

/** Builds the binary: the time a beforeAll may take (compile, on a machine shared with others). */
export const BUILD_MS = 300_000;
