// Readiness: can this process do its job right now? Each check is cheap and independent, and a
// failing one says why in words an operator can act on.
import { existsSync, statfsSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { SqlDb } from "#server/db/sql";
import type { Migration } from "#server/db/migrations";
import { nowIso } from "#server/lib/ids";
import type { CaptureReadiness } from "#server/modules/capture/public";
import type { LeaseState } from "#server/modules/leases/public";
import type { BlobStore } from "#server/modules/storage";
import { READY_CHECKS, type HealthCheck, type ProcessRole, type ReadyChecks } from "./model";
import { healthRepository } from "./repository";

/**
 * Below this much free space in DATA_DIR the server is not ready: one comparison writes a few MB
 * of screenshots, and a backup copies the whole database, so a nearly full disk fails real work
 * long before it reaches zero.
 */
export const MIN_FREE_BYTES = 64 * 1024 * 1024;
/** Probes are throttled: an orchestrator polling every second must not turn into a write load. */
const DB_PROBE_EVERY_MS = 1000;
/** An object store that has not taken the probe in this long is not ready. */
const STORE_PROBE_TIMEOUT_MS = 3000;

export interface HealthDeps {
  db: SqlDb;
  dataDir: string;
  /** The migrations this build carries. */
  migrations: readonly Migration[];
  /** The capture pool's state; absent when this process has no capture pool. */
  captureReadiness?: () => CaptureReadiness;
  minFreeBytes?: number;
  now?: () => number;
  /** Free bytes for unprivileged users on the filesystem holding `path` (tests stand in a full disk). */
  freeBytes?: (path: string) => number;
  /** Creates and removes a file in `dir`, throwing when it cannot (tests stand in a directory with the wrong owner). */
  createProbeFile?: (dir: string) => void;
  /** Where files are kept (STORAGE_URL): an object store is probed instead of DATA_DIR; the files store when absent. */
  store?: BlobStore;
  /** What this process runs, which decides what it checks; `all` when absent. */
  role?: ProcessRole;
  /** The scheduler lease as this process sees it (a scheduler on PostgreSQL); null: it schedules alone. */
  schedulerLease?: () => LeaseState | null;
}

export interface LeaseView {
  held: boolean;
  holder: string | null;
  until: string | null;
}

type Answer = { role: ProcessRole; checks: ReadyChecks; lease?: LeaseView };
export type ReadyReport = ({ ok: true } & Answer) | ({ ok: false; error: string } & Answer);

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
const ok = (detail: string): HealthCheck => ({ ok: true, detail });
const failed = (detail: string): HealthCheck => ({ ok: false, detail });
const reason = (e: unknown) => {
  const code = e && typeof e === "object" && "code" in e ? String((e as { code: unknown }).code) : null;
  const message = e instanceof Error ? e.message : String(e);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
};

/**
 * Space alone does not make a data directory usable: restored with the wrong owner or mode, or on a
 * disk gone read-only, it has room yet takes no new file, and every capture would fail to store.
 */
function createAndRemove(dir: string): void {
  const path = join(dir, `.ready-probe-${process.pid}`);
  writeFileSync(path, "ready", { mode: 0o600 });
  unlinkSync(path);
}

/** Free space where DATA_DIR's files go; a directory not made yet lands on its nearest existing parent. */
function statfsFree(path: string): number {
  let p = resolve(path);
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  const s = statfsSync(p);
  return Number(s.bavail) * Number(s.bsize);
}

export function healthService(deps: HealthDeps) {
  const repo = healthRepository(deps.db);
  const now = deps.now ?? Date.now;
  const minFree = deps.minFreeBytes ?? MIN_FREE_BYTES;
  const freeBytes = deps.freeBytes ?? statfsFree;
  const createProbeFile = deps.createProbeFile ?? createAndRemove;
  let lastProbe: { at: number; check: HealthCheck } | null = null;
  let dbProbe: Promise<HealthCheck> | null = null;
  let lastFileProbe: { at: number; error: string | null } | null = null;
  const objectStore = deps.store && deps.store.kind !== "files" ? deps.store : null;
  let lastStoreProbe: { at: number; check: HealthCheck } | null = null;
  let storeProbe: Promise<HealthCheck> | null = null;
  let probeInFlight: Promise<HealthCheck> | null = null;

  async function database(): Promise<HealthCheck> {
    const t = now();
    if (lastProbe && t - lastProbe.at < DB_PROBE_EVERY_MS) return lastProbe.check;
    // Probes arriving while one is written share its answer rather than writing again.
    dbProbe ??= (async () => {
      let check: HealthCheck;
      try {
        await repo.writeProbe(nowIso(t));
        // Which database, as the console shows it: "sqlite" or "postgres 15.x".
        check = ok(`${deps.db.detail}, writable`);
      } catch (e) {
        check = failed(`not writable (${reason(e)})`);
      }
      lastProbe = { at: t, check };
      dbProbe = null;
      return check;
    })();
    return dbProbe;
  }

  async function migrations(): Promise<HealthCheck> {
    try {
      const applied = new Set(await repo.appliedMigrations());
      const known = new Set(deps.migrations.map((m) => m.version));
      const pending = deps.migrations.filter((m) => !applied.has(m.version)).map((m) => m.name);
      const unknown = [...applied].filter((v) => !known.has(v));
      if (pending.length) return failed(`not applied: ${pending.join(", ")}`);
      // A newer build migrated this database: this one does not know its schema.
      if (unknown.length) return failed(`the database has migrations this build does not know: ${unknown.join(", ")}`);
      return ok(`${applied.size} applied`);
    } catch (e) {
      return failed(`could not be read (${reason(e)})`);
    }
  }

  /** Null when a file could be created and removed; throttled like the database probe. */
  function fileProbeError(): string | null {
    const t = now();
    if (lastFileProbe && t - lastFileProbe.at < DB_PROBE_EVERY_MS) return lastFileProbe.error;
    let error: string | null = null;
    try {
      createProbeFile(deps.dataDir);
    } catch (e) {
      error = reason(e);
    }
    lastFileProbe = { at: t, error };
    return error;
  }

  /** An object store takes a write and a delete (throttled like the other probes; one at a time). */
  function probeStore(store: BlobStore): Promise<HealthCheck> {
    const t = now();
    if (lastStoreProbe && t - lastStoreProbe.at < DB_PROBE_EVERY_MS) return Promise.resolve(lastStoreProbe.check);
    if (storeProbe) return storeProbe;
    const silent = failed(`${store.description}: no answer in ${STORE_PROBE_TIMEOUT_MS / 1000} s`);
    // A probe the store has not answered yet is not sent again (at most one in flight), and its
    // silence is the answer at once.
    if (probeInFlight) {
      lastStoreProbe = { at: t, check: silent };
      return Promise.resolve(silent);
    }
    probeInFlight = store.probe().then(
      () => ok(store.description),
      // "s3 http://…/bucket: write .ready-probe-7 failed (ConnectionRefused)"
      (e) => failed(`${store.description}: ${(e instanceof Error ? e.message : String(e)).replace(/^object storage: /, "")}`),
    );
    const probe = probeInFlight;
    void probe.then(() => {
      if (probeInFlight === probe) probeInFlight = null;
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    storeProbe = Promise.race([
      probe,
      // An orchestrator's probe gives up after a few seconds: answer before it does.
      new Promise<HealthCheck>((resolve) => {
        timer = setTimeout(() => resolve(silent), STORE_PROBE_TIMEOUT_MS);
      }),
    ])
      .finally(() => clearTimeout(timer))
      .then((check) => {
        lastStoreProbe = { at: now(), check };
        storeProbe = null;
        return check;
      });
    return storeProbe;
  }

  function storage(): HealthCheck {
    if (objectStore) return lastStoreProbe?.check ?? failed(`${objectStore.description}: not probed yet`);
    let free: number;
    try {
      free = freeBytes(deps.dataDir);
    } catch (e) {
      return failed(`the data directory could not be checked (${reason(e)})`);
    }
    const detail = `${mb(free)} free in the data directory`;
    if (free < minFree) return failed(`${detail}, at least ${mb(minFree)} needed`);
    const error = fileProbeError();
    return error ? failed(`new files cannot be created in the data directory (${error})`) : ok(`files ${resolve(deps.dataDir)}, ${detail}`);
  }

  function capture(r: CaptureReadiness | undefined): HealthCheck {
    if (!r) return failed("no capture pool in this process");
    if (!r.available) return failed("no Chromium browser found: install chromium or set CHROMIUM_PATH");
    if (r.browsers < 1 && r.onDemand) return ok(`0 of ${r.concurrency} browsers running; they launch on the first capture (CAPTURE_LAZY)`);
    if (r.browsers < 1) return failed(`no capture browser running yet (0 of ${r.concurrency})`);
    return ok(`${r.browsers} of ${r.concurrency} browsers running`);
  }

  /** With remote browsers: at least one browser server must answer; each is named (scheme, host and port only). */
  function browser(r: CaptureReadiness | undefined): HealthCheck | null {
    if (!r?.remote) return null;
    const { reachable, total, endpoints } = r.remote;
    const each = endpoints.map((e) =>
      e.reachable ? `${e.endpoint} reachable` : `${e.endpoint} not reachable${e.detail ? ` (${e.detail})` : ""}`,
    );
    const detail = `${reachable} of ${total} browser servers reachable: ${each.join("; ")}`;
    return reachable > 0 ? ok(detail) : failed(detail);
  }

  const role = deps.role ?? "all";
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

  /** Ready either way: a scheduler standing by is what failover needs; it says who holds the lease. */
  function scheduler(lease: LeaseState | null): HealthCheck {
    if (!lease) return ok("scheduling (the only scheduler on this database)");
    if (lease.held) return ok(`holds the scheduler lease until ${iso(lease.until)}: scheduling`);
    if (lease.holder) return ok(`standing by: ${lease.holder} holds the scheduler lease until ${iso(lease.until)}`);
    return ok("standing by: asking for the scheduler lease");
  }

  return {
    live: () => ({ ok: true as const }),
    role,

    /** Every check as last seen: an object store's from its latest probe (readyNow probes it). */
    async ready(): Promise<ReadyReport> {
      const pool = deps.captureReadiness?.();
      // Every role keeps files: a scheduler stores the screenshots of the scheduled runs it drives.
      const checks: ReadyChecks = { database: await database(), migrations: await migrations(), storage: storage() };
      // The single process and a worker capture; another role reports its pool when it keeps one.
      if (role === "all" || role === "worker" || pool) checks.capture = capture(pool);
      const remote = browser(pool);
      if (remote) checks.browser = remote;
      let lease: LeaseView | undefined;
      if (role === "scheduler") {
        const state = deps.schedulerLease?.() ?? null;
        checks.scheduler = scheduler(state);
        if (state) lease = { held: state.held, holder: state.holder, until: iso(state.until) };
      }
      const answer: Answer = lease ? { role, checks, lease } : { role, checks };
      const failing = READY_CHECKS.filter((name) => checks[name] && !checks[name].ok);
      if (failing.length === 0) return { ok: true, ...answer };
      return { ok: false, error: failing.map((name) => `${name}: ${checks[name]!.detail}`).join("; "), ...answer };
    },

    /** ready(), with an object store probed first (at most once a second). */
    async readyNow(): Promise<ReadyReport> {
      if (objectStore) await probeStore(objectStore);
      return this.ready();
    },
  };
}

export type HealthService = ReturnType<typeof healthService>;
