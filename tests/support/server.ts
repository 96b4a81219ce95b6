import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

export function freePort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

/**
 * How long a server may take to answer its first /api/health. Quiet, it boots in about a second;
 * on a busy machine Bun transpiling the app from source took past 20 s. The wait ends as soon as
 * it answers (or exits); callers size their hooks' and tests' timeouts from this.
 */
export const SERVER_START_MS = 60_000;

/**
 * Loads a capture times a page with, in test servers and run tools whose subject is not timing. The
 * product takes up to 3 when a page is slow enough for a timing finding to be possible, and on a
 * busy machine the fixture pages always are: those extra loads were about half of every capture's
 * time (capture/timing/timing-samples.ts). Tests of timing keep the product's default (the variable unset).
 */
export const TEST_TIMING_SAMPLES = "1";

/**
 * Test servers launch their capture browsers on the first capture (CAPTURE_LAZY): most never
 * capture, and a warm pool's two launches were about 2 CPU-seconds of every server start.
 * A test about the warm pool passes `CAPTURE_LAZY: ""` (the product default, warm).
 */
export const TEST_CAPTURE_LAZY = "1";

export interface RunningServer {
  url: string;
  dataDir: string;
  proc: Subprocess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/** Starts the real server (source or compiled binary) on a free loopback port with a fresh DATA_DIR. */
export async function startServer(
  opts: {
    cmd?: string[];
    cwd?: string;
    env?: Record<string, string>;
    dataDir?: string;
    /**
     * Writes the server's output to this file instead of piping it here. For benches that load the
     * server: at 36 000 requests a second its request log is about 8 MB/s, and reading that into a
     * string in this process took CPU from the server it measures (as a log shipper on another
     * machine would not).
     */
    logFile?: string;
    /** The path that answers 200 once the server is up; workers and schedulers serve only /api/health/live and /ready. */
    healthPath?: string;
  } = {},
): Promise<RunningServer> {
  const port = freePort();
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "di-e2e-"));
  const cmd = opts.cmd ?? ["bun", join(import.meta.dir, "../../src/main.ts")];
  let out = "";
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    NODE_ENV: "production",
    CAPTURE_TIMING_SAMPLES: TEST_TIMING_SAMPLES,
    CAPTURE_LAZY: TEST_CAPTURE_LAZY,
    ...opts.env,
  };
  // An empty value means "leave it unset", so the server's own default applies.
  for (const [k, v] of Object.entries(env)) if (v === "") delete env[k];
  const logFd = opts.logFile ? openSync(opts.logFile, "a") : null;
  const proc = Bun.spawn(cmd, {
    cwd: opts.cwd,
    env,
    stdout: logFd ?? "pipe",
    stderr: logFd ?? "pipe",
  });
  if (logFd !== null) closeSync(logFd); // the child holds its own copy
  const pump = async (s: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of s) out += decoder.decode(chunk, { stream: true });
  };
  if (logFd === null) {
    void pump(proc.stdout as ReadableStream<Uint8Array>);
    void pump(proc.stderr as ReadableStream<Uint8Array>);
  }
  const output = () => (opts.logFile ? readFileSync(opts.logFile, "utf8") : out);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + SERVER_START_MS;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}):\n${output()}`);
    try {
      const r = await fetch(`${url}${opts.healthPath ?? "/api/health"}`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      proc.kill();
      throw new Error(`server did not start:\n${output()}`);
    }
    await Bun.sleep(100);
  }
  return {
    url,
    dataDir,
    proc,
    output,
    async stop(signal = "SIGTERM") {
      proc.kill(signal);
      const code = await proc.exited;
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
