// Starts a process in its role: what every role opens (src/boot/context.ts), then the role's own
// parts (src/boot/roles), then a graceful stop on SIGTERM or SIGINT. Every line it writes is a JSON
// log line (src/lib/logger.ts).
import { rmSync } from "node:fs";
import { bufferLogs, flushLogsSync } from "#server/lib/logger";
import { type BootContext, openContext, type Role } from "./context";
import { startAll } from "./roles/all";
import { startScheduler } from "./roles/scheduler";
import { startServe } from "./roles/serve";
import { startWorker } from "./roles/worker";

const ROLE_STARTS: Record<Role, (ctx: BootContext) => Promise<() => Promise<void>>> = {
  all: startAll,
  serve: startServe,
  worker: startWorker,
  scheduler: startScheduler,
};

/** The CLI has already refused `worker` and `scheduler` on SQLite. */
export async function start(asked: Role): Promise<void> {
  const ctx = await openContext(asked);
  const { role } = ctx;
  const stopRole = await ROLE_STARTS[role](ctx);
  bufferLogs();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.logger.info({ signal, role }, `${signal}: draining requests`);
    await stopRole();
    await ctx.db.close();
    if (ctx.storage.workDir) rmSync(ctx.storage.workDir, { recursive: true, force: true });
    ctx.logger.info("stopped cleanly");
    flushLogsSync();
    process.exit(0);
  };
  // A promise nobody awaited that failed is a bug (the type-aware lint keeps them out of src/), not a
  // reason to drop every user's connection: it is logged, and the process carries on.
  process.on("unhandledRejection", (err) => ctx.logger.error({ err }, "unhandled rejection"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
