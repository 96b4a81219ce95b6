// Role processes (`design-intel serve|worker|scheduler`) from source on a free loopback port, for
// the tests of a deployment on PostgreSQL. A worker and a scheduler answer only /api/health/*, so
// the wait is on /api/health/live.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { freePort, SERVER_START_MS, TEST_CAPTURE_LAZY, TEST_TIMING_SAMPLES } from "#tests/support/server";

const MAIN = join(import.meta.dir, "../../src/main.ts");
/** Every instance of one deployment shares it (required on PostgreSQL). */
export const SHARED_SECRET = "roles-test-secret-0123456789-abcdefghijklmnop";

export interface RoleProcess {
  url: string;
  proc: Subprocess;
  output(): string;
  /** GET a path: status and JSON body. */
  get(path: string): Promise<{ status: number; json: any }>;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/** `role` null: `design-intel` with no command (every role in one process). */
export async function startRole(
  role: "serve" | "worker" | "scheduler" | null,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<RoleProcess> {
  const port = freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `di-${role ?? "all"}-`));
  let out = "";
  const proc = Bun.spawn([process.execPath, MAIN, ...(role ? [role] : [])], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      JWT_SECRET: SHARED_SECRET,
      SECRETS_KEY: "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
      CAPTURE_TIMING_SAMPLES: TEST_TIMING_SAMPLES,
      CAPTURE_LAZY: TEST_CAPTURE_LAZY,
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const pump = async (s: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of s) out += decoder.decode(chunk, { stream: true });
  };
  void pump(proc.stdout as ReadableStream<Uint8Array>);
  void pump(proc.stderr as ReadableStream<Uint8Array>);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + SERVER_START_MS;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${role} exited early (${proc.exitCode}):\n${out}`);
    try {
      if ((await fetch(`${url}/api/health/live`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`${role} did not start:\n${out}`);
    }
    await Bun.sleep(100);
  }
  return {
    url,
    proc,
    output: () => out,
    async get(path) {
      const r = await fetch(url + path);
      return { status: r.status, json: await r.json().catch(() => null) };
    },
    async stop(signal = "SIGTERM") {
      if (proc.exitCode === null) proc.kill(signal);
      const code = await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
