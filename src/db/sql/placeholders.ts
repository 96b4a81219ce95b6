// Statements are written once with PostgreSQL's `$1, $2 …` parameters. SQLite reads `$1` as a
// *named* parameter and numbers names in order of first appearance, so `… $2 … $1` would bind the
// wrong values there (measured: `SELECT $2 AS b, $1 AS a` with [1, 2] gives b = 1). `?1, ?2 …` are
// SQLite's numbered parameters, so the SQLite side rewrites them; quoted text and comments are kept.
const TOKENS = /'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\/|\$(\d+)/g;

export function toSqliteParams(text: string): string {
  if (!text.includes("$")) return text;
  return text.replace(TOKENS, (whole, n: string | undefined) => (n === undefined ? whole : `?${n}`));
}
