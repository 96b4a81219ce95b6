// The real server (src/main.ts on its own Bun.serve) sees each client's own address: the audit log
// records it and the per-IP rate limits count it. Through Elysia's context it was "local" for every
// client, because Elysia only knows the server it started itself (app.listen), and we start ours.
import { expect, test } from "bun:test";
import { SERVER_START_MS, startServer } from "#tests/support/server";

test(
  "the audit log records the TCP peer's address, not a placeholder",
  async () => {
    // It captures nothing: one warm capture browser, not the default two.
    const server = await startServer({ env: { CAPTURE_CONCURRENCY: "1" } });
    // Stopped inside the test, under its timeout: a graceful stop on a busy machine outlasts a hook's 5 s.
    try {
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
    } finally {
      await server.stop();
    }
  },
  SERVER_START_MS + 30_000,
);
