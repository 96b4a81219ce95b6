import { useEffect, useState } from "react";

/** "just now", "42s ago", "5m ago", "3h ago", "2d ago", then a date. */
export function formatRelative(timestamp: number, now: number): string {
  const seconds = Math.floor((now - timestamp) / 1000);
  // A server clock slightly ahead of ours would otherwise read "in 2s".
  if (seconds < 10) return "just now";
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d ago`;
  return new Date(timestamp).toLocaleDateString(undefined, { month: "short", day: "numeric" });
}

/** 24-hour HH:MM:SS in local time. */
export function formatClock(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * The current time, refreshed every `intervalMs`. Null until mounted: the server's "now" and
 * the browser's differ, so anything time-derived renders only on the client.
 */
export function useNow(intervalMs: number): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
