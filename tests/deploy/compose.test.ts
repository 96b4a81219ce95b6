// deploy/compose.yaml is the deployment docs/scaling.md describes: the parts issue 30 names, each
// app instance given an environment the binary accepts (checked by the app's own loadEnv), every
// worker pointed at both browser servers and named as its own egress host, and browser servers at
// the Playwright version the app speaks.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadEnv } from "#server/env";

const root = join(import.meta.dir, "../..");
const compose = Bun.YAML.parse(await Bun.file(join(root, "deploy/compose.yaml")).text()) as {
  services: Record<string, { image?: string; command?: string[]; environment?: Record<string, string> }>;
};
const example = Object.fromEntries(
  (await Bun.file(join(root, "deploy/.env.example")).text())
    .split("\n")
    .filter((l) => /^[A-Z_]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
);
// What an operator fills .env.example in with.
const filled: Record<string, string> = {
  ...example,
  POSTGRES_PASSWORD: "pw",
  JWT_SECRET: "s".repeat(64),
  SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
  MINIO_ROOT_PASSWORD: "mp",
  BROWSER_PATH: "b".repeat(32),
};

/** Compose's interpolation: ${X}, ${X:-default}, ${X:?error} and $$. */
function interpolate(value: string): string {
  return value
    .replace(/\$\{([A-Z_]+)(?::([-?])([^}]*))?\}/g, (_, name: string, op?: string, arg?: string) => {
      const v = filled[name];
      if (v) return v;
      if (op === "?") throw new Error(`${name} is required: ${arg}`);
      return op === "-" ? (arg ?? "") : "";
    })
    .replaceAll("$$", "$");
}

const services = compose.services;
const byRole = (role: string) =>
  Object.entries(services).filter(([, s]) => s.command?.[0] === "/app/design-intel" && s.command[1] === role);

describe("deploy/compose.yaml", () => {
  test("has every part: PostgreSQL 15+, an S3 store with its bucket, two browser servers, two serve, workers, two schedulers", () => {
    expect(Number(services.postgres?.image?.match(/postgres:(\d+)/)?.[1])).toBeGreaterThanOrEqual(15);
    expect(services.minio).toBeDefined();
    expect(services.bucket).toBeDefined();
    expect(Object.keys(services).filter((n) => n.startsWith("browser-"))).toHaveLength(2);
    expect(byRole("serve")).toHaveLength(2);
    expect(byRole("worker").length).toBeGreaterThanOrEqual(2);
    expect(byRole("scheduler")).toHaveLength(2);
  });

  test("every instance's environment is one the binary accepts, on PostgreSQL and the bucket, with one shared secret", () => {
    const apps = [...byRole("serve"), ...byRole("worker"), ...byRole("scheduler")];
    const secrets = new Set<string>();
    for (const [name, s] of apps) {
      const env = Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
      const parsed = loadEnv(env);
      expect(parsed.DATABASE_URL, name).toStartWith("postgres://");
      expect(parsed.STORAGE_URL, name).toBeDefined();
      expect(parsed.SECRETS_KEY, name).toBeDefined();
      secrets.add(env.JWT_SECRET!);
    }
    expect(secrets.size).toBe(1);
  });

  test("each worker uses both browser servers and is its own egress host", () => {
    for (const [name, s] of byRole("worker")) {
      const env = s.environment ?? {};
      const hosts = interpolate(env.BROWSER_WS_ENDPOINTS ?? "")
        .split(",")
        .map((e) => new URL(e).hostname);
      expect(hosts.sort()).toEqual(["browser-1", "browser-2"]);
      expect(env.BROWSER_EGRESS_HOST).toBe(name);
    }
  });

  test("the browser servers run the Playwright version the app's playwright-core speaks", async () => {
    const { version } = (await Bun.file(join(root, "node_modules/playwright-core/package.json")).json()) as { version: string };
    const minor = version.split(".").slice(0, 2).join(".");
    for (const n of ["browser-1", "browser-2"]) {
      const s = services[n]!;
      expect(s.image).toContain(`:v${minor}.`);
      expect(s.command!.join(" ")).toContain(`playwright-core@${minor}.`);
    }
  });
});
