// With SQLite, `serve` is the single process: the embedded database is one machine's file, so it
// serves, captures and schedules, and says so in its readiness (role "all").
import { afterAll, expect, test } from "bun:test";
import { SERVER_START_MS } from "#tests/support/server";
import { type RoleProcess, startRole } from "./support";

let serve: RoleProcess | null = null;
afterAll(async () => {
  await serve?.stop("SIGKILL");
});

test(
  "serve on SQLite runs every role: ready as `all` with the capture check, the whole app on its port",
  async () => {
    serve = await startRole("serve", "sqlite:");
    const ready = await serve.get("/api/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.json.role).toBe("all");
    expect(Object.keys(ready.json.checks)).toEqual(["database", "migrations", "storage", "capture"]);
    expect(ready.json.checks.database.detail).toBe("sqlite, writable");
    expect((await serve.get("/api/health")).status).toBe(200);
    expect(await serve.stop()).toBe(0);
  },
  SERVER_START_MS + 20_000,
);
