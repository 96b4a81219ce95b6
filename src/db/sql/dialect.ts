// The only place SQL differs between SQLite and PostgreSQL. Repositories write one statement and
// splice in these fragments where the dialects part: upserts, the current time, JSON fields, counts
// of flags, case-insensitive matching, an OFFSET without a limit, and taking rows and numbers where
// writers run side by side (PostgreSQL) or one at a time (SQLite). Everything here is built from
// names in code, never from input, and each name is checked so a slip cannot become an injection.
export type DialectName = "sqlite" | "postgres";

export interface Dialect {
  readonly name: DialectName;
  /** The current time as ISO-8601 text in UTC to the millisecond, the form every time column holds. */
  readonly now: string;
  /** A LIMIT that keeps every row, for `… ${noLimit} OFFSET $n` (SQLite takes no OFFSET without a LIMIT; PostgreSQL no LIMIT -1). */
  readonly noLimit: string;
  /** A case-insensitive LIKE (SQLite's LIKE already is, for ASCII; PostgreSQL's is not). */
  readonly ilike: string;
  /**
   * INSERT … ON CONFLICT (keys) DO UPDATE: one statement with `$1…$n` for `columns`, in order.
   * Every non-key column takes the new row's value, except those in `add`, which add it to what is
   * stored (counters), and those left out of `update` when it is given.
   */
  upsert(
    table: string,
    columns: readonly string[],
    keys: readonly string[],
    opts?: { update?: readonly string[]; add?: readonly string[] },
  ): string;
  /** The text at a path of keys inside a JSON text column (NULL when absent). */
  jsonText(column: string, ...path: string[]): string;
  /** The number of rows for which a condition (or a boolean column) holds: 0, not NULL, on no rows. */
  countWhere(condition: string): string;
  /** Ends a SELECT that picks rows to take: locks them, passing over rows another transaction holds (nothing on SQLite, one writer at a time). */
  readonly skipLocked: string;
  /** The next number of a counter: the sequence's on PostgreSQL; on SQLite one past the column's largest, safe there only under its one writer. */
  nextNumber(sequence: string, table: string, column: string): string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;
const KEY = /^[A-Za-z0-9_-]+$/;

function name(n: string): string {
  if (!NAME.test(n)) throw new Error(`dialect: "${n}" is not a plain SQL name`);
  return n;
}

function key(k: string): string {
  if (!KEY.test(k)) throw new Error(`dialect: "${k}" is not a plain JSON key`);
  return k;
}

function upsert(
  table: string,
  columns: readonly string[],
  keys: readonly string[],
  opts: { update?: readonly string[]; add?: readonly string[] } = {},
): string {
  const t = name(table);
  const cols = columns.map(name);
  const add = new Set(opts.add ?? []);
  const update = (opts.update ?? cols.filter((c) => !keys.includes(c))).map(name);
  // PostgreSQL reads a bare column in DO UPDATE as ambiguous (the row or EXCLUDED): always qualify.
  const sets = update.map((c) => (add.has(c) ? `${c} = ${t}.${c} + excluded.${c}` : `${c} = excluded.${c}`));
  const action = sets.length ? `DO UPDATE SET ${sets.join(", ")}` : "DO NOTHING";
  return `INSERT INTO ${t} (${cols.join(", ")}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(", ")}) ON CONFLICT (${keys.map(name).join(", ")}) ${action}`;
}

const countWhere = (condition: string) => `COALESCE(SUM(CASE WHEN ${condition} THEN 1 ELSE 0 END), 0)`;

export const sqliteDialect: Dialect = {
  name: "sqlite",
  now: "strftime('%Y-%m-%dT%H:%M:%fZ','now')",
  ilike: "LIKE",
  noLimit: "LIMIT -1",
  upsert,
  jsonText: (column, ...path) => `json_extract(${name(column)}, '$${path.map((p) => "." + key(p)).join("")}')`,
  countWhere,
  // Write transactions are BEGIN IMMEDIATE: nothing another claim could hold.
  skipLocked: "",
  // The subquery's own FROM: inside an UPDATE of the same table it reads the table, not the row.
  nextNumber: (_sequence, table, column) => `(SELECT COALESCE(MAX(n.${name(column)}), 0) + 1 FROM ${name(table)} n)`,
};

export const postgresDialect: Dialect = {
  name: "postgres",
  // iso_now() is created by migrations/pg/0001_init.sql.
  now: "iso_now()",
  ilike: "ILIKE",
  noLimit: "LIMIT ALL",
  upsert,
  jsonText: (column, ...path) => `(${name(column)}::jsonb #>> '{${path.map(key).join(",")}}')`,
  countWhere,
  // Two transactions picking at once take different rows instead of one waiting on the other's.
  skipLocked: "FOR UPDATE SKIP LOCKED",
  // A sequence hands each caller its own number without waiting on another transaction.
  nextNumber: (sequence) => `nextval('${name(sequence)}')`,
};
