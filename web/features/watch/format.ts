// Dates and durations as the watch screens show them.

/** "23 Nov 2026, 09:00" in the given zone (the viewer's when left out). */
export function formatWhen(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  try {
    return d.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone });
  } catch {
    return d.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
  }
}

/** "2m 05s" between two instants; null while the second is missing. */
export function formatDuration(fromIso: string, toIso: string | null): string | null {
  if (!toIso) return null;
  const ms = Date.parse(toIso) - Date.parse(fromIso);
  if (!Number.isFinite(ms) || ms < 0) return null;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

/** "in 3 hours" / "5 minutes ago", relative to now. */
export function fromNow(iso: string, now = Date.now()): string {
  const diff = Date.parse(iso) - now;
  if (!Number.isFinite(diff)) return "";
  const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  const abs = Math.abs(diff);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ["day", 86_400_000],
    ["hour", 3_600_000],
    ["minute", 60_000],
  ];
  for (const [unit, ms] of units) if (abs >= ms) return rtf.format(Math.round(diff / ms), unit);
  return rtf.format(Math.round(diff / 1000), "second");
}
