// Live comparison state pushed over /ws. The socket client calls applyComparisonMessage; pages
// read the entry for the comparison they show and merge it into what their loader fetched.
import { create } from "zustand";
import type { ComparisonProgress, ComparisonProgressMessage, ComparisonStatus, TargetStatus } from "#server/modules/comparisons/model";

export interface LiveComparison {
  status: ComparisonStatus;
  progress: ComparisonProgress | null;
  targets: Record<string, TargetStatus>;
  /** Increases with every message (across comparisons), so effects can tell new from already seen. */
  seq: number;
}

interface ComparisonLiveState {
  byId: Record<string, LiveComparison>;
}

export const useComparisonLive = create<ComparisonLiveState>(() => ({ byId: {} }));

let seq = 0;

export const COMPARISON_MESSAGE_TYPES = ["COMPARISON_PROGRESS", "COMPARISON_STATUS"] as const;

const STATUSES: readonly string[] = ["pending", "running", "completed", "failed"];
const TARGET_STATUSES: readonly string[] = ["pending", "capturing", "completed", "failed"];

function isProgress(v: unknown): v is ComparisonProgress {
  if (!v || typeof v !== "object") return false;
  const p = v as Record<string, unknown>;
  return typeof p.done === "number" && typeof p.total === "number" && typeof p.stage === "string";
}

/** Validates an untrusted socket payload; null when it is not one of ours. */
export function parseComparisonMessage(msg: unknown): ComparisonProgressMessage | null {
  if (!msg || typeof msg !== "object") return null;
  const { type, payload } = msg as { type?: unknown; payload?: unknown };
  if (!COMPARISON_MESSAGE_TYPES.includes(type as never) || !payload || typeof payload !== "object") return null;
  const p = payload as Record<string, unknown>;
  if (typeof p.comparisonId !== "string" || !STATUSES.includes(p.status as string)) return null;
  if (p.progress !== null && p.progress !== undefined && !isProgress(p.progress)) return null;
  const out: ComparisonProgressMessage = {
    comparisonId: p.comparisonId,
    status: p.status as ComparisonStatus,
    progress: (p.progress as ComparisonProgress | undefined) ?? null,
  };
  if (typeof p.targetId === "string" && TARGET_STATUSES.includes(p.targetStatus as string)) {
    out.targetId = p.targetId;
    out.targetStatus = p.targetStatus as TargetStatus;
  }
  return out;
}

/** Feed for the live socket client. Returns whether the message was a comparison message. */
export function applyComparisonMessage(msg: unknown): boolean {
  const m = parseComparisonMessage(msg);
  if (!m) return false;
  useComparisonLive.setState((s) => {
    const prev = s.byId[m.comparisonId];
    const targets = { ...prev?.targets };
    if (m.targetId && m.targetStatus) targets[m.targetId] = m.targetStatus;
    const next: LiveComparison = {
      status: m.status,
      // A status-only message keeps the last known progress while still running.
      progress: m.progress ?? (m.status === "running" ? (prev?.progress ?? null) : null),
      targets,
      seq: ++seq,
    };
    return { byId: { ...s.byId, [m.comparisonId]: next } };
  });
  return true;
}

/** Forget a comparison's live entry once the page has reloaded the real rows. */
export function clearComparisonLive(comparisonId: string): void {
  useComparisonLive.setState((s) => {
    if (!(comparisonId in s.byId)) return s;
    const { [comparisonId]: _gone, ...rest } = s.byId;
    return { byId: rest };
  });
}
