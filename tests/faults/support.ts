// Shared pieces of the fault tests: a tiny JSON client for the real server, polling, and process
// bookkeeping scoped to ONE server's process tree (other people's Chromium on this host is never touched).
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

export const CAPTURE_MARKER = "--design-intel-capture=";

/** Appends zeros to `path` until its filesystem refuses (ENOSPC). */
export function fillDisk(path: string) {
  const fd = openSync(path, "a");
  const chunk = new Uint8Array(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (e) {
    if ((e as { code?: string }).code !== "ENOSPC") throw e;
  } finally {
    closeSync(fd);
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

export async function call(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(base + path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, json, text };
}

export async function signup(base: string, email = `fault-${crypto.randomUUID()}@example.com`) {
  const r = await call(base, "POST", "/api/auth/signup", { body: { email, password: "correct-horse-battery" } });
  if (r.status !== 201) throw new Error(`signup failed: ${r.status} ${r.text}`);
  return { token: r.json.accessToken as string, cookie: (r.headers.get("set-cookie") ?? "").split(";")[0]!, email };
}

export async function login(base: string, email: string) {
  const r = await call(base, "POST", "/api/auth/login", { body: { email, password: "correct-horse-battery" } });
  if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.text}`);
  return { token: r.json.accessToken as string, cookie: (r.headers.get("set-cookie") ?? "").split(";")[0]! };
}

/** Creates a comparison with the given sites and returns its id. */
export async function comparisonWith(base: string, token: string, name: string, sites: [url: string, label: string][]) {
  const c = await call(base, "POST", "/api/comparisons", { body: { name }, token });
  if (c.status !== 201) throw new Error(`create failed: ${c.status} ${c.text}`);
  for (const [url, label] of sites) {
    const t = await call(base, "POST", `/api/comparisons/${c.json.id}/targets`, { body: { url, label }, token });
    if (t.status !== 201) throw new Error(`add target failed: ${t.status} ${t.text}`);
  }
  return c.json.id as string;
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
  everyMs = 150,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(everyMs);
  }
}

/** Waits until the comparison leaves 'running' and returns it. */
export function settled(base: string, token: string, id: string, timeoutMs = 90_000) {
  return waitFor(
    `comparison ${id} to settle`,
    async () => {
      const r = await call(base, "GET", `/api/comparisons/${id}`, { token });
      return r.status === 200 && r.json.status !== "running" ? r.json : null;
    },
    timeoutMs,
    250,
  );
}

// ---- processes ------------------------------------------------------------------------------------

function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return [];
  }
}

function parentOf(pid: number): number | null {
  try {
    // Field 4 of /proc/PID/stat, after the parenthesised command (which may itself hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}

/** Every live process below `root` in the process tree. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const ppid = parentOf(pid);
    if (ppid === null) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    for (const c of children.get(stack.pop()!) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

/** The capture Chromium processes (browser and its helpers) started by this server process. */
export function captureChromium(serverPid: number): number[] {
  return descendants(serverPid).filter((pid) => cmdline(pid).some((a) => a.startsWith(CAPTURE_MARKER)));
}

/** Main browser processes only (the ones without --type=). */
export function captureBrowsers(serverPid: number): number[] {
  return captureChromium(serverPid).filter((pid) => !cmdline(pid).some((a) => a.startsWith("--type=")));
}

/** Still alive and still one of ours (pids get recycled). */
export function aliveCapture(pids: number[]): number[] {
  return pids.filter((pid) => cmdline(pid).some((a) => a.startsWith(CAPTURE_MARKER)));
}

export function killAll(pids: number[], signal: NodeJS.Signals = "SIGKILL") {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

// ---- a site the test holds back ---------------------------------------------------------------

export interface GateSite {
  url: string;
  /** Requests that reached the page. */
  hits(): number;
  /** From now on the page answers at once (held requests too). */
  open(): void;
  close(): Promise<void>;
}

/**
 * One small page that does not answer until the test opens the gate. Unlike a fixed delay, the run
 * is surely mid-capture while the gate is shut, and the re-run after it opens is quick. Open from
 * the start, it is simply a light site to compare (cheaper to capture than the fixture sites).
 */
export function startGateSite(opts: { open?: boolean; title?: string; background?: string } = {}): GateSite {
  let hits = 0;
  let release!: () => void;
  const opened = new Promise<void>((r) => (release = r));
  if (opts.open) release();
  const title = Bun.escapeHTML(opts.title ?? "Gatehouse");
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body style="font-family:sans-serif;background:${opts.background ?? "#fef3c7"};color:#1f2937;padding:3rem"><h1>${title}</h1>
<p>A small page the fault tests can hold back or let through.</p><a href="#more" style="background:#b45309;color:#fff;padding:.6rem 1rem">Enter</a></body></html>`;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      if (new URL(req.url).pathname !== "/") return new Response("not here", { status: 404 });
      hits++;
      await opened;
      return new Response(page, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/`,
    hits: () => hits,
    open: () => release(),
    close: async () => {
      release();
      await server.stop(true);
    },
  };
}

// ---- disks the tests can break ------------------------------------------------------------------

const run = (...cmd: string[]) => Bun.spawnSync(cmd, { stderr: "pipe", stdout: "pipe" });

export interface TestDisk {
  /** Where the filesystem is mounted; null when this machine can't make one (no root, no loop device). */
  mountPoint: string | null;
  /** Unmounts and removes everything. */
  dispose(): void;
}

/** A small tmpfs (needs root to mount): fill it with fillDisk to get a real ENOSPC. */
export function tmpfsDisk(prefix: string, size: string): TestDisk {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const mounted = run("mount", "-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir).exitCode === 0;
  return {
    mountPoint: mounted ? dir : null,
    dispose() {
      if (mounted) run("umount", "-l", dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * An ext4 image on a loop device mounted errors=remount-ro. `breakIt()` fires ext4's own error
 * trigger, and the kernel remounts it read-only under whatever has files open (what a failing
 * disk does). Needs root, a loop device and a kernel with trigger_fs_error.
 */
export function ext4Disk(prefix: string, size = "64M"): TestDisk & { breakIt(): Promise<void> } {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const image = join(work, "disk.img");
  const dir = join(work, "mnt");
  let loop: string | null = null;
  const attach = () => {
    const r = run("losetup", "-f", "--show", image);
    if (r.exitCode !== 0) return false;
    loop = r.stdout.toString().trim();
    return run("mount", "-o", "errors=remount-ro", loop, dir).exitCode === 0;
  };
  const ok = (...cmd: string[]) => run(...cmd).exitCode === 0;
  const trigger = () => `/sys/fs/ext4/${basename(loop!)}/trigger_fs_error`;
  const ready =
    ok("mkdir", "-p", dir) && ok("truncate", "-s", size, image) && ok("mkfs.ext4", "-q", "-F", image) && attach() && existsSync(trigger());
  return {
    mountPoint: ready ? dir : null,
    async breakIt() {
      await Bun.write(trigger(), "design-intel test: disk failing\n");
      const mounts = await Bun.file("/proc/mounts").text();
      if (!mounts.split("\n").some((l) => l.includes(dir) && l.includes("emergency_ro"))) throw new Error("the disk did not go read-only");
    },
    dispose() {
      run("umount", dir);
      if (loop) run("losetup", "-d", loop);
      rmSync(work, { recursive: true, force: true });
    },
  };
}
