import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evaluateBudgets } from "#server/cli/check/budgets";
import { parseConfig } from "#server/cli/check/config";
import type { ComparisonReport } from "#server/modules/comparisons/model";
import { freePort, startServer } from "#tests/support/server";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { BUILD_MS, compiledBinary, runCli as runAny } from "./support";

// Every check here runs the compiled executable, as CI would (config messages and one tightened config
// are judged by its parser and budgets too, without a run of their own).
let dir: string;
let sites: FixtureServer;
let bin: ReturnType<typeof compiledBinary>;
beforeAll(() => {
  bin = compiledBinary();
  dir = mkdtempSync(join(tmpdir(), "di-check-"));
  sites = startFixtureServer();
}, BUILD_MS);
afterAll(async () => {
  await sites?.close();
  bin?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * One capture browser per check (as on the server below): a pool's second browser (a worker and a
 * Chromium, about a CPU-second to start) only overlaps this file's four pages, on a machine whose
 * cores the other test files keep busy.
 */
const ONE_BROWSER = { CAPTURE_CONCURRENCY: "1" };
const runCli = (args: string[], opts: Parameters<typeof runAny>[1] = {}) =>
  runAny(args, { ...opts, env: { ...ONE_BROWSER, ...opts.env }, cmd: bin.cmd, cwd: dir });
/** The failing testcases of a JUnit file, by name. */
const failures = (junit: string) => [...junit.matchAll(/<testcase [^>]*name="([^"]+)">\n\s*<failure/g)].map((m) => m[1]!);
/** The in-process run's report (every budget holds), and what the tightened config fails on over it; the server run must fail on the same. */
let inProcessReport: ComparisonReport | undefined;
let inProcessFailures: string[] = [];

function config(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

const loose = {
  lcpMs: { max: 120_000 },
  fcpMs: { max: 120_000 },
  cls: { max: 5 },
  imagesWithoutAlt: { max: 1000 },
  inputsWithoutLabel: { max: 1000 },
  lowContrast: { max: 1000 },
  failedRequests: { max: 1000 },
};
const pages = () => ({
  site: { url: sites.url("/alpha/"), label: "Alpha" },
  competitors: [{ url: sites.url("/beta/"), label: "Beta" }],
  viewports: ["desktop"],
});

describe("design-intel check (in-process)", () => {
  test("every budget holds: exit 0, a table, JUnit with only passing testcases, JSON and Markdown", async () => {
    const out = (f: string) => join(dir, `pass.${f}`);
    const budgets = {
      ...loose,
      failedRequests: { max: 0 },
      lcpMs: { max: 120_000, maxVsBestCompetitor: 1000 },
      rank: { lcpMs: { max: 2 }, bodyContrast: { max: 2 } },
      similarity: { Beta: { min: 0, max: 1 } },
    };
    const r = await runCli([
      "check",
      "--config",
      config("pass.json", { ...pages(), budgets }),
      "--junit",
      out("xml"),
      "--json",
      out("json"),
      "--markdown",
      out("md"),
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^lcpMs\.max\s+desktop\s+\d+\s+120000\s+pass$/m);
    expect(r.stdout).toMatch(/^rank\.lcpMs\.max\s+desktop\s+[12]\s+2\s+pass$/m);
    expect(r.stdout).toMatch(/^similarity\.Beta\.min\s+desktop\s+0\.\d+\s+0\s+pass$/m);
    expect(r.stdout).toMatch(/^failedRequests\.max\s+desktop\s+0\s+0\s+pass$/m);
    expect(r.stdout).toContain("all 12 budgets hold");
    const junit = readFileSync(out("xml"), "utf8");
    expect(junit.match(/<testcase /g)).toHaveLength(12);
    expect(junit).not.toContain("<failure");
    expect(junit).toContain('tests="12" failures="0"');
    const json = JSON.parse(readFileSync(out("json"), "utf8"));
    inProcessReport = json.report;
    expect(json.results).toHaveLength(12);
    expect(json.report.targets.map((t: { label: string; status: string }) => [t.label, t.status])).toEqual([
      ["Alpha", "completed"],
      ["Beta", "completed"],
    ]);
    // The engine captures both viewports; `viewports` picks the ones the budgets apply to.
    expect(json.report.snapshots).toHaveLength(4);
    const lcp = json.results.find((x: { budget: string }) => x.budget === "lcpMs.max");
    expect(lcp.value).toBe(
      json.report.snapshots.find((s: { targetId: string }) => s.targetId === json.report.targets[0].id).extraction.timing.lcpMs,
    );
    expect(json.results.find((x: { budget: string }) => x.budget === "failedRequests.max").value).toBe(0);
    expect(readFileSync(out("md"), "utf8")).toContain("✅ Design Intel: all 12 budgets hold");
  }, 180_000);

  test("one tightened budget, over the in-process run's report: that budget alone fails", () => {
    // The same measurement judged by a tighter config; the binary's exit 1 and its JUnit failure for
    // this config are the server run's below (one process path: the mode only fetches the report).
    const path = config("fail.json", { ...pages(), budgets: { ...loose, lcpMs: { max: 1 } } });
    const tight = parseConfig(readFileSync(path, "utf8"), path);
    const results = evaluateBudgets(tight, inProcessReport!);
    expect(results).toHaveLength(7);
    inProcessFailures = results.filter((r) => !r.pass).map((r) => `${r.budget} (${r.viewport})`);
    expect(inProcessFailures).toEqual(["lcpMs.max (desktop)"]);
  });

  test("an unreachable page: exit 2 naming it", async () => {
    const dead = `http://127.0.0.1:${freePort()}/`;
    const r = await runCli([
      "check",
      "--config",
      config("dead.json", { ...pages(), competitors: [{ url: dead, label: "Gone" }], budgets: loose }),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`design-intel check: Gone (${dead}) could not be checked`);
  }, 180_000);

  test("an ignore selector that is not CSS: exit 2 naming it, before any page is captured", async () => {
    // Every page is unreachable: had the comparison run first, the error would name them instead.
    const dead = `http://127.0.0.1:${freePort()}/`;
    const bad = config("bad-selector.json", {
      site: { url: `${dead}alpha/`, label: "Alpha" },
      competitors: [{ url: `${dead}beta/`, label: "Beta" }],
      viewports: ["desktop"],
      budgets: { visual: { maxChangedShare: 0.1 } },
      ignore: { selectors: ["#ok", "a[["] },
    });
    const r = await runCli(["check", "--config", bad, "--baseline-dir", join(dir, "selector-baseline")]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('design-intel check: ignore.selectors[1]: "a[[" is not a valid CSS selector');
  }, 180_000);
});

describe("design-intel check --server", () => {
  test("a run key runs the comparison on the server (it stays in the owner's list); a read key gets the 403, exit 2", async () => {
    const server = await startServer({ cmd: bin.cmd, cwd: bin.dir, env: { ...ONE_BROWSER, NODE_ENV: "", ALLOW_PRIVATE_TARGETS: "1" } });
    try {
      const post = async (path: string, body: unknown, token?: string) => {
        const r = await fetch(server.url + path, {
          method: "POST",
          headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        });
        return (await r.json()) as any;
      };
      const { accessToken } = await post("/api/auth/signup", { email: "ci@example.com", password: "ci-password-1" });
      const runKey = (await post("/api/api-keys", { name: "ci", scope: "run" }, accessToken)).key as string;
      const readKey = (await post("/api/api-keys", { name: "dash", scope: "read" }, accessToken)).key as string;
      const path = config("server.json", { ...pages(), budgets: { ...loose, rank: { lcpMs: { max: 2 } } } });

      const junitPath = join(dir, "server.xml");
      const r = await runCli(["check", "--config", path, "--server", server.url, "--junit", junitPath], {
        env: { DESIGN_INTEL_API_KEY: runKey },
      });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("all 8 budgets hold");
      expect(readFileSync(junitPath, "utf8")).toContain('tests="8" failures="0"');
      const list = (await (
        await fetch(`${server.url}/api/comparisons`, { headers: { authorization: `Bearer ${accessToken}` } })
      ).json()) as { name: string; status: string }[];
      expect(list.map((c) => [c.name, c.status])).toEqual([["design-intel check: Alpha", "completed"]]);

      // The tightened config fails on the server exactly as it did in-process. The refused keys'
      // runs, which start nothing, go meanwhile.
      const tightXml = join(dir, "server-fail.xml");
      const [tight, denied, noKey] = await Promise.all([
        runCli(["check", "--config", join(dir, "fail.json"), "--server", server.url, "--junit", tightXml], {
          env: { DESIGN_INTEL_API_KEY: runKey },
        }),
        runCli(["check", "--config", path, "--server", server.url], { env: { DESIGN_INTEL_API_KEY: readKey } }),
        runCli(["check", "--config", path, "--server", server.url], { env: { DESIGN_INTEL_API_KEY: "" } }),
      ]);
      expect(tight.code).toBe(1);
      const measured = Number(/^lcpMs\.max\s+desktop\s+(\d+)\s+1\s+FAIL$/m.exec(tight.stdout)?.[1]);
      expect(measured).toBeGreaterThan(1);
      expect(tight.stdout).toContain("1 of 7 budgets failed");
      const tightJunit = readFileSync(tightXml, "utf8");
      expect(tightJunit.match(/<failure /g)).toHaveLength(1);
      expect(tightJunit).toContain(
        `<failure message="lcpMs.max (desktop): ${measured} &gt; 1" type="budget">value: ${measured}\nlimit: 1</failure>`,
      );
      expect(inProcessFailures).toEqual(["lcpMs.max (desktop)"]);
      expect(failures(tightJunit)).toEqual(inProcessFailures);

      expect(denied.code).toBe(2);
      expect(denied.stderr.trim()).toBe(
        "design-intel check: POST /api/comparisons answered 403: This API key can only read; use a key with the run scope",
      );

      expect(noKey.code).toBe(2);
      expect(noKey.stderr).toContain("DESIGN_INTEL_API_KEY");
    } finally {
      await server.stop();
    }
  }, 360_000);
});

describe("check: config errors exit 2 naming the field; the schema ships with the binary", () => {
  test("bad configs", async () => {
    const site = { url: "http://127.0.0.1:9/", label: "Ours" };
    const competitors = [{ url: "http://127.0.0.1:9/b", label: "B" }];
    const cases: [unknown, string][] = [
      [{ site, competitors, budgets: { lcpMs: { max: "fast" } } }, "budgets.lcpMs.max: expected a number"],
      [{ site, competitors, budgets: { lcpMS: { max: 1 } } }, 'budgets: unknown field "lcpMS"'],
      [{ site, competitors, budgets: { failedRequests: { max: -1 } } }, "budgets.failedRequests.max: must be 0 or more"],
      [{ site, competitors, budgets: { visual: { maxChangedShare: 2 } } }, "budgets.visual.maxChangedShare: must be between 0 and 1"],
      [{ site, competitors, ignore: { regions: [{ x: 0, y: 0, width: 0, height: 10 }] } }, "ignore.regions[0].width: must be more than 0"],
      [{ site, competitors, ignore: { selectors: [""] } }, "ignore.selectors[0]: expected a CSS selector"],
      [{ site: { url: "ftp://x", label: "Ours" }, competitors }, "site.url: expected an absolute http(s) URL"],
      [{ site, competitors: [{ url: "http://127.0.0.1:9/b", label: "Ours" }] }, 'competitors[0].label: the label "Ours" is used twice'],
      [{ site }, "competitors: expected a list of { url, label }"],
      [{ site, competitors: [] }, "competitors: name at least one competitor"],
      [{ site, competitors, viewports: ["tablet"] }, 'viewports[0]: expected "desktop" or "mobile"'],
      [{ budgets: {} }, "site: "],
      ["{ nope", "not valid JSON"],
    ];
    const paths = cases.map(([value], i) => config(`bad-${i}.json`, value));
    // Every message from the parser the binary is built from; the binary itself (a process start of
    // seconds on a busy machine) for one case of each way to fail: a field's type, a rule across
    // fields, no JSON at all. Each run proves the rest of the path: exit 2, one line, the path named.
    for (const [i, [, message]] of cases.entries())
      expect(() => parseConfig(readFileSync(paths[i]!, "utf8"), paths[i]!), `case ${i}`).toThrow(`${paths[i]}: ${message}`);
    const inBinary = [0, 7, cases.length - 1];
    const runs = await Promise.all(inBinary.map((i) => runCli(["check", "--config", paths[i]!])));
    for (const [k, i] of inBinary.entries()) {
      const r = runs[k]!;
      expect({ i, code: r.code }).toEqual({ i, code: 2 });
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(`design-intel check: ${paths[i]}: ${cases[i]![1]}`);
    }
    const missing = await runCli(["check", "--config", join(dir, "nope.json")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("does not exist");
    const flag = await runCli(["check", "--baseline", "x"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("check: unknown flag --baseline");
  }, 180_000); // five runs of the binary: a process start each, seconds apiece on a busy machine

  test("--print-schema prints the config's JSON Schema", async () => {
    const r = await runCli(["check", "--print-schema"]);
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout);
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.required).toEqual(["site", "competitors"]);
    expect(schema.properties.budgets.properties.visual.properties.maxChangedShare.maximum).toBe(1);
    expect(schema.properties.ignore.properties.regions.items.required).toEqual(["x", "y", "width", "height"]);
    expect(schema.properties.budgets.properties.lcpMs.properties.max.type).toBe("number");
    expect(schema.properties.budgets.properties.speedIndex.properties.max.type).toBe("number");
    expect(schema.properties.budgets.properties.tbt.properties.max.type).toBe("number");
    expect(schema.properties.viewports.items.enum).toEqual(["desktop", "mobile"]);
  });
});
