// Process accounting for the load benches, read straight from /proc (Linux): a process's resident
// memory and open descriptors, and the Chromium processes anywhere beneath it.
import { readFileSync, readdirSync, statSync } from "node:fs";

/** Resident set size in MB (VmRSS), or NaN once the process is gone. */
export function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * A process's CPU clock ticks so far: its own (user + system) and its reaped children's; null once
 * it is gone. Fields after "(comm) ": utime, stime, cutime, cstime are the 12th to 15th.
 */
function cpuTicks(pid: number): { own: number; children: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { own: Number(rest[11]) + Number(rest[12]), children: Number(rest[13]) + Number(rest[14]) };
  } catch {
    return null;
  }
}

/** CPU time (user + system) a process has used so far, in µs; NaN once it is gone. */
export function cpuMicros(pid: number): number {
  const ticks = cpuTicks(pid);
  return ticks ? (ticks.own * 1e6) / CLOCK_TICKS_PER_SECOND : NaN;
}
/** USER_HZ: 100 on every Linux build the app targets. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Open file descriptors (sockets, pipes, files, the database and its WAL). */
export function fdCount(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return NaN;
  }
}

interface ProcInfo {
  pid: number;
  ppid: number;
  comm: string;
  /** R, S, D, Z (exited, not yet reaped by its parent)... */
  state: string;
}

function allProcesses(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split at the last ')'.
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const [state, ppid] = stat.slice(close + 2).split(" ");
      out.push({ pid: Number(name), ppid: Number(ppid), comm, state: state ?? "?" });
    } catch {
      // exited while we looked
    }
  }
  return out;
}

/** Every process below `root` (children, grandchildren...). */
export function descendants(root: number): ProcInfo[] {
  const all = allProcesses();
  const byParent = new Map<number, ProcInfo[]>();
  for (const p of all) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const found: ProcInfo[] = [];
  const stack = [root];
  while (stack.length) {
    for (const child of byParent.get(stack.pop()!) ?? []) {
      found.push(child);
      stack.push(child.pid);
    }
  }
  return found;
}

/**
 * Live Chromium processes (browser, zygotes, GPU, utility, renderers) beneath `root`, and exited
 * ones a zygote has not reaped yet (a closed page's renderer, for a moment).
 */
export function chromiumProcesses(root: number): { live: number; zombies: number } {
  const all = descendants(root).filter((p) => /chrom/i.test(p.comm));
  const zombies = all.filter((p) => p.state === "Z").length;
  return { live: all.length - zombies, zombies };
}

/**
 * Capture browsers proper beneath `root`: the pool tags each with --design-intel-capture=. Their
 * helpers carry --type=...; a zygote's fresh fork briefly has neither, so it is not counted.
 */
export function chromiumBrowsers(root: number): number {
  return descendants(root).filter((p) => {
    if (!/chrom/i.test(p.comm)) return false;
    try {
      const cmdline = readFileSync(`/proc/${p.pid}/cmdline`, "utf8");
      return cmdline.includes("--design-intel-capture=") && !cmdline.includes("--type=");
    } catch {
      return false;
    }
  }).length;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};

/** Bytes under a directory (files only), in MB. */
export function dirMb(dir: string): number {
  let bytes = 0;
  const walk = (d: string) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else {
        try {
          bytes += statSync(p).size;
        } catch {
          // removed meanwhile
        }
      }
    }
  };
  walk(dir);
  return bytes / 1024 / 1024;
}

/**
 * Live Chromium processes beneath `root` by kind: "browser", "renderer" (one per open page, so none
 * once idle), "gpu-process", "zygote", "utility:<service>" ...
 */
export function chromiumKinds(root: number): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const p of descendants(root)) {
    if (!/chrom/i.test(p.comm) || p.state === "Z") continue;
    const kind = chromiumKind(p.pid);
    if (kind) kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

/** A Chromium process's kind from its command line ("browser", "renderer", "utility:<service>"...); null once it is gone. */
function chromiumKind(pid: number): string | null {
  let cmdline = "";
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return null;
  }
  const type = /--type=(\S+)/.exec(cmdline)?.[1];
  const service = /--utility-sub-type=(\S+)/.exec(cmdline)?.[1];
  return type ? (service ? `utility:${service.replace(/\.mojom\./, ".")}` : type) : "browser";
}

/** A process's CPU time with its reaped children's, in s; 0 once it is gone. */
function cpuWithChildren(pid: number): number {
  const ticks = cpuTicks(pid);
  return ticks ? (ticks.own + ticks.children) / CLOCK_TICKS_PER_SECOND : 0;
}

/**
 * What a process is, for a CPU split: its name ("bun"), or a Chromium process's kind. Renderers are
 * forked by the zygote and reaped by it, so their time ends up in the zygote's.
 */
const kindOf = (p: Pick<ProcInfo, "pid" | "comm">): string => (/chrom/i.test(p.comm) && chromiumKind(p.pid)) || p.comm;

/**
 * CPU seconds so far of `root` and every process beneath it, by pid with its kind. A process that
 * exited and was reaped counts in its parent's children's time, so the difference of two readings
 * is what the tree spent between them (a process that exited unreaped in between is lost).
 */
export function treeCpu(root: number): Map<number, { kind: string; s: number }> {
  const out = new Map<number, { kind: string; s: number }>();
  const comm = /\((.*)\)/.exec(readFileSync(`/proc/${root}/stat`, "utf8"))?.[1] ?? "root";
  out.set(root, { kind: kindOf({ pid: root, comm }), s: cpuWithChildren(root) });
  for (const p of descendants(root)) out.set(p.pid, { kind: kindOf(p), s: cpuWithChildren(p.pid) });
  return out;
}

/** CPU seconds each kind of process spent between two readings of treeCpu, and their total. */
export function cpuSpent(before: ReturnType<typeof treeCpu>, after: ReturnType<typeof treeCpu>) {
  const byKind: Record<string, number> = {};
  let total = 0;
  for (const [pid, { kind, s }] of after) {
    const spent = s - (before.get(pid)?.s ?? 0);
    byKind[kind] = (byKind[kind] ?? 0) + spent;
    total += spent;
  }
  return { total, byKind };
}
