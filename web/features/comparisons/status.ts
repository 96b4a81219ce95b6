// Spec §4: status colours and the button rules, in one place so the page and tests agree.
import type { ComparisonStatus, TargetStatus } from "#server/modules/comparisons/model";

export type BadgeColor = "green" | "blue" | "red" | "gray";

export function statusColor(status: ComparisonStatus | TargetStatus | string): BadgeColor {
  if (status === "completed") return "green";
  if (status === "running" || status === "capturing") return "blue";
  if (status === "failed") return "red";
  return "gray";
}

export const isRunning = (status: string) => status === "running";

export function canStart(status: ComparisonStatus, targetCount: number): boolean {
  return !isRunning(status) && targetCount >= 2;
}

export const canViewResults = (status: ComparisonStatus) => status === "completed";
export const canDeleteTarget = (status: ComparisonStatus) => !isRunning(status);

export function progressPercent(progress: { done: number; total: number } | null | undefined): number {
  if (!progress || progress.total <= 0) return 0;
  return Math.max(0, Math.min(100, Math.round((progress.done / progress.total) * 100)));
}
