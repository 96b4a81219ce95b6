// Turns the agents and activity answers (AgentDto[], ActivityEntryDto[]) into the shell's shapes.
// Every field is still checked, and a list wrapped in an object is accepted, so a changed
// endpoint degrades to fewer items, never to a crash.
import type { ShellActivityItem, ShellActivityStatus, ShellAgent, ShellAgentStatus } from "#web/components/layout/app-shell/types";

type Loose = Record<string, unknown>;

const isObject = (v: unknown): v is Loose => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);

function listIn(answer: unknown, keys: string[]): unknown[] {
  if (Array.isArray(answer)) return answer;
  if (isObject(answer)) for (const k of keys) if (Array.isArray(answer[k])) return answer[k] as unknown[];
  return [];
}

function id(v: unknown): string | null {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return text(v);
}

/** Spec §3: active, idle, error, stopped; anything else is shown as idle. */
function agentStatus(v: unknown): ShellAgentStatus {
  return v === "active" || v === "error" || v === "stopped" ? v : "idle";
}

export function toAgents(answer: unknown): ShellAgent[] {
  const out: ShellAgent[] = [];
  for (const raw of listIn(answer, ["agents", "items", "data"])) {
    if (!isObject(raw)) continue;
    const name = text(raw.name);
    if (!name) continue;
    out.push({ id: id(raw.id) ?? name, name, status: agentStatus(raw.status) });
  }
  return out;
}

function timestamp(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return v < 1e12 ? v * 1000 : v; // seconds or ms
  if (typeof v === "string") {
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

function progress(v: unknown): number | null {
  if (typeof v !== "number" || !Number.isFinite(v)) return null;
  return Math.round(Math.min(100, Math.max(0, v)));
}

const RAIL_STATUSES: readonly ShellActivityStatus[] = ["running", "completed", "error", "queued", "warning"];
const isRailStatus = (v: unknown): v is ShellActivityStatus => RAIL_STATUSES.includes(v as ShellActivityStatus);

/**
 * Log entries carry a severity (success, error, warning, info); the rail shows a lifecycle.
 * A lifecycle the entry states itself wins; otherwise severity maps onto one (a warning stays a
 * warning), and an info entry with unfinished progress is still running.
 */
function activityStatus(raw: Loose, meta: Loose, pct: number | null): ShellActivityStatus {
  for (const v of [meta.state, meta.phase, meta.status, raw.status]) if (isRailStatus(v)) return v;
  switch (raw.status) {
    case "error":
    case "failed":
      return "error";
    case "pending":
      return "queued";
    case "warning":
      return "warning";
    case "info":
      return pct !== null && pct < 100 ? "running" : "completed";
    default:
      return "completed";
  }
}

/** Spec §3: the activity types; any other value reads as a system entry. */
const ACTIVITY_TYPES = new Set(["trend", "component", "test", "system", "comparison"]);
const activityType = (v: unknown): string => {
  const t = text(v);
  return t && ACTIVITY_TYPES.has(t) ? t : "system";
};

export function toActivity(answer: unknown): ShellActivityItem[] {
  const out: ShellActivityItem[] = [];
  for (const raw of listIn(answer, ["activity", "items", "entries", "data"])) {
    if (!isObject(raw)) continue;
    const when = timestamp(raw.createdAt ?? raw.timestamp);
    const title = text(raw.message) ?? text(raw.title);
    const entryId = id(raw.id);
    if (when === null || !title || !entryId) continue;
    const meta = isObject(raw.metadata) ? raw.metadata : {};
    const pct = progress(meta.progress ?? raw.progress);
    out.push({
      id: entryId,
      type: activityType(raw.type),
      title,
      description: text(raw.details) ?? text(raw.description),
      timestamp: when,
      status: activityStatus(raw, meta, pct),
      progress: pct,
      agent: text(raw.agentName) ?? text(raw.agent),
    });
  }
  return out.sort((a, b) => b.timestamp - a.timestamp);
}

export const RECENT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The Activity badge: entries from the last 24 hours. When every fetched entry is that recent,
 * the real number may be higher than the fetch limit, hence "20+".
 */
export function recentActivityBadge(items: ShellActivityItem[], now: number, limit: number): string | null {
  const recent = items.filter((i) => now - i.timestamp < RECENT_WINDOW_MS).length;
  if (recent === 0) return null;
  return recent >= limit ? `${limit}+` : String(recent);
}

/**
 * The bell and Activity badges: entries newer than the last time the user looked at them (opened
 * the notifications or the Activity page). Never looked: the last 24 hours count. When every
 * fetched entry is unseen the real number may be higher than the fetch limit, hence "20+".
 */
export function unseenActivityBadge(items: ShellActivityItem[], seenAt: number | null, now: number, limit: number): string | null {
  const since = seenAt ?? now - RECENT_WINDOW_MS;
  const unseen = items.filter((i) => i.timestamp > since).length;
  if (unseen === 0) return null;
  return unseen >= limit ? `${limit}+` : String(unseen);
}
