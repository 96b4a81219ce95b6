// Wording the server shares with the app's pages. The browser cannot import server code (web/
// imports it as types only), so web/lib/format.ts keeps its own formatElapsed; tests/lib/format.test.ts
// holds the two to the same output.

/** "42s", "4m 10s", "1h 2m": how long something lasted, as people say it (host alerts' messages). */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m}m ${s % 60}s` : `${m}m`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h}h ${m % 60}m` : `${h}h`;
}
