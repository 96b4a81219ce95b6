// DATABASE_URL, read once: absent or `sqlite:` is the embedded file in DATA_DIR (the default), a
// `postgres://` URL a PostgreSQL 15+ server. Anything else is refused with one line naming it.
import { isAbsolute, join, resolve } from "node:path";

export type DatabaseTarget = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string; where: string };

/** Where the database is. `sqlite:` alone means DATA_DIR/design-intel.db; `sqlite:PATH` names a file (or `:memory:`). */
export function databaseTarget(databaseUrl: string | undefined, dataDir: string): DatabaseTarget {
  const value = (databaseUrl ?? "").trim();
  if (value === "" || value === "sqlite:" || value === "sqlite://")
    return { kind: "sqlite", path: join(resolve(dataDir), "design-intel.db") };
  if (value.startsWith("sqlite:")) {
    const rest = value.slice("sqlite:".length).replace(/^\/\//, "");
    if (rest === ":memory:") return { kind: "sqlite", path: rest };
    return { kind: "sqlite", path: isAbsolute(rest) ? rest : resolve(rest) };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error("DATABASE_URL: not a valid postgres:// URL");
    }
    if (!url.hostname && !url.searchParams.get("host")) throw new Error("DATABASE_URL: the postgres:// URL names no host");
    return { kind: "postgres", url: value, where: describePostgres(url) };
  }
  throw new Error(`DATABASE_URL: "${value.split(":")[0]}:" is not a database this build speaks (use sqlite: or postgres://)`);
}

/** host:port/database, never the password: what a log line or the console may show. */
function describePostgres(url: URL): string {
  const host = url.hostname || url.searchParams.get("host") || "localhost";
  const db = decodeURIComponent(url.pathname.replace(/^\//, "")) || decodeURIComponent(url.username) || "postgres";
  return `${host}:${url.port || "5432"}/${db}`;
}
