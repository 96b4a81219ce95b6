import { afterEach, describe, expect, test } from "bun:test";
import { closeDatabase, openDatabase, type Db } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { sqliteSql } from "#server/db/sql";
import { HttpError } from "#server/http/errors";
import { LiveHub } from "#server/live/hub";
import { activityService } from "#server/modules/activity/service";
import type { AgentHost } from "#server/modules/agents/public";
import type { SystemAction } from "#server/modules/system/model";
import { systemService } from "#server/modules/system/service";

// Switching on through a host that does as told: a launch that fails must leave the system off.

interface Rig {
  db: Db;
  system: ReturnType<typeof systemService>;
  audit: SystemAction[];
  /** The reason the next host's start fails with, if any. */
  failNext: { reason: string | null };
}
const dbs: Db[] = [];

function rig(): Rig {
  const db = openDatabase(":memory:");
  migrate(db);
  dbs.push(db);
  const audit: SystemAction[] = [];
  const failNext = { reason: null as string | null };
  const makeHost = (): AgentHost => {
    let running = false;
    const reason = failNext.reason;
    failNext.reason = null;
    return {
      get running() {
        return running;
      },
      start: async () => {
        if (reason) throw new Error(reason);
        running = true;
      },
      stop: async () => {
        running = false;
      },
      poke: () => {},
    };
  };
  const system = systemService({
    db: sqliteSql(db),
    hub: new LiveHub(),
    activity: activityService(sqliteSql(db)),
    makeHost,
    log: () => {},
    onChange: (action) => audit.push(action),
  });
  return { db, system, audit, failNext };
}

afterEach(() => {
  for (const db of dbs.splice(0)) closeDatabase(db);
});

const systemLog = (db: Db) =>
  db
    .query<{ message: string; details: string | null }, []>("SELECT message, details FROM activity_log WHERE type = 'system' ORDER BY id")
    .all();

async function failure(p: Promise<unknown>): Promise<HttpError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  return err as HttpError;
}

describe("system switch-on", () => {
  test("start and restart record who switched the system on, and tell the audit hook", async () => {
    const r = rig();
    const actor = { id: "u1", email: "ops@example.com" };
    expect(await r.system.start(actor)).toMatchObject({ isActive: true, running: true });
    expect(await r.system.restart(actor)).toMatchObject({ isActive: true, running: true });
    expect(systemLog(r.db)).toEqual([
      { message: "System Started", details: "AI Design Intelligence System activated by ops@example.com." },
      { message: "System Restarted", details: "Agent worker stopped and started again by ops@example.com." },
    ]);
    expect(r.audit).toEqual(["system.started", "system.restarted"]);
  });

  test("a start whose launch fails leaves the system off and answers 503", async () => {
    const r = rig();
    r.failNext.reason = "no worker";
    const err = await failure(r.system.start());
    expect(err.status).toBe(503);
    expect(err.message).toBe("The agent system could not start: no worker");
    expect(await r.system.status()).toMatchObject({ isActive: false, running: false });
    expect(systemLog(r.db)).toEqual([]);
    expect(r.audit).toEqual([]);
  });

  test("a restart whose launch fails leaves the system off and answers 503", async () => {
    const r = rig();
    await r.system.start();
    r.failNext.reason = "no worker";
    const err = await failure(r.system.restart());
    expect(err.status).toBe(503);
    expect(err.message).toBe("The agent system could not restart: no worker");
    expect(await r.system.status()).toMatchObject({ isActive: false, running: false });
    expect(systemLog(r.db).map((e) => e.message)).toEqual(["System Started"]);
    expect(r.audit).toEqual(["system.started"]);
    // Switched off, so a later start launches again.
    expect(await r.system.start()).toMatchObject({ isActive: true, running: true });
  });
});
