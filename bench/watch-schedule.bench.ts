// 200 comparisons due in the same minute: how long the scheduler takes to hand them over (cron
// evaluation + one guarded UPDATE each, on a file database with the production pragmas), and in
// which order owners are served. startRun is a no-op here: the drain of such a minute through the
// real runs and the capture pool's fair queue is bench/watch-drain.bench.ts.
// Run: bun bench/watch-schedule.bench.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { sqliteSql } from "#server/db/sql";
import { newId } from "#server/lib/ids";
import { Scheduler } from "#server/modules/watch/schedule/scheduler";
import { scheduleService } from "#server/modules/watch/schedule/service";

const dir = mkdtempSync(join(tmpdir(), "watch-bench-"));
const db = openDatabase(join(dir, "bench.sqlite"));
migrate(db);
let now = Date.parse("2026-03-27T08:59:30Z");
const svc = scheduleService({ db: sqliteSql(db), ownsComparison: async () => true, now: () => now });

// One heavy owner with 150 watched comparisons, ten owners with 5 each.
const owners = [{ n: 150 }, ...Array.from({ length: 10 }, () => ({ n: 5 }))].map((o, i) => ({
  ...o,
  id: newId(),
  name: i === 0 ? "heavy" : `light${i}`,
}));
const nameOf = new Map<string, string>();
for (const o of owners) {
  db.query("INSERT INTO users (id, email, password_hash) VALUES (?, ?, 'x')").run(o.id, `${o.name}@bench.test`);
  for (let i = 0; i < o.n; i++) {
    const c = newId();
    nameOf.set(c, o.name);
    db.query(
      "INSERT INTO comparisons (id, owner_id, name, created_at, updated_at) VALUES (?, ?, 'c', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
    ).run(c, o.id);
    await svc.put(o.id, c, ["0 9 * * *", "0 10 * * 1-5", "0 9 * * *"][i % 3]!, ["Europe/Berlin", "UTC", "America/New_York"][i % 3]!);
  }
}
// Make all 200 due at the same instant.
db.query("UPDATE comparison_schedules SET next_run_at = '2026-03-27T09:00:00.000Z'").run();

const order: string[] = [];
const scheduler = new Scheduler({
  repo: svc.repo,
  clock: { now: () => now, setTimeout: () => 0, clearTimeout: () => {} },
  isRunning: () => false,
  startRun: (id) => void order.push(nameOf.get(id)!),
});
now = Date.parse("2026-03-27T09:00:00Z");
const t0 = performance.now();
const events = await scheduler.tick();
const ms = performance.now() - t0;
scheduler.stop();

const lastLight = Math.max(...owners.slice(1).map((o) => order.lastIndexOf(o.name)));
console.log(
  `handed over: ${events.filter((e) => e.type === "started").length} runs in ${ms.toFixed(0)} ms (${(ms / events.length).toFixed(2)} ms each)`,
);
console.log(
  `every light owner's 5 runs were handed over by position ${lastLight + 1} of ${order.length} (FIFO by id would interleave them at random among the heavy owner's 150)`,
);
console.log(`first 22 handed over: ${order.slice(0, 22).join(" ")}`);
db.close();
rmSync(dir, { recursive: true, force: true });
