// Where the agents run. Normally in the agents worker on its own connection to the database
// file; with an in-memory database (tests) a worker can't share it, so the same loop runs on
// the main thread instead. The system module decides when they run; a host only runs them.
import type { SqlDb } from "#server/db/sql";
import type { Audience, LiveMessage } from "#server/live/hub";
import { spawnWorker } from "#server/lib/spawn-worker";
import type { AgentsEvent, AgentsRequest } from "./worker/protocol";
import { AgentLoop, type Cadence } from "./loop/loop";
import type { ChangeHistory } from "#server/modules/changes/public";

export interface AgentHost {
  readonly running: boolean;
  start(): Promise<void>;
  /** Resolves once no agent work runs any more (at most `stopTimeoutMs` later). */
  stop(): Promise<void>;
  poke(): void;
}

export interface AgentHostDeps {
  publish(message: LiveMessage, audience: Audience): void;
  log(msg: string, err?: unknown): void;
  /** The worker died on its own (not via stop). */
  onCrash(reason: string): void;
  cadence?: Partial<Cadence>;
}

export class InProcessAgentHost implements AgentHost {
  private loop: AgentLoop | null = null;

  constructor(
    private readonly db: SqlDb,
    private readonly deps: AgentHostDeps & { now?: () => number; changes?: ChangeHistory },
  ) {}

  get running(): boolean {
    return this.loop?.isRunning ?? false;
  }

  async start(): Promise<void> {
    if (this.loop) return;
    this.loop = new AgentLoop({
      db: this.db,
      emit: this.deps.publish,
      log: this.deps.log,
      cadence: this.deps.cadence,
      now: this.deps.now,
      changes: this.deps.changes,
    });
    await this.loop.start();
  }

  async stop(): Promise<void> {
    const loop = this.loop;
    this.loop = null;
    await loop?.stop();
  }

  poke(): void {
    this.loop?.poke();
  }
}

export class WorkerAgentHost implements AgentHost {
  private worker: Worker | null = null;
  private stopping = false;

  constructor(
    private readonly dbPath: string,
    private readonly deps: AgentHostDeps & { stopTimeoutMs?: number; startTimeoutMs?: number; spawn?: () => Worker },
  ) {}

  get running(): boolean {
    return this.worker !== null && !this.stopping;
  }

  private send(w: Worker, msg: AgentsRequest): void {
    w.postMessage(msg);
  }

  start(): Promise<void> {
    if (this.worker) return Promise.resolve();
    const w = (this.deps.spawn ?? (() => spawnWorker("modules/agents/worker/agents.worker.ts")))();
    this.worker = w;
    this.stopping = false;
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      const timer = setTimeout(() => {
        if (ready) return;
        this.kill(w);
        reject(new Error("the agents worker did not start in time"));
      }, this.deps.startTimeoutMs ?? 10_000);
      w.onmessage = (event: MessageEvent<AgentsEvent>) => {
        const e = event.data;
        switch (e.type) {
          case "ready":
            ready = true;
            clearTimeout(timer);
            resolve();
            return;
          case "live":
            this.deps.publish(e.message, e.audience);
            return;
          case "log":
            this.deps.log(`agents worker: ${e.message}`, e.error);
            return;
          case "fatal":
            if (!ready) {
              clearTimeout(timer);
              this.kill(w);
              reject(new Error(e.reason));
            } else this.crashed(w, e.reason);
            return;
          case "stopped":
            return;
        }
      };
      w.onerror = (event) => {
        const reason = event.message || "worker error";
        if (!ready) {
          clearTimeout(timer);
          this.kill(w);
          reject(new Error(reason));
        } else this.crashed(w, reason);
      };
      this.send(w, { type: "start", dbPath: this.dbPath, cadence: this.deps.cadence });
    });
  }

  private crashed(w: Worker, reason: string): void {
    if (this.worker !== w || this.stopping) return;
    this.kill(w);
    this.deps.onCrash(reason);
  }

  private kill(w: Worker): void {
    if (this.worker === w) this.worker = null;
    w.terminate();
  }

  /** Asks the worker to stop and close its connection; terminates it anyway after the timeout. */
  stop(): Promise<void> {
    const w = this.worker;
    if (!w) return Promise.resolve();
    this.stopping = true;
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.kill(w);
        this.stopping = false;
        resolve();
      };
      const timer = setTimeout(done, this.deps.stopTimeoutMs ?? 1000);
      w.onmessage = (event: MessageEvent<AgentsEvent>) => {
        const e = event.data;
        if (e.type === "live") this.deps.publish(e.message, e.audience);
        if (e.type === "stopped") done();
      };
      this.send(w, { type: "stop" });
    });
  }

  poke(): void {
    if (this.worker) this.send(this.worker, { type: "poke" });
  }
}
