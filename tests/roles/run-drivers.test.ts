// Runs on a shared PostgreSQL database record the instance driving them; a run is failed with the
// "instance stopped" reason only once its driver keeps no drive lease. Runs another live instance
// drives, and one being launched right now, are left alone.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DRIVER_LEASE_PREFIX, DRIVER_STOPPED_REASON, runDrivers } from "#server/boot/run-drivers";
import type { SqlDb } from "#server/db/sql";
import { silentLogger } from "#server/lib/logger";
import { comparisonsRepository } from "#server/modules/comparisons/repository";
import { comparisonsService } from "#server/modules/comparisons/service";
import { leaseKeeper, type LeaseKeeper } from "#server/modules/leases/public";
import { migratedPg, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";
import { waitFor } from "#tests/support/wait";

const suite = pgMissing ? describe.skip : describe;
const uuid = (n: number) => `0190c0de-0000-7000-8000-${String(n).padStart(12, "0")}`;

suite("run drivers on PostgreSQL", () => {
  let db: SqlDb;
  let live: LeaseKeeper;

  beforeAll(async () => {
    db = await migratedPg();
  }, PG_START_TIMEOUT);

  afterAll(async () => {
    await live?.stop();
    await db?.close();
    await stopPostgres();
  });

  test("a run whose driver stopped is failed with that reason; one a live instance drives, or being launched, is not", async () => {
    const repo = comparisonsRepository(db);
    const old = new Date(Date.now() - 60 * 60_000).toISOString();
    await db.run("INSERT INTO users (id, email, password_hash, created_at) VALUES ('u1', 'u1@example.com', 'x', $1)", [old]);
    // [comparison, its run's driver: a live instance, a stopped one, none recorded, no run row yet]
    const cases = [
      [uuid(1), "live-1"],
      [uuid(2), "stopped-1"],
      [uuid(3), null],
      [uuid(4), undefined],
    ] as const;
    for (const [i, [id, driver]] of cases.entries()) {
      await repo.insertComparison({ id, ownerId: "u1", name: `C${i}`, description: null, at: old });
      // The one being launched was marked running just now; the others long ago.
      await repo.markRunning(id, "u1", 4, "Capturing", driver === undefined ? new Date().toISOString() : old);
      if (driver !== undefined)
        await repo.openRun({ id: uuid(10 + i), comparisonId: id, ownerId: "u1", trigger: "manual", at: old, driver: driver ?? undefined });
    }
    live = leaseKeeper({ db, name: DRIVER_LEASE_PREFIX + "live-1", holder: "live-1" });
    live.start();
    await waitFor("the live instance's drive lease", () => live.held(), 10_000);

    const comparisons = comparisonsService({ db, dataDir: "/tmp/design-intel-test", allowPrivateTargets: false, log: () => {} });
    const drivers = runDrivers({ shared: true, db, instance: "recoverer-1", log: () => {}, logger: silentLogger() }, { comparisons });
    expect(await drivers.failOrphans()).toBe(2);

    const state = async (id: string) => {
      const c = await db.one<{ status: string; error: string | null }>("SELECT status, error FROM comparisons WHERE id = $1", [id]);
      const r = await db.one<{ status: string; error: string | null }>("SELECT status, error FROM runs WHERE comparison_id = $1", [id]);
      return [c?.status, c?.error ?? null, r?.status ?? null, r?.error ?? null];
    };
    expect(await state(uuid(1))).toEqual(["running", null, "running", null]);
    expect(await state(uuid(2))).toEqual(["failed", DRIVER_STOPPED_REASON, "interrupted", DRIVER_STOPPED_REASON]);
    expect(await state(uuid(3))).toEqual(["failed", DRIVER_STOPPED_REASON, "interrupted", DRIVER_STOPPED_REASON]);
    expect(await state(uuid(4))).toEqual(["running", null, null, null]);

    // The live instance stops: its lease goes, and its run is failed at the next look.
    await live.stop();
    expect(await drivers.failOrphans()).toBe(1);
    expect((await state(uuid(1)))[0]).toBe("failed");
  }, 30_000);
});
