// The console's Database tab names the database the installation runs on; on PostgreSQL it says how
// backups are made instead of offering the console's own, which only SQLite has.
import "#tests/support/dom";
import { afterEach, describe, expect, test } from "bun:test";
import type { DatabaseStats } from "#server/modules/admin/model";
const { act } = await import("@testing-library/react");
const { DatabaseTab } = await import("./components/database-tab");
const { $, renderUi } = await import("#tests/support/ui");

afterEach(async () => {
  await act(async () => {});
});

const stats = (over: Partial<DatabaseStats>): DatabaseStats => ({
  engine: "sqlite",
  engineDetail: "sqlite 3.51.0",
  backupAdvice: null,
  totalRecords: 10,
  tables: 3,
  connections: 1,
  queryTime: 0.1,
  dbSize: 4096,
  historyRuns: 0,
  historyBytes: 0,
  backupStatus: "none",
  lastBackup: null,
  lastBackupError: null,
  backupCount: 0,
  ...over,
});

const show = (s: DatabaseStats) =>
  renderUi(<DatabaseTab stats={s} loading={false} backingUp={false} onBackupNow={() => {}} onViewBackups={() => {}} />);

describe("Database tab", () => {
  test("on SQLite it says so and offers the console's backups", async () => {
    show(stats({}));
    expect((await $().findByTestId("db-engine")).textContent).toBe("Database: SQLite 3.51.0, embedded in this server's data folder");
    expect($().getByText("Backup Now")).toBeTruthy();
    expect($().queryByTestId("backup-advice")).toBeNull();
  });

  test("on PostgreSQL it names the version and says how to back up, with no backup buttons", async () => {
    const advice = "This server keeps its data in PostgreSQL: back it up with pg_dump";
    show(stats({ engine: "postgres", engineDetail: "postgres 15.14", backupAdvice: advice }));
    expect((await $().findByTestId("db-engine")).textContent).toBe("Database: PostgreSQL 15.14");
    expect($().getByTestId("backup-advice").textContent).toContain(advice);
    expect($().queryByText("Backup Now")).toBeNull();
    expect($().queryByText("View Backups")).toBeNull();
  });
});
