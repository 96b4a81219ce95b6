// The agents' scheduler. One timer ticks every second; each agent runs when its cadence is due.
// Runs are synchronous and short, so stop() never interrupts one halfway.
import type { Db } from "#server/db/connection";
import type { Audience, LiveMessage } from "#server/live/hub";
import { activityService } from "#server/modules/activity/public";
import { AGENT_IDS, type AgentId } from "../model";
import { makeContext, type AgentContext } from "./context";
import { DesignNinja } from "./design-ninja";
import { InsightOracle } from "./insight-oracle";
import { loopRepository } from "./repository";
import { TestCommander } from "./test-commander";
import type { ChangeHistory } from "#server/modules/changes/public";
import { TrendHunter } from "./trend-hunter";

export interface Cadence {
  tickMs: number;
  designNinjaMs: number;
  testCommanderMs: number;
  insightOracleMs: number;
  /** How long a new test waits for real traffic before the simulator takes over. */
  pendingGraceMs: number;
  housekeepingMs: number;
}

export const DEFAULT_CADENCE: Cadence = {
  tickMs: 1000,
  designNinjaMs: 5000,
  testCommanderMs: 3000,
  insightOracleMs: 4000,
  pendingGraceMs: 6000,
  housekeepingMs: 3_600_000,
};

export interface AgentLoopDeps {
  db: Db;
  emit(message: LiveMessage, audience: Audience): void;
  now?: () => number;
  log?: (msg: string, err?: unknown) => void;
  cadence?: Partial<Cadence>;
  /** The stored changes between runs (changes' feed), for moves across each comparison's competitors (none: TrendHunter reports trends only). */
  changes?: ChangeHistory;
}

const ORDER: AgentId[] = [AGENT_IDS.trendHunter, AGENT_IDS.designNinja, AGENT_IDS.testCommander, AGENT_IDS.insightOracle];

export class AgentLoop {
  readonly ctx: AgentContext;
  readonly trendHunter: TrendHunter;
  readonly designNinja: DesignNinja;
  readonly testCommander: TestCommander;
  readonly insightOracle: InsightOracle;
  private readonly cadence: Cadence;
  private readonly activity;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private lastRun = new Map<string, number>();
  private lastError = new Map<string, string>();
  private running = false;

  constructor(private readonly deps: AgentLoopDeps) {
    const now = deps.now ?? Date.now;
    this.cadence = { ...DEFAULT_CADENCE, ...deps.cadence };
    this.activity = activityService(deps.db, now);
    this.ctx = makeContext({
      repo: loopRepository(deps.db),
      activity: this.activity,
      now,
      emit: deps.emit,
      log: deps.log ?? ((m, e) => console.error(m, e)),
    });
    this.trendHunter = new TrendHunter(this.ctx, deps.changes);
    this.designNinja = new DesignNinja(this.ctx);
    this.testCommander = new TestCommander(this.ctx, deps.db, this.cadence.pendingGraceMs);
    this.insightOracle = new InsightOracle(this.ctx);
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.lastRun.clear();
    for (const id of ORDER) this.ctx.update(id, { status: "idle", currentTask: "Warming up" });
    this.timers.push(setInterval(() => this.tick(), this.cadence.tickMs));
    this.timers.push(setTimeout(() => this.tick(), 50));
  }

  /** Synchronous: when it returns no agent is running and none will until start(). */
  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    if (!this.running) return;
    this.running = false;
    for (const id of ORDER) this.ctx.update(id, { status: "stopped", currentTask: null });
  }

  /** Settings changed: let TrendHunter rescan on the next tick instead of waiting out its period. */
  poke(): void {
    this.lastRun.delete(AGENT_IDS.trendHunter);
  }

  private due(key: string, everyMs: number, t: number): boolean {
    const last = this.lastRun.get(key);
    if (last !== undefined && t - last < everyMs) return false;
    this.lastRun.set(key, t);
    return true;
  }

  tick(): void {
    if (!this.running) return;
    const t = this.ctx.now();
    const frequencyMs = this.trendHunter.settings().frequency * 1000;
    if (this.due(AGENT_IDS.trendHunter, frequencyMs, t)) this.guard(AGENT_IDS.trendHunter, () => this.trendHunter.run());
    if (this.due(AGENT_IDS.designNinja, this.cadence.designNinjaMs, t)) this.guard(AGENT_IDS.designNinja, () => this.designNinja.run());
    if (this.due(AGENT_IDS.testCommander, this.cadence.testCommanderMs, t))
      this.guard(AGENT_IDS.testCommander, () => this.testCommander.run());
    if (this.due(AGENT_IDS.insightOracle, this.cadence.insightOracleMs, t))
      this.guard(AGENT_IDS.insightOracle, () => this.insightOracle.run());
    if (this.due("housekeeping", this.cadence.housekeepingMs, t)) this.guard(null, () => this.activity.prune());
  }

  /** A failing agent shows 'error' with the reason and tries again next time; the others carry on. */
  private guard(id: AgentId | null, run: () => void): void {
    try {
      run();
      if (id) this.lastError.delete(id);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.ctx.log(`agent ${id ?? "housekeeping"} failed`, err);
      if (!id) return;
      try {
        this.ctx.update(id, { status: "error", currentTask: `Error: ${reason.slice(0, 200)}` });
        if (this.lastError.get(id) !== reason) {
          this.lastError.set(id, reason);
          this.ctx.activity.record({
            type: "system",
            status: "error",
            agentName: this.ctx.agent(id).name,
            message: `${this.ctx.agent(id).name} hit an error`,
            details: reason.slice(0, 500),
          });
        }
      } catch (inner) {
        this.ctx.log("could not record agent error", inner);
      }
    }
  }
}
