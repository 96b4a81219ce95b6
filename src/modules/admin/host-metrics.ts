// Host figures straight from the kernel: /proc/stat (CPU), /proc/meminfo (memory), statfs of the
// data directory (disk) and /proc/net/dev (network). Where /proc is missing (macOS), node:os stands in
// for CPU and memory, and network reads as unavailable.
import { existsSync, readFileSync, statfsSync } from "node:fs";
import { cpus, freemem, totalmem } from "node:os";
import { dirname, resolve } from "node:path";

export interface CpuTimes {
  idle: number;
  total: number;
}

export interface NetBytes {
  rx: number;
  tx: number;
}

export interface HostSample {
  cpu: number;
  memory: number;
  disk: number;
  /** Bytes per second over the last interval; null when the kernel does not expose counters. */
  network: { in: number; out: number } | null;
}

function readProc(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** The aggregate "cpu" line: user nice system idle iowait irq softirq steal (guest time is already inside user). */
export function parseProcStat(text: string): CpuTimes | null {
  const line = text.split("\n").find((l) => l.startsWith("cpu "));
  if (!line) return null;
  const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (f.length < 4 || f.some((n) => !Number.isFinite(n))) return null;
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  return { idle, total: f.reduce((a, b) => a + b, 0) };
}

/** Used memory as the kernel sees it: everything but MemAvailable (which counts reclaimable cache as free). */
export function parseMeminfo(text: string): number | null {
  const kb = (key: string) => {
    const m = new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(text);
    return m ? Number(m[1]) : null;
  };
  const total = kb("MemTotal");
  const available = kb("MemAvailable") ?? kb("MemFree");
  if (!total || available === null) return null;
  return clampPct(((total - available) / total) * 100);
}

/** Sum of received and transmitted bytes over every interface but loopback. */
export function parseNetDev(text: string): NetBytes | null {
  let rx = 0;
  let tx = 0;
  let seen = false;
  for (const line of text.split("\n").slice(2)) {
    const [name, rest] = line.split(":");
    if (!rest || name?.trim() === "lo") continue;
    const f = rest.trim().split(/\s+/).map(Number);
    if (f.length < 9) continue;
    rx += f[0] ?? 0;
    tx += f[8] ?? 0;
    seen = true;
  }
  return seen ? { rx, tx } : null;
}

export function readCpuTimes(): CpuTimes {
  const fromProc = parseProcStat(readProc("/proc/stat") ?? "");
  if (fromProc) return fromProc;
  let idle = 0;
  let total = 0;
  for (const c of cpus()) {
    idle += c.times.idle;
    total += c.times.user + c.times.nice + c.times.sys + c.times.irq + c.times.idle;
  }
  return { idle, total };
}

export function readMemoryPercent(): number {
  return parseMeminfo(readProc("/proc/meminfo") ?? "") ?? clampPct(((totalmem() - freemem()) / totalmem()) * 100);
}

/** Used share of the filesystem as df computes it: used / (used + available to unprivileged users). */
export function readDiskPercent(path: string): number {
  const s = statfsSync(existingAncestor(path));
  const used = s.blocks - s.bfree;
  const denominator = used + s.bavail;
  return denominator > 0 ? clampPct((used / denominator) * 100) : 0;
}

/** DATA_DIR may not exist yet on a fresh install; its nearest existing parent sits on the same filesystem. */
function existingAncestor(path: string): string {
  let p = resolve(path);
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  return p;
}

export function readNetBytes(): NetBytes | null {
  return parseNetDev(readProc("/proc/net/dev") ?? "");
}

export function clampPct(n: number): number {
  return Math.min(100, Math.max(0, Math.round(n * 10) / 10));
}

interface Counters {
  at: number;
  cpu: CpuTimes;
  net: NetBytes | null;
}

/** CPU and network are rates, so each reading is the difference from the previous one. */
export class HostSampler {
  private prev: Counters | null = null;
  private last: HostSample | null = null;

  constructor(
    private readonly diskPath: string,
    private readonly minIntervalMs = 250,
    private readonly read = { cpu: readCpuTimes, net: readNetBytes, memory: readMemoryPercent, disk: readDiskPercent },
  ) {}

  private counters(): Counters {
    return { at: performance.now(), cpu: this.read.cpu(), net: this.read.net() };
  }

  async sample(): Promise<HostSample> {
    if (!this.prev) {
      this.prev = this.counters();
      await Bun.sleep(this.minIntervalMs);
    } else if (this.last && performance.now() - this.prev.at < this.minIntervalMs) {
      // Too soon for a meaningful rate (e.g. two admins refreshing at once): the last reading stands.
      return this.last;
    }
    const cur = this.counters();
    const prev = this.prev;
    const seconds = Math.max(0.001, (cur.at - prev.at) / 1000);
    const dTotal = cur.cpu.total - prev.cpu.total;
    const cpu = dTotal > 0 ? clampPct((1 - (cur.cpu.idle - prev.cpu.idle) / dTotal) * 100) : (this.last?.cpu ?? 0);
    const network =
      cur.net && prev.net
        ? {
            in: Math.max(0, Math.round((cur.net.rx - prev.net.rx) / seconds)),
            out: Math.max(0, Math.round((cur.net.tx - prev.net.tx) / seconds)),
          }
        : null;
    this.prev = cur;
    this.last = { cpu, memory: this.read.memory(), disk: this.read.disk(this.diskPath), network };
    return this.last;
  }
}
