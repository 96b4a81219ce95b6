// What a database error means, whichever dialect raised it. Services answer a duplicate with 409
// and an unreachable PostgreSQL with 503 (issue 30: "never 500"); they ask here, not the codes.
// SQLite's storage failures (full, read-only disk) are src/http/storage-errors.ts's.

const codeOf = (e: unknown, key: "code" | "errno") => {
  const v = e && typeof e === "object" ? (e as Record<string, unknown>)[key] : undefined;
  return typeof v === "string" || typeof v === "number" ? String(v) : "";
};

/** A UNIQUE or PRIMARY KEY constraint refused the write. */
export const isUniqueViolation = (e: unknown) =>
  /^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/.test(codeOf(e, "code")) || codeOf(e, "errno") === "23505";

/** A FOREIGN KEY constraint refused the write. */
export const isForeignKeyViolation = (e: unknown) => codeOf(e, "code") === "SQLITE_CONSTRAINT_FOREIGNKEY" || codeOf(e, "errno") === "23503";

/**
 * PostgreSQL cannot be reached or is going away: the connection failed, closed or timed out (Bun's
 * ERR_POSTGRES_CONNECTION_* and ERR_POSTGRES_*_TIMEOUT), or the server said so (SQLSTATE class 08,
 * connection exception; 57P01–57P03, shutting down or not yet accepting; 53300, too many
 * connections). The request may succeed once the server is back.
 */
export function isDatabaseUnavailable(e: unknown): boolean {
  const code = codeOf(e, "code");
  if (/^ERR_POSTGRES_(CONNECTION_\w+|\w*TIMEOUT)$/.test(code)) return true;
  const state = codeOf(e, "errno");
  return state.startsWith("08") || /^57P0[123]$/.test(state) || state === "53300";
}
