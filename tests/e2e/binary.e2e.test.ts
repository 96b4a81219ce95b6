// The single executable, copied alone into an empty folder, serves pages, assets, the API and
// its migrations, and captures with its embedded page script, workers and axe-core.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";
import { BUILD_MS, compiledBinary, runCli } from "#tests/cli/support";
import pkg from "../../package.json" with { type: "json" };

let dir: string;
let server: RunningServer;
let sites: FixtureServer;
/** Two sites at two viewports, two pages at a time, each under the capture's limits (60 s at most), then scoring. */
const RUN_MS = 180_000;

beforeAll(async () => {
  ({ dir } = compiledBinary());
  sites = startFixtureServer();
  server = await startServer({
    cmd: [join(dir, "design-intel")],
    cwd: dir,
    dataDir: join(dir, "data"),
    env: { NODE_ENV: "", ALLOW_PRIVATE_TARGETS: "1" },
  });
}, BUILD_MS + SERVER_START_MS); // compiling the binary (unless scripts/test.sh built it), then its boot

afterAll(async () => {
  await server?.stop();
  await sites?.close();
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

  test("serves the OpenAPI document and the API reference with its embedded script", async () => {
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toStartWith("3.1");
    expect(doc.paths["/api/comparisons"]).toBeDefined();
    const page = await fetch(`${server.url}/api/docs`);
    expect(page.status).toBe(200);
    const src = /<script src="(\/api\/[^"]+)"/.exec(await page.text())?.[1];
    expect(src).toBeDefined();
    const script = await fetch(server.url + src);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain("createApiReference");
  });

  test(
    "captures and scores real pages from its embedded workers",
    async () => {
      const call = async (method: string, path: string, token?: string, body?: unknown) => {
        const r = await fetch(server.url + path, {
          method,
          headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: r.status, json: (await r.json()) as any };
      };
      const login = await call("POST", "/api/auth/login", undefined, { email: "bin@example.com", password: "password-1" });
      const token = login.json.accessToken as string;
      const cmp = await call("POST", "/api/comparisons", token, { name: "From the binary" });
      // One of them behind a OneTrust-style banner: the consent rules are embedded too.
      for (const site of ["beta", "consent-onetrust"])
        expect(
          (await call("POST", `/api/comparisons/${cmp.json.id}/targets`, token, { url: sites.url(`/${site}/`), label: site })).status,
        ).toBe(201);
      expect((await call("POST", `/api/comparisons/${cmp.json.id}/start`, token)).status).toBeLessThan(300);
      // Until the run ends: the capture's own limits bound it (RUN_MS); the test's timeout is past that.
      let status = "running";
      const deadline = Date.now() + RUN_MS;
      while (status === "running" && Date.now() < deadline) {
        await Bun.sleep(500);
        status = (await call("GET", `/api/comparisons/${cmp.json.id}`, token)).json.status;
      }
      if (status !== "completed")
        console.error(server.output(), (await call("GET", `/api/comparisons/${cmp.json.id}/targets`, token)).json);
      expect(status).toBe("completed");
      const snaps = (await call("GET", `/api/comparisons/${cmp.json.id}/snapshots`, token)).json as {
        screenshotUrl: string;
        colors: string[];
        viewport: string;
        consent: unknown;
        extraction: { url: string; accessibility: { audit?: { engine: string; error?: string } } };
      }[];
      expect(snaps.length).toBe(4);
      // axe-core is embedded: every page was audited on its desktop capture (only there), and beta's
      // images without alt are axe's finding.
      for (const s of snaps) {
        const audit = s.extraction.accessibility.audit;
        if (s.viewport === "mobile") expect(audit).toBeUndefined();
        else {
          expect(audit?.error).toBeUndefined();
          expect(audit?.engine).toMatch(/^axe-core \d+\.\d+\.\d+$/);
        }
      }
      expect(snaps.filter((s) => s.extraction.accessibility.audit).length).toBe(2);
      const findings = (await call("GET", `/api/comparisons/${cmp.json.id}/findings`, token)).json as { rule?: string }[];
      expect(findings.map((f) => f.rule)).toContain("image-alt");
      for (const s of snaps)
        expect(s.consent).toEqual(
          s.extraction.url.includes("consent-onetrust") ? { found: true, cmp: "onetrust", action: "rejected" } : { found: false },
        );
      const png = await fetch(server.url + snaps[0]!.screenshotUrl, { headers: { authorization: `Bearer ${token}` } });
      expect(png.headers.get("content-type")).toBe("image/png");
      // The capture worker inside the binary records each page's load as a filmstrip too.
      const films = (await call("GET", `/api/comparisons/${cmp.json.id}/filmstrips`, token)).json as { frames: { url: string }[] }[];
      expect(films.length).toBe(4);
      const frame = await fetch(server.url + films[0]!.frames[0]!.url, { headers: { authorization: `Bearer ${token}` } });
      expect(frame.headers.get("content-type")).toBe("image/jpeg");
      const diffs = (await call("GET", `/api/comparisons/${cmp.json.id}/diffs`, token)).json as { overallSimilarity: number }[];
      expect(diffs.length).toBe(2);
      for (const d of diffs) expect(d.overallSimilarity).toBeGreaterThan(0);
    },
    RUN_MS + 30_000,
  );

  test("subcommands: --version, a bad flag, users create beside the running server, backup", async () => {
    const bin = { cmd: [join(dir, "design-intel")], dataDir: join(dir, "data") };
    expect(await runCli(["--version"], bin)).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
    const bad = await runCli(["users", "create", "--emial", "x@example.com"], bin);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe("design-intel users create: unknown flag --emial (see design-intel users create --help)");

    const created = await runCli(["users", "create", "--email", "ops@example.com", "--admin"], { ...bin, stdin: "operator-pass-1\n" });
    expect(created.code).toBe(0);
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ops@example.com", password: "operator-pass-1" }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as { user: { role: string } }).user.role).toBe("admin");

    const backup = await runCli(["backup", "--out", join(dir, "copy.db")], bin);
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain("integrity check ok");
  }, 60_000);

  test("check: in-process run from the binary; a tightened budget exits 1 with its value in the JUnit file", async () => {
    const bin = { cmd: [join(dir, "design-intel")], dataDir: join(dir, "data") };
    const schema = await runCli(["check", "--print-schema"], bin);
    expect(schema.code).toBe(0);
    expect(JSON.parse(schema.stdout).required).toEqual(["site", "competitors"]);
    const config = join(dir, "design-intel.json");
    await Bun.write(
      config,
      JSON.stringify({
        site: { url: sites.url("/alpha/"), label: "Alpha" },
        competitors: [{ url: sites.url("/beta/"), label: "Beta" }],
        budgets: { lcpMs: { max: 1 }, cls: { max: 5 }, rank: { bodyContrast: { max: 2 } } },
      }),
    );
    const r = await runCli(["check", "--config", config, "--junit", join(dir, "di.xml")], bin);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("2 of 6 budgets failed");
    const junit = await Bun.file(join(dir, "di.xml")).text();
    expect(junit.match(/<failure /g)).toHaveLength(2);
    expect(junit).toMatch(/<failure message="lcpMs\.max \(desktop\): \d+ &gt; 1"/);
  }, 240_000); // check captures two sites at two viewports in-process (RUN_MS at most), then scores

  test("stops cleanly on SIGTERM", async () => {
    const code = await server.stop("SIGTERM");
    expect(code).toBe(0);
    expect(server.output()).toContain("stopped cleanly");
  });
});
