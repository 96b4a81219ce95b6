// A fresh install's first account becomes the admin, so with SETUP_TOKEN_REQUIRED (or a PUBLIC_URL
// others can reach) it needs the one-time token printed at boot; links in alerts use PUBLIC_URL.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EnvError, loadEnv } from "#server/env";
import { SETUP_TOKEN_MESSAGE } from "#server/modules/auth/service";
import { makeTestApp } from "#tests/support/app";
import { startServer, type RunningServer } from "#tests/support/server";
import { metricsSample, saveAlertSettings } from "./admin-support";

const PASSWORD = "correct-horse-battery";
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null) await s.stop();
});

const signupWith = (t: ReturnType<typeof makeTestApp>, email: string, setupToken?: string) =>
  t.call("POST", "/api/auth/signup", { body: { email, password: PASSWORD, ...(setupToken !== undefined ? { setupToken } : {}) } });

describe("setup token", () => {
  test("SETUP_TOKEN_REQUIRED: the first account needs the token; later ones never do, and it is spent", async () => {
    const t = makeTestApp({ env: { SETUP_TOKEN_REQUIRED: "1" } });
    const token = (await t.services.auth.pendingSetupToken())!;
    expect(token.length).toBeGreaterThanOrEqual(24);
    for (const wrong of [undefined, "", "not-the-token", token.slice(0, -1), "é".repeat(token.length)]) {
      const r = await signupWith(t, "grabber@example.com", wrong);
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ error: SETUP_TOKEN_MESSAGE });
    }
    const first = await signupWith(t, "owner@example.com", token);
    expect(first.status).toBe(201);
    expect(first.json.user.role).toBe("admin");
    expect(await t.services.auth.pendingSetupToken()).toBeNull();
    const second = await signupWith(t, "grabber@example.com");
    expect(second.status).toBe(201);
    expect(second.json.user.role).toBe("user");
  });

  test("on by default for a PUBLIC_URL that is not loopback; off for a loopback one or none", async () => {
    expect(await makeTestApp({ env: { PUBLIC_URL: "https://intel.example.com" } }).services.auth.pendingSetupToken()).toBeString();
    expect(await makeTestApp({ env: { PUBLIC_URL: "http://localhost:3000" } }).services.auth.pendingSetupToken()).toBeNull();
    expect(await makeTestApp({ env: { PUBLIC_URL: "http://127.0.0.1:3000" } }).services.auth.pendingSetupToken()).toBeNull();
    expect(await makeTestApp().services.auth.pendingSetupToken()).toBeNull();
  });

  test("the real server prints the sign-up link with the token, and the signup page's ?setup= reaches the API", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "di-setup-"));
    try {
      const server = await startServer({ dataDir, env: { SETUP_TOKEN_REQUIRED: "1", CAPTURE_CONCURRENCY: "1" } });
      servers.push(server);
      const link = /Create the first \(admin\) account at: (http:\/\/localhost:\d+\/signup\?setup=([\w-]+))/.exec(server.output());
      expect(link).not.toBeNull();
      const page = await fetch(`${server.url}/signup?setup=${link![2]}`);
      expect(page.status).toBe(200);
      const refused = await fetch(`${server.url}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "a@example.com", password: PASSWORD }),
      });
      expect(refused.status).toBe(403);
      const ok = await fetch(`${server.url}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "a@example.com", password: PASSWORD, setupToken: link![2] }),
      });
      expect(ok.status).toBe(201);
      expect((await ok.json()).user.role).toBe("admin");
      await server.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("PUBLIC_URL configuration", () => {
  test("an http(s) origin, normalised; a path, another scheme or garbage stops the boot with its own line", () => {
    expect(loadEnv({ PUBLIC_URL: "https://Intel.Example.com/" }).PUBLIC_URL).toBe("https://intel.example.com");
    expect(loadEnv({ PUBLIC_URL: "http://localhost:3000" }).PUBLIC_URL).toBe("http://localhost:3000");
    expect(loadEnv({}).PUBLIC_URL).toBeUndefined();
    expect(() => loadEnv({ PUBLIC_URL: "https://intel.example.com/app" })).toThrow("PUBLIC_URL: must be an origin, without a path");
    expect(() => loadEnv({ PUBLIC_URL: "ftp://intel.example.com" })).toThrow("PUBLIC_URL: must be an http:// or https:// URL");
    expect(() => loadEnv({ PUBLIC_URL: "intel" })).toThrow(EnvError);
    expect(loadEnv({ SETUP_TOKEN_REQUIRED: "1" }).SETUP_TOKEN_REQUIRED).toBe(true);
    expect(() => loadEnv({ SETUP_TOKEN_REQUIRED: "yes please" })).toThrow("SETUP_TOKEN_REQUIRED");
  });
});

describe("PUBLIC_URL in alerts", () => {
  test("chat alerts link to the console at PUBLIC_URL; without it they carry no link", async () => {
    const posted: string[] = [];
    const hook = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        posted.push(((await req.json()) as { text: string }).text);
        return new Response("ok");
      },
    });
    try {
      for (const publicUrl of ["http://localhost:8080", undefined]) {
        posted.length = 0;
        const t = makeTestApp({
          env: { ALERT_WEBHOOK_URL: `http://127.0.0.1:${hook.port}/hook`, ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}) },
        });
        const boss = await t.signup("boss@example.com");
        await saveAlertSettings(t, boss.token, { slackNotifications: true });
        expect(await t.services.admin.hostAlerts.check(metricsSample({ cpu: 90 }))).toHaveLength(1);
        for (const end = Date.now() + 5000; posted.length === 0 && Date.now() < end;) await Bun.sleep(20);
        expect(posted).toHaveLength(1);
        if (publicUrl) expect(posted[0]).toContain("http://localhost:8080/super-admin");
        else expect(posted[0]).not.toContain("http");
      }
    } finally {
      await hook.stop(true);
    }
  });
});
