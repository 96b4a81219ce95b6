// Shared bench helpers: start a process on a free port, wait for it, and drive it with wrk.
import { loadavg } from "node:os";
import { freePort } from "#tests/support/server";

export async function startProc(cmd: string[], env: Record<string, string>, readyPath: string) {
  const port = freePort();
  const proc = Bun.spawn(cmd, {
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url + readyPath)).status < 500) return { url, proc };
    } catch {
      /* starting */
    }
    await Bun.sleep(50);
  }
  proc.kill();
  throw new Error(`${cmd.join(" ")} did not start`);
}

export interface WrkResult {
  rps: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  /** Requests completed in the run. */
  requests: number;
}

/** Runs wrk (Debian package `wrk`) with latency stats and parses requests/sec and percentiles. */
export function wrk(url: string, opts: { seconds?: number; connections?: number; threads?: number; header?: string } = {}): WrkResult {
  const args = ["wrk", "--latency", `-t${opts.threads ?? 2}`, `-c${opts.connections ?? 32}`, `-d${opts.seconds ?? 5}s`];
  if (opts.header) args.push("-H", opts.header);
  args.push(url);
  const out = Bun.spawnSync(args).stdout.toString();
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? NaN);
  const ms = (re: RegExp) => {
    const m = re.exec(out);
    if (!m) return NaN;
    const v = Number(m[1]);
    return m[2] === "us" ? v / 1000 : m[2] === "s" ? v * 1000 : v;
  };
  return {
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    p50ms: ms(/50%\s+([\d.]+)(us|ms|s)/),
    p99ms: ms(/99%\s+([\d.]+)(us|ms|s)/),
    non2xx: num(/Non-2xx or 3xx responses:\s+(\d+)/) || 0,
    requests: num(/(\d+) requests in /),
  };
}

export const fmt = (r: WrkResult) =>
  `${r.rps.toFixed(0)} req/s (p50 ${r.p50ms.toFixed(2)} ms, p99 ${r.p99ms.toFixed(2)} ms${r.non2xx ? `, ${r.non2xx} non-2xx` : ""})`;

/**
 * Prints whether a figure meets its target and makes the bench exit 1 when it does not, so a
 * regression is a failed command rather than a number nobody reads.
 */
export function verdict(what: string, value: number, target: { atLeast?: number; atMost?: number }): boolean {
  const met = (target.atLeast === undefined || value >= target.atLeast) && (target.atMost === undefined || value <= target.atMost);
  const rule = target.atLeast !== undefined ? `>= ${target.atLeast}` : `<= ${target.atMost}`;
  console.log(`${met ? "target met" : "TARGET MISSED"}: ${what} = ${Number(value.toFixed(2))} (target ${rule})`);
  if (!met) process.exitCode = 1;
  return met;
}

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The machine's load averages (1, 5, 15 minutes), for a bench's report. */
export const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
