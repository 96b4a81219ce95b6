// What every agent gets: the repository, the clock, the activity log, the live feed, and
// `update`, which persists an agent's status and announces what changed (AGENT_UPDATE).
import type { Audience, LiveMessage } from "#server/live/hub";
import { nowIso } from "#server/lib/ids";
import type { ActivityService } from "#server/modules/activity/service";
import type { AgentDto, AgentId, AgentUpdate } from "../model";
import { agentToDto, type AgentRow } from "../rows";
import type { LoopRepository } from "./repository";

export interface AgentPatch {
  status?: AgentDto["status"];
  currentTask?: string | null;
  /** Added to tasksCompleted. */
  completed?: number;
  accuracy?: number | null;
  confidence?: number | null;
  metadata?: Record<string, unknown>;
}

export interface AgentContext {
  repo: LoopRepository;
  activity: ActivityService;
  now(): number;
  emit(message: LiveMessage, audience: Audience): void;
  update(id: AgentId, patch: AgentPatch): Promise<void>;
  agent(id: AgentId): Promise<AgentDto>;
  log(msg: string, err?: unknown): void;
}

/** Publishes rows built from one workspace's data to its members and admins; shared rows to everyone. */
export const audienceFor = (ownerId: string | null): Audience =>
  ownerId ? { kind: "workspace", workspaceId: ownerId, admins: true } : { kind: "all" };

export function makeContext(deps: {
  repo: LoopRepository;
  activity: ActivityService;
  now: () => number;
  emit: (message: LiveMessage, audience: Audience) => void;
  log: (msg: string, err?: unknown) => void;
}): AgentContext {
  const rows = new Map<string, AgentRow>();
  const load = async (id: string): Promise<AgentRow> => {
    let r = rows.get(id);
    if (!r) {
      r = (await deps.repo.agent(id)) ?? undefined;
      if (!r) throw new Error(`agent ${id} missing: migration 0003 not applied?`);
      rows.set(id, r);
    }
    return r;
  };

  return {
    repo: deps.repo,
    activity: deps.activity,
    now: deps.now,
    emit: deps.emit,
    log: deps.log,
    agent: async (id) => agentToDto(await load(id)),
    async update(id, patch) {
      const cur = await load(id);
      const next: AgentRow = {
        ...cur,
        status: patch.status ?? cur.status,
        current_task: patch.currentTask !== undefined ? patch.currentTask : cur.current_task,
        tasks_completed: cur.tasks_completed + (patch.completed ?? 0),
        accuracy: patch.accuracy !== undefined ? patch.accuracy : cur.accuracy,
        confidence: patch.confidence !== undefined ? patch.confidence : cur.confidence,
        metadata: patch.metadata ? JSON.stringify({ ...JSON.parse(cur.metadata || "{}"), ...patch.metadata }) : cur.metadata,
      };
      const changed: AgentUpdate = { id };
      if (next.status !== cur.status) changed.status = next.status;
      if (next.current_task !== cur.current_task) changed.currentTask = next.current_task;
      if (next.tasks_completed !== cur.tasks_completed) changed.tasksCompleted = next.tasks_completed;
      if (next.accuracy !== cur.accuracy) changed.accuracy = next.accuracy;
      if (next.confidence !== cur.confidence) changed.confidence = next.confidence;
      if (next.metadata !== cur.metadata) changed.metadata = agentToDto(next).metadata;
      if (Object.keys(changed).length === 1) return;
      next.last_activity = nowIso(deps.now());
      changed.lastActivity = next.last_activity;
      await deps.repo.saveAgent(next);
      rows.set(id, next);
      deps.emit({ type: "AGENT_UPDATE", payload: changed, agentId: id }, { kind: "all" });
    },
  };
}
