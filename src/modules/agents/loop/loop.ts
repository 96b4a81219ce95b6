// The agents' scheduler. One timer ticks every second; each agent runs when its cadence is due.
// A tick runs the due agents one after another and the next tick waits for it; stop() waits for
// the agent in progress, so it never interrupts one halfway.
import type { SqlDb } from "#server/db/sql";
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
  db: SqlDb;
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
  /** The tick in progress, if any: ticks never overlap, and stop() waits for this one. */
  private ticking: Promise<void> | null = null;

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

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.lastRun.clear();
    for (const id of ORDER) await this.ctx.update(id, { status: "idle", currentTask: "Warming up" });
    // tick() settles every agent's failure itself; what is left (a database gone) is logged and retried next tick.
    const tick = () => void this.tick().catch((err) => this.ctx.log("agents tick failed", err));
    this.timers.push(setInterval(tick, this.cadence.tickMs));
    this.timers.push(setTimeout(tick, 50));
  }

  /** When it resolves no agent is running and none will until start(). */
  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    if (!this.running) return;
    this.running = false;
    await this.ticking;
    for (const id of ORDER) await this.ctx.update(id, { status: "stopped", currentTask: null });
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

  /** Runs the agents that are due; a tick still in progress is waited for instead of starting another. */
  tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    if (!this.running) return Promise.resolve();
    const ticking = this.runDue().finally(() => {
      this.ticking = null;
    });
    this.ticking = ticking;
    return ticking;
  }

  private async runDue(): Promise<void> {
    const t = this.ctx.now();
    const frequencyMs = (await this.trendHunter.settings()).frequency * 1000;
    // Each agent is checked against `running` as it comes up: stop() waits for one agent, not for all four.
    if (this.running && this.due(AGENT_IDS.trendHunter, frequencyMs, t))
      await this.guard(AGENT_IDS.trendHunter, () => this.trendHunter.run());
    if (this.running && this.due(AGENT_IDS.designNinja, this.cadence.designNinjaMs, t))
      await this.guard(AGENT_IDS.designNinja, () => this.designNinja.run());
    if (this.running && this.due(AGENT_IDS.testCommander, this.cadence.testCommanderMs, t))
      await this.guard(AGENT_IDS.testCommander, () => this.testCommander.run());
    if (this.running && this.due(AGENT_IDS.insightOracle, this.cadence.insightOracleMs, t))
      await this.guard(AGENT_IDS.insightOracle, () => this.insightOracle.run());
    if (this.running && this.due("housekeeping", this.cadence.housekeepingMs, t)) await this.guard(null, () => this.activity.prune());
  }

  /** A failing agent shows 'error' with the reason and tries again next time; the others carry on. */
  private async guard(id: AgentId | null, run: () => unknown): Promise<void> {
    try {
      await run();
      if (id) this.lastError.delete(id);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.ctx.log(`agent ${id ?? "housekeeping"} failed`, err);
      if (!id) return;
      try {
        await this.ctx.update(id, { status: "error", currentTask: `Error: ${reason.slice(0, 200)}` });
        if (this.lastError.get(id) !== reason) {
          this.lastError.set(id, reason);
          const { name } = await this.ctx.agent(id);
          await this.ctx.activity.record({
            type: "system",
            status: "error",
            agentName: name,
            message: `${name} hit an error`,
            details: reason.slice(0, 500),
          });
        }
      } catch (inner) {
        this.ctx.log("could not record agent error", inner);
      }
    }
  }
}
