import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../src/main.ts");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `design-intel <args>` from source (or `cmd`, e.g. the compiled binary) with DATA_DIR set. */
export async function runCli(args: string[], opts: { dataDir?: string; stdin?: string; cmd?: string[]; env?: Record<string, string> } = {}): Promise<CliResult> {
  const proc = Bun.spawn([...(opts.cmd ?? [process.execPath, MAIN]), ...args], {
    env: { ...process.env, NODE_ENV: "production", ...(opts.dataDir ? { DATA_DIR: opts.dataDir } : {}), ...opts.env },
    stdin: opts.stdin === undefined ? "ignore" : new TextEncoder().encode(opts.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}
