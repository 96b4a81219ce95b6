// The single executable, copied alone into an empty folder, serves pages, assets, the API and
// its migrations. (Capturing from the binary is covered in the comparison e2e when Chromium is present.)
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type RunningServer } from "../support/server";

const root = join(import.meta.dir, "../..");
let dir: string;
let server: RunningServer;

beforeAll(async () => {
  const build = Bun.spawnSync(["bun", join(root, "scripts/build-binary.ts")], { cwd: root, stderr: "pipe", stdout: "pipe" });
  if (build.exitCode !== 0) throw new Error(`binary build failed: ${build.stderr.toString()}`);
  dir = mkdtempSync(join(tmpdir(), "di-binary-"));
  copyFileSync(join(root, "dist/design-intel"), join(dir, "design-intel"));
  Bun.spawnSync(["chmod", "+x", join(dir, "design-intel")]);
  server = await startServer({ cmd: [join(dir, "design-intel")], cwd: dir, dataDir: join(dir, "data"), env: { NODE_ENV: "" } });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("single executable", () => {
  test("runs in production mode from an empty folder with no node_modules", () => {
    expect(existsSync(join(dir, "node_modules"))).toBe(false);
    expect(server.output()).toContain("production");
    expect(server.output()).toContain("migrations applied");
  });

  test("serves SSR pages and hashed assets with long cache", async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('id="root"');
    const assets = [...html.matchAll(/\/assets\/[\w.-]+\.(?:js|css)/g)].map((m) => m[0]);
    expect(assets.length).toBeGreaterThan(0);
    for (const a of new Set(assets)) {
      const r = await fetch(server.url + a);
      expect(r.status).toBe(200);
      expect(r.headers.get("cache-control")).toContain("immutable");
    }
    expect((await fetch(`${server.url}/no-such-page`)).status).toBe(404);
  });

  test("serves the API against its embedded migrations", async () => {
    const r = await fetch(`${server.url}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bin@example.com", password: "password-1" }),
    });
    expect(r.status).toBe(201);
    expect(existsSync(join(dir, "data/design-intel.db"))).toBe(true);
  });

  test("stops cleanly on SIGTERM", async () => {
    const code = await server.stop("SIGTERM");
    expect(code).toBe(0);
    expect(server.output()).toContain("stopped cleanly");
  });
});
