import { existsSync, readdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import type { AdminRepository } from "./repository";

const WINDOW = 100;

/** Open handles on the database file across this process (every SQLite connection holds one); 1 where /proc is missing. */
function openConnections(dbPath: string): number {
  if (!dbPath || dbPath === ":memory:" || !existsSync("/proc/self/fd")) return 1;
  let target: string;
  try {
    target = realpathSync(dbPath);
  } catch {
    return 1;
  }
  let n = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(join("/proc/self/fd", fd)) === target) n++;
    } catch {
      /* closed between listing and reading */
    }
  }
  return Math.max(1, n);
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Row counts, size and connection figures; the count queries double as the measured query-time sample. */
export function databaseStatsReader(repo: AdminRepository, dbPath: string) {
  const timings: number[] = [];

  async function timed<T>(fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      timings.push(performance.now() - t0);
      if (timings.length > WINDOW) timings.splice(0, timings.length - WINDOW);
    }
  }

  return async () => {
    const tables = await timed(repo.tables);
    let totalRecords = 0;
    for (const t of tables) totalRecords += await timed(() => repo.countRows(t));
    const sessions = await timed(repo.sessions);
    const onDisk = dbPath && dbPath !== ":memory:";
    const dbSize = onDisk ? fileSize(dbPath) + fileSize(`${dbPath}-wal`) : await repo.pageBytes();
    const queryTime = Math.round((timings.reduce((a, b) => a + b, 0) / timings.length) * 1000) / 1000;
    return { totalRecords, tables: tables.length, connections: sessions ?? openConnections(dbPath), queryTime, dbSize };
  };
}
