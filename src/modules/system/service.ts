// Switching the agent system on and off. The wish is persisted (settings 'system.active') so an
// active system resumes after a server restart; the agent host does the work. Operations queue
// behind each other, so a double-click or a start racing a stop can't interleave.
import { type SqlDb, sqliteConnectionOf } from "#server/db/sql";
import { unavailable } from "#server/http/errors";
import type { LiveHub } from "#server/live/hub";
import { nowIso } from "#server/lib/ids";
import type { ActivityService } from "#server/modules/activity/service";
import { InProcessAgentHost, WorkerAgentHost, type AgentHost, type AgentHostDeps, type Cadence } from "#server/modules/agents/public";
import type { ChangeHistory } from "#server/modules/changes/public";
import type { SystemAction, SystemActor, SystemStatusDto } from "./model";
import { systemRepository } from "./repository";

/** After this many crashes within the window the supervisor gives up until someone restarts. */
const MAX_CRASH_RESTARTS = 3;
const CRASH_WINDOW_MS = 5 * 60_000;
const CRASH_BACKOFF_MS = 2000;

/** What a switch-on that launched tells the activity feed and the audit hook. */
const SWITCHED_ON = {
  start: { message: "System Started", details: "AI Design Intelligence System activated", action: "system.started" },
  restart: { message: "System Restarted", details: "Agent worker stopped and started again", action: "system.restarted" },
} as const satisfies Record<string, { message: string; details: string; action: SystemAction }>;

export interface SystemDeps {
  db: SqlDb;
  hub: LiveHub;
  activity: ActivityService;
  now?: () => number;
  log?: (msg: string, err?: unknown) => void;
  /** Tests inject a host; by default a file database gets the worker, ":memory:" the in-process loop. */
  makeHost?: (deps: AgentHostDeps) => AgentHost;
  cadence?: Partial<Cadence>;
  /** The change feed (changes/feed.ts) on this database, for TrendHunter's moves across a set (in-process host; the worker builds its own). */
  changes?: ChangeHistory;
  /** Audit hook for the admin console (start/stop/restart with who did it). */
  onChange?: (action: SystemAction, actor: SystemActor | null) => void;
  /**
   * Whether this process may run the agents now. False in a process that only records the wish (a
   * deployment's `serve`), and a single process on PostgreSQL may only while it holds the scheduler
   * lease: the scheduler holding it runs the agents, following the wish (`follow`), so they never
   * run twice. True when absent.
   */
  hostsAgents?: boolean | (() => boolean);
}

export function systemService(deps: SystemDeps) {
  const repo = systemRepository(deps.db);
  const now = deps.now ?? Date.now;
  const log = deps.log ?? ((m: string, e?: unknown) => console.error(m, e));
  let host: AgentHost | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const crashes: number[] = [];

  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const next = queue.then(op, op);
    queue = next.catch(() => undefined);
    return next;
  };

  const hostDeps: AgentHostDeps = {
    publish: (message, audience) => deps.hub.publish(message, audience),
    log,
    onCrash: (reason) => void serial(() => recover(reason)),
    cadence: deps.cadence,
  };

  function makeHost(): AgentHost {
    if (deps.makeHost) return deps.makeHost(hostDeps);
    // The worker opens its own connection to the database file; an in-memory database has no file to share.
    const file = sqliteConnectionOf(deps.db)?.filename;
    return file && file !== ":memory:"
      ? new WorkerAgentHost(file, hostDeps)
      : new InProcessAgentHost(deps.db, { ...hostDeps, now: deps.now, changes: deps.changes });
  }

  /** Agents the worker couldn't mark (killed, crashed) are set to stopped, and everyone is told. */
  async function settleAgents(): Promise<void> {
    const at = nowIso(now());
    for (const r of await repo.markAgentsStopped(at))
      deps.hub.publish({
        type: "AGENT_UPDATE",
        payload: { id: r.id, status: "stopped", currentTask: null, lastActivity: r.last_activity },
        agentId: r.id,
      });
  }

  async function launch(): Promise<void> {
    const mayHost = typeof deps.hostsAgents === "function" ? deps.hostsAgents() : deps.hostsAgents !== false;
    if (!mayHost || host?.running) return;
    const h = makeHost();
    host = h;
    try {
      await h.start();
    } catch (err) {
      host = null;
      throw err;
    }
  }

  async function halt(): Promise<void> {
    const h = host;
    host = null;
    if (h) await h.stop();
    await settleAgents();
  }

  async function recover(reason: string): Promise<void> {
    host = null;
    log("agents worker crashed", reason);
    await settleAgents();
    const t = now();
    while (crashes.length && t - crashes[0]! > CRASH_WINDOW_MS) crashes.shift();
    crashes.push(t);
    const giveUp = crashes.length > MAX_CRASH_RESTARTS;
    await deps.activity.record({
      type: "system",
      status: "error",
      message: giveUp ? "Agent worker keeps crashing: agents halted" : "Agent worker crashed: restarting",
      details: giveUp ? `${reason}. Restart the system from Mission Control once the cause is fixed.` : reason,
    });
    if (giveUp || !(await repo.active()).active) return;
    await Bun.sleep(CRASH_BACKOFF_MS);
    if ((await repo.active()).active && !host) await launch().catch((err) => log("agents restart after crash failed", err));
  }

  const failed = (action: string, err: unknown) => {
    const reason = err instanceof Error ? err.message : String(err);
    log(`system ${action} failed`, err);
    return unavailable(`The agent system could not ${action}: ${reason}`, 5);
  };

  async function status(): Promise<SystemStatusDto> {
    const s = await repo.active();
    return { isActive: s.active, running: host?.running ?? false, since: s.since };
  }

  const who = (actor: SystemActor | null | undefined) => (actor?.email ? ` by ${actor.email}` : "");

  /**
   * Persists the wish and launches the agents. A launch that fails switches the wish off again and
   * settles the agents, so a failed start or restart leaves the system off, not half on.
   */
  async function switchOn(how: keyof typeof SWITCHED_ON, actor: SystemActor | null | undefined): Promise<SystemStatusDto> {
    await repo.setActive(true, nowIso(now()));
    try {
      await launch();
    } catch (err) {
      await repo.setActive(false, nowIso(now()));
      await settleAgents();
      throw failed(how, err);
    }
    crashes.length = 0;
    const said = SWITCHED_ON[how];
    await deps.activity.record({ type: "system", status: "success", message: said.message, details: `${said.details}${who(actor)}.` });
    deps.onChange?.(said.action, actor ?? null);
    return status();
  }

  return {
    status,

    start: (actor?: SystemActor | null) =>
      serial(async () => {
        if ((await repo.active()).active && host?.running) return status();
        return switchOn("start", actor);
      }),

    stop: (actor?: SystemActor | null) =>
      serial(async () => {
        const wasActive = (await repo.active()).active || host !== null;
        await repo.setActive(false, nowIso(now()));
        await halt();
        if (wasActive) {
          await deps.activity.record({
            type: "system",
            status: "info",
            message: "System Stopped",
            details: `System deactivated${who(actor)}.`,
          });
          deps.onChange?.("system.stopped", actor ?? null);
        }
        return status();
      }),

    restart: (actor?: SystemActor | null) =>
      serial(async () => {
        await halt();
        return switchOn("restart", actor);
      }),

    /** On boot: an active system picks up where it was; otherwise leftover agent states are cleared. */
    resume: () =>
      serial(async () => {
        if (!(await repo.active()).active) {
          await settleAgents();
          return status();
        }
        await settleAgents();
        try {
          await launch();
          await deps.activity.record({ type: "system", status: "info", message: "System resumed after a server restart" });
        } catch (err) {
          log("system resume failed", err);
          await deps.activity.record({
            type: "system",
            status: "error",
            message: "System could not resume after a restart",
            details: String(err),
          });
        }
        return status();
      }),

    /** Server shutdown: stop the agents, keep the persisted wish so the next boot resumes. */
    shutdown: () => serial(() => halt()),

    /**
     * The wish may have been switched by another instance: launch or halt the agents here to
     * match it (the scheduler holding its lease calls this every few seconds).
     */
    follow: () =>
      serial(async () => {
        const { active } = await repo.active();
        if (active && !host) await launch().catch((err: unknown) => log("agents launch failed", err));
        else if (!active && host) await halt();
      }),

    /** Trend settings changed. */
    poke: () => host?.poke(),
  };
}
export type SystemService = ReturnType<typeof systemService>;
