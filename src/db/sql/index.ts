// The async database layer (issue 30): one handle over Bun.SQL for SQLite and PostgreSQL.
export { type Dialect, type DialectName, postgresDialect, sqliteDialect } from "./dialect";
export { type Result, type SqlDb, sqlHandle } from "./handle";
export { migrateSql, migrationsFor } from "./migrate";
export { type OpenOptions, openSql } from "./open";
export { isDatabaseUnavailable, isForeignKeyViolation, isUniqueViolation } from "./errors";
export { type DatabaseTarget, databaseTarget } from "./url";
export { sqliteClient, sqliteConnectionOf, sqliteSql, watchWrites, type WriteCount } from "./sqlite-client";
