// The real server (src/main.ts on its own Bun.serve) sees each client's own address: the audit log
// records it and the per-IP rate limits count it. Through Elysia's context it was "local" for every
// client, because Elysia only knows the server it started itself (app.listen), and we start ours.
import { afterAll, expect, test } from "bun:test";
import { SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null) await s.stop();
});

test(
  "the audit log records the TCP peer's address, not a placeholder",
  async () => {
    const server = await startServer();
    servers.push(server);
    const signup = await fetch(`${server.url}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "root@example.com", password: "correct-horse-battery" }),
    });
    expect(signup.status).toBe(201);
    const { accessToken } = (await signup.json()) as { accessToken: string };
    const res = await fetch(`${server.url}/api/admin/audit-logs`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(res.status).toBe(200);
    const { entries } = (await res.json()) as { entries: { action: string; ip: string }[] };
    expect(entries.find((e) => e.action === "auth.sign_up")?.ip).toBe("127.0.0.1");
  },
  SERVER_START_MS + 15_000,
);
