// A whole deployment on loopback (issue 30): a throwaway PostgreSQL cluster, an S3-compatible
// endpoint, Playwright browser servers, and the roles of the one binary (`serve`, `worker`,
// `scheduler`), each its own process with its own PORT and DATA_DIR. scripts/cluster.sh runs it for
// people; the cluster tests drive it, kill parts of it and read its bucket.
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { BrowserServer } from "playwright-core";
import { postgres, type PgCluster } from "./postgres";
import { startBrowserServer } from "./browser-server";
import { startS3Server, type S3TestServer } from "./s3-server";
import { startServer, TEST_CAPTURE_LAZY, TEST_TIMING_SAMPLES, type RunningServer } from "./server";

export type Role = "serve" | "worker" | "scheduler";
export const ROLES: readonly Role[] = ["serve", "worker", "scheduler"];

export interface ClusterOptions {
  /** Where each instance's DATA_DIR and log go. */
  dir: string;
  /** How many of each role (default 2 each) and browser servers (default 2). */
  count?: Partial<Record<Role, number>>;
  browsers?: number;
  /** How a role starts, the role name appended: default this checkout's source (`bun src/main.ts`). */
  command?: string[];
  /** More environment for every instance (ALLOW_PRIVATE_TARGETS for loopback fixture sites, …). */
  env?: Record<string, string>;
}

export interface Instance {
  role: Role;
  /** serve-1, worker-2, … */
  name: string;
  url: string;
  dataDir: string;
  logFile: string;
  server: RunningServer;
}

export interface Cluster {
  pg: PgCluster;
  databaseUrl: string;
  s3: S3TestServer;
  browsers: BrowserServer[];
  endpoints: string[];
  instances: Instance[];
  of(role: Role): Instance[];
  /** The environment every instance shares (database, bucket, secret, browsers). */
  env: Record<string, string>;
  /** Starts one more instance of a role (a replacement, a second scheduler…). */
  add(role: Role): Promise<Instance>;
  /** Files under every instance's DATA_DIR (the deployment keeps none: they belong in the bucket). */
  filesUnderDataDirs(): string[];
  /** What scripts/cluster.sh prints and writes to cluster.json. */
  describe(): Record<string, unknown>;
  stop(): Promise<void>;
}

/** Every file below `dir`, relative to it. */
function filesBelow(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (st?.isDirectory()) out.push(...filesBelow(path, `${prefix}${name}/`));
    else if (st) out.push(`${prefix}${name}`);
  }
  return out;
}

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  mkdirSync(opts.dir, { recursive: true });
  const started: { stop(): Promise<unknown> }[] = [];
  const stopAll = async () => {
    for (const s of started.reverse()) await s.stop().catch(() => {});
  };
  try {
    const pg = await postgres();
    const databaseUrl = await pg.freshDatabase();
    const s3 = await startS3Server("design-intel");
    started.push({ stop: () => s3.close() });
    const browsers: BrowserServer[] = [];
    for (let i = 0; i < (opts.browsers ?? 2); i++) {
      const b = await startBrowserServer();
      browsers.push(b);
      started.push({ stop: () => b.close() });
    }
    const endpoints = browsers.map((b) => b.wsEndpoint());
    const env: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: randomBytes(32).toString("hex"),
      // Site secrets saved through one instance are opened by whichever drives the run.
      SECRETS_KEY: randomBytes(32).toString("base64"),
      ...s3.env("cluster"),
      BROWSER_WS_ENDPOINTS: endpoints.join(","),
      CAPTURE_TIMING_SAMPLES: TEST_TIMING_SAMPLES,
      CAPTURE_LAZY: TEST_CAPTURE_LAZY,
      ...opts.env,
    };
    const instances: Instance[] = [];
    const counters: Record<Role, number> = { serve: 0, worker: 0, scheduler: 0 };
    const add = async (role: Role): Promise<Instance> => {
      const name = `${role}-${++counters[role]}`;
      const dataDir = join(opts.dir, name);
      const logFile = join(opts.dir, `${name}.log`);
      mkdirSync(dataDir, { recursive: true });
      const server = await startServer({
        cmd: [...(opts.command ?? ["bun", join(import.meta.dir, "../../src/main.ts")]), role],
        env,
        dataDir,
        logFile,
        healthPath: role === "serve" ? "/api/health" : "/api/health/live",
      });
      const instance = { role, name, url: server.url, dataDir, logFile, server };
      instances.push(instance);
      started.push({ stop: () => (server.proc.exitCode === null ? server.stop() : Promise.resolve()) });
      return instance;
    };
    // Serves first: the first one migrates the database; workers and schedulers find it ready.
    for (const role of ROLES) for (let i = 0; i < (opts.count?.[role] ?? 2); i++) await add(role);
    return {
      pg,
      databaseUrl,
      s3,
      browsers,
      endpoints,
      instances,
      env,
      add,
      of: (role) => instances.filter((i) => i.role === role),
      filesUnderDataDirs: () => instances.flatMap((i) => filesBelow(i.dataDir).map((f) => `${i.name}/${f}`)),
      describe: () => ({
        database: databaseUrl.replace(/\/\/([^:@/]+)(:[^@]*)?@/, "//$1@"),
        storage: `${env.STORAGE_URL} at ${s3.endpoint}`,
        browsers: endpoints,
        instances: instances.map((i) => ({ name: i.name, url: i.url, pid: i.server.proc.pid, log: i.logFile })),
      }),
      async stop() {
        await stopAll();
        pg.stop();
      },
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

/** A call to an instance's API as a browser on its origin would make it: status and parsed JSON (null when empty). */
export async function api(base: string, method: string, path: string, token?: string, body?: unknown) {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body ? { "content-type": "application/json" } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      origin: base,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : null };
}
