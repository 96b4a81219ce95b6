import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, openDatabase, type Db } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { sqliteSql } from "#server/db/sql";
import { LiveHub, type LiveMessage } from "#server/live/hub";
import { activityService } from "#server/modules/activity/service";
import { systemService, type SystemService } from "#server/modules/system/service";

// The real agents worker on a real database file: the production path.
const FAST = { tickMs: 50, designNinjaMs: 100, testCommanderMs: 100, insightOracleMs: 100, pendingGraceMs: 200 };

interface Rig {
  dir: string;
  db: Db;
  system: SystemService;
  received: LiveMessage[];
}
const rigs: Rig[] = [];

function rig(dir = mkdtempSync(join(tmpdir(), "di-agents-"))): Rig {
  const db = openDatabase(join(dir, "design-intel.db"));
  migrate(db);
  const hub = new LiveHub();
  const received: LiveMessage[] = [];
  hub.add({ userId: "watcher", role: "admin", send: (d) => received.push(JSON.parse(d)), close: () => {} });
  const system = systemService({ db: sqliteSql(db), hub, activity: activityService(sqliteSql(db)), cadence: FAST, log: () => {} });
  const r = { dir, db, system, received };
  rigs.push(r);
  return r;
}

afterEach(async () => {
  for (const r of rigs.splice(0)) {
    // Rigs whose database a test already closed (a simulated reboot) have nothing left to stop.
    await r.system.shutdown().catch(() => undefined);
    try {
      closeDatabase(r.db);
    } catch {
      /* closed by the test */
    }
    rmSync(r.dir, { recursive: true, force: true });
  }
});

async function until<T>(probe: () => T | undefined | null | false, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

const count = (db: Db, table: string) => db.query<{ n: number }, []>(`SELECT COUNT(*) AS n FROM ${table}`).get()!.n;
const statuses = (db: Db) =>
  db
    .query<{ status: string }, []>("SELECT status FROM agents")
    .all()
    .map((r) => r.status);

describe("agents worker", () => {
  test("start runs the agents in the worker; its writes land in the shared database file", async () => {
    const r = rig();
    const s = await r.system.start({ id: null, email: "ops@example.com" });
    expect(s).toMatchObject({ isActive: true, running: true });
    await until(() => r.received.find((m) => m.type === "COMPONENT_GENERATED"), "a generated component");
    await until(() => count(r.db, "components") >= 2, "two components in the database");
    expect(r.received.some((m) => m.type === "AGENT_UPDATE" && m.agentId === "design-ninja")).toBe(true);
    expect(statuses(r.db)).not.toContain("stopped");
  });

  test("stop halts all agent work: nothing is written afterwards and every agent is stopped", async () => {
    const r = rig();
    await r.system.start();
    await until(() => count(r.db, "components") >= 1, "some work");
    const s = await r.system.stop();
    expect(s).toMatchObject({ isActive: false, running: false });
    expect(new Set(statuses(r.db))).toEqual(new Set(["stopped"]));
    const snapshot = { components: count(r.db, "components"), activity: count(r.db, "activity_log"), messages: r.received.length };
    await Bun.sleep(600); // several cadences of every agent
    expect({ components: count(r.db, "components"), activity: count(r.db, "activity_log"), messages: r.received.length }).toEqual(snapshot);
  });

  test("restart stops the worker and starts a fresh one", async () => {
    const r = rig();
    await r.system.start();
    await until(() => count(r.db, "components") >= 1, "some work");
    const s = await r.system.restart({ id: null, email: "ops@example.com" });
    expect(s).toMatchObject({ isActive: true, running: true });
    const before = count(r.db, "components");
    await until(() => count(r.db, "components") > before, "work after the restart");
    const log = r.db
      .query<{ message: string }, []>("SELECT message FROM activity_log WHERE type = 'system' ORDER BY id")
      .all()
      .map((x) => x.message);
    expect(log).toEqual(["System Started", "System Restarted"]);
  });

  test("an active system resumes after a server restart; a stopped one stays stopped", async () => {
    const first = rig();
    await first.system.start();
    await until(() => count(first.db, "components") >= 1, "some work");
    await first.system.shutdown(); // SIGTERM path: agents stop, the wish to run is kept
    closeDatabase(first.db);

    const second = rig(first.dir);
    expect(await second.system.status()).toMatchObject({ isActive: true, running: false });
    const s = await second.system.resume();
    expect(s).toMatchObject({ isActive: true, running: true });
    const before = count(second.db, "components");
    await until(() => count(second.db, "components") > before, "work after the reboot");
    expect(
      second.db
        .query<{ n: number }, []>("SELECT COUNT(*) AS n FROM activity_log WHERE message = 'System resumed after a server restart'")
        .get()!.n,
    ).toBe(1);

    await second.system.stop();
    await second.system.shutdown();
    closeDatabase(second.db);
    const third = rig(first.dir);
    const after = await third.system.resume();
    expect(after).toMatchObject({ isActive: false, running: false });
    expect(new Set(statuses(third.db))).toEqual(new Set(["stopped"]));
  });

  test("double clicks and races queue up instead of spawning two workers", async () => {
    const r = rig();
    const [a, b] = await Promise.all([r.system.start(), r.system.start()]);
    expect(a.running && b.running).toBe(true);
    const starts = r.db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM activity_log WHERE message = 'System Started'").get()!.n;
    expect(starts).toBe(1);
    await Promise.all([r.system.stop(), r.system.start(), r.system.stop()]);
    expect(await r.system.status()).toMatchObject({ isActive: false, running: false });
  });
});
