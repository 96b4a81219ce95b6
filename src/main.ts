import { join, resolve } from "node:path";
import { createApp, createServices } from "./app";
import { closeDatabase, openDatabase } from "./db/connection";
import { migrate } from "./db/migrate";
import { EnvError, loadEnv } from "./env";
import { loadSecret } from "./lib/secret";

function boot() {
  let env;
  try {
    env = loadEnv();
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const dataDir = resolve(env.DATA_DIR);
  const db = openDatabase(join(dataDir, "design-intel.db"));
  const ran = migrate(db);
  if (ran.length) console.log(`migrations applied: ${ran.join(", ")}`);

  const deps = { db, env, secret: loadSecret(dataDir, env.JWT_SECRET) };
  const services = createServices(deps);
  const app = createApp(deps, services);

  const server = Bun.serve({
    port: env.PORT,
    hostname: env.HOST,
    maxRequestBodySize: 2 * 1024 * 1024,
    fetch: (req, srv) => app.handle(req),
    error(err) {
      console.error("server error", err);
      return new Response(JSON.stringify({ error: "Something went wrong on our side" }), {
        status: 500,
        headers: { "content-type": "application/json" },
      });
    },
  });
  console.log(`Design Intel listening on http://localhost:${server.port} (data: ${dataDir}, ${env.NODE_ENV})`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: draining requests`);
    await server.stop(false);
    closeDatabase(db);
    console.log("stopped cleanly");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

boot();
