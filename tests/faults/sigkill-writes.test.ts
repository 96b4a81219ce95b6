// SIGKILL in the middle of a stream of writes. SQLite runs in WAL mode with synchronous=NORMAL:
// a commit is in the WAL (the OS page cache) before the answer leaves, so a process crash must
// keep every write the client saw acknowledged. (Power loss is a different matter, see connection.ts.)
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";
import { call, login, signup } from "./support";

const dataDir = mkdtempSync(join(tmpdir(), "di-fault-kill-"));
const servers: RunningServer[] = [];

afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null) await s.stop("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

test(
  "acknowledged writes survive SIGKILL; the database is intact; a restart finds everything",
  async () => {
    // TRUST_PROXY lets each signup come "from" its own address, so the per-IP limit doesn't stop the stream.
    // Nothing here is captured: one warm capture browser, not the default two.
    const env = { TRUST_PROXY: "1", CAPTURE_CONCURRENCY: "1" };
    const first = await startServer({ dataDir, env });
    servers.push(first);
    const user = await signup(first.url);

    const ackedEmails: string[] = [];
    const ackedComparisons: string[] = [];
    const serverErrors: string[] = [];
    let sent = 0;
    let seq = 0;
    let cutOff = 0;
    let stop = false;

    const writer = async () => {
      while (!stop) {
        const n = seq++;
        try {
          if (n % 2 === 0) {
            const email = `kill-${n}@example.com`;
            const r = await fetch(`${first.url}/api/beta-signups`, {
              method: "POST",
              headers: { "content-type": "application/json", "x-forwarded-for": `10.77.${(n >> 8) & 255}.${n & 255}` },
              body: JSON.stringify({ email, source: "homepage" }),
            });
            sent++;
            // The status line is the acknowledgement; the body may never arrive once the server dies.
            if (r.status === 201) ackedEmails.push(email);
            else if (r.status >= 500) serverErrors.push(`${r.status} ${await r.text()}`);
          } else {
            const name = `Crash test ${n}`;
            const r = await fetch(`${first.url}/api/comparisons`, {
              method: "POST",
              headers: { "content-type": "application/json", authorization: `Bearer ${user.token}` },
              body: JSON.stringify({ name, description: "written while the server is about to be killed" }),
            });
            sent++;
            if (r.status === 201) ackedComparisons.push(name);
            else if (r.status >= 500) serverErrors.push(`${r.status} ${await r.text()}`);
          }
        } catch {
          // The connection died with the server: not acknowledged, so no promise was made.
          cutOff++;
        }
      }
    };
    const writers = Array.from({ length: 12 }, writer);

    // Kill while writes are still arriving (well under the 200-comparisons-per-user cap).
    while (ackedEmails.length + ackedComparisons.length < 240) await Bun.sleep(5);
    first.proc.kill("SIGKILL");
    expect(await first.proc.exited).not.toBe(0);
    stop = true;
    await Promise.all(writers);
    expect(serverErrors).toEqual([]);
    // Every writer had a request in flight (or about to start) when the process died.
    expect(cutOff).toBeGreaterThanOrEqual(writers.length);

    // The file as the crash left it (WAL and all): intact, and every acknowledged write is in it.
    {
      const db = new Database(join(dataDir, "design-intel.db"));
      expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
      const emails = new Set(
        db
          .query<{ email: string }, []>("SELECT email FROM beta_signups")
          .all()
          .map((r) => r.email),
      );
      const names = new Set(
        db
          .query<{ name: string }, []>("SELECT name FROM comparisons")
          .all()
          .map((r) => r.name),
      );
      expect(ackedEmails.filter((e) => !emails.has(e))).toEqual([]);
      expect(ackedComparisons.filter((n) => !names.has(n))).toEqual([]);
      db.close();
    }

    // Same DATA_DIR: the server boots, has nothing to migrate, and serves what was written.
    const second = await startServer({ dataDir, env });
    servers.push(second);
    expect(second.output()).not.toContain("migrations applied");
    const again = await login(second.url, user.email);
    const list = await call(second.url, "GET", "/api/comparisons", { token: again.token });
    expect(list.status).toBe(200);
    const listed = new Set((list.json as { name: string }[]).map((c) => c.name));
    expect(ackedComparisons.filter((n) => !listed.has(n))).toEqual([]);
    // And it takes new writes.
    const more = await call(second.url, "POST", "/api/beta-signups", {
      body: { email: "after-restart@example.com", source: "homepage" },
      headers: { "x-forwarded-for": "10.78.0.1" },
    });
    expect(more.status).toBe(201);
    expect(await second.stop()).toBe(0);
    // A clean stop checkpoints the WAL into the main file.
    const db = new Database(join(dataDir, "design-intel.db"), { readonly: true });
    expect(
      db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM beta_signups WHERE email = ?").get("after-restart@example.com")?.n,
    ).toBe(1);
    db.close();
    console.log(`[sigkill-writes] ${ackedEmails.length + ackedComparisons.length} acknowledged of ${sent} answered, ${cutOff} cut off`);
  },
  2 * SERVER_START_MS + 60_000,
); // two boots, and the writes between them
