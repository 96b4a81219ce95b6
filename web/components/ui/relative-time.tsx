import { formatRelative, useNow } from "../layout/app-shell/relative-time";

/** "5m ago", refreshed every 15 s. Rendered only in the browser: the server's clock isn't the reader's. */
export function RelativeTime({ iso, fallback = "—" }: { iso: string | null | undefined; fallback?: string }) {
  const now = useNow(15_000);
  const t = iso ? Date.parse(iso) : Number.NaN;
  if (!Number.isFinite(t)) return <span>{fallback}</span>;
  return (
    <time dateTime={new Date(t).toISOString()} title={new Date(t).toLocaleString()}>
      {now === null ? "…" : formatRelative(t, now)}
    </time>
  );
}
