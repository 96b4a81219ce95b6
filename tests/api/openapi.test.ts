import { describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { z } from "zod";
import { responds } from "#server/http/contract";
import { makeTestApp } from "#tests/support/app";

type Operation = {
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema?: Record<string, unknown> }> };
  responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
};

const t = makeTestApp();
/** The app's first account is its admin. */
const admin = await t.signup();
const doc = (await t.call("GET", "/api/openapi.json")).json as {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme?: string; in?: string; name?: string }> };
};

/** Every /api route the app answers, as the router knows them (a new route shows up here by itself). */
const apiRoutes = t.app.routes
  .filter((r) => r.path.startsWith("/api/") && r.method !== "OPTIONS" && r.method !== "HEAD")
  .map((r) => ({
    method: r.method.toLowerCase(),
    path: r.path.replace(/:([^/]+)/g, "{$1}"),
    hooks: r.hooks as { body?: unknown; params?: unknown; query?: unknown },
  }));
const operation = (method: string, path: string) => doc.paths[path]?.[method];
/** A `{}` alternative in `security` means signing in is optional (e.g. logout). */
const optionalAuth = (op: Operation) => op.security?.some((s) => Object.keys(s).length === 0) ?? false;

/** Routes anyone may call; every other /api route must say how it authenticates. */
const PUBLIC = new Set([
  "get /api/auth/oidc/start",
  "get /api/auth/oidc/callback",
  "get /api/health",
  "get /api/health/live",
  "get /api/health/ready",
  "post /api/auth/signup",
  "post /api/auth/login",
  "post /api/beta-signups",
  "get /api/maintenance",
  "get /api/openapi.json",
  "get /api/docs",
  "get /api/docs/scalar.js",
  // A share link's token is its credential, in the path.
  "get /api/share/{token}",
  "get /api/share/{token}/screenshots/{snapshotId}",
]);

describe("OpenAPI document", () => {
  test("is served as OpenAPI 3.1 and validates with a maintained validator", async () => {
    expect(doc.openapi).toStartWith("3.1");
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as Record<string, unknown>);
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2).slice(0, 4000));
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  test("the router has the routes the test walks", () => {
    expect(apiRoutes.length).toBeGreaterThanOrEqual(45);
  });

  test("every /api route is documented with a tag, a success response and its error body", () => {
    const problems: string[] = [];
    for (const r of apiRoutes) {
      const op = operation(r.method, r.path);
      const key = `${r.method} ${r.path}`;
      if (!op) {
        problems.push(`${key}: missing`);
        continue;
      }
      if (!op.tags?.length) problems.push(`${key}: no tag`);
      const responses = Object.entries(op.responses ?? {});
      // A browser navigation's success is its redirect (single sign-on).
      const success = responses.filter(([status]) => status.startsWith("2") || status === "302");
      if (success.length === 0) problems.push(`${key}: no 2xx response`);
      for (const [status, res] of success) {
        // 204 No Content has no body by definition.
        if (status === "204" || status === "302") continue;
        const content = Object.entries(res.content ?? {});
        if (content.length === 0 || content.some(([, c]) => !c.schema)) problems.push(`${key}: ${status} has no content schema`);
      }
      for (const [status, res] of responses.filter(([s]) => /^[45]/.test(s))) {
        const schema = res.content?.["application/json"]?.schema as
          { properties?: Record<string, unknown>; required?: string[] } | undefined;
        if (!schema?.properties?.error || !schema.required?.includes("error")) problems.push(`${key}: ${status} is not the { error } body`);
      }
      if (!PUBLIC.has(key) && !optionalAuth(op) && !responses.some(([s]) => s === "401")) problems.push(`${key}: guarded but no 401`);
    }
    expect(problems).toEqual([]);
  });

  test("request schemas: bodies as JSON, path and query parameters by name", () => {
    const problems: string[] = [];
    for (const r of apiRoutes) {
      const op = operation(r.method, r.path);
      if (!op) continue;
      const key = `${r.method} ${r.path}`;
      if (r.hooks.body) {
        const schema = op.requestBody?.content["application/json"]?.schema as { type?: string; properties?: object } | undefined;
        if (schema?.type !== "object" || !schema.properties) problems.push(`${key}: body schema missing`);
        if (Object.keys(op.requestBody?.content ?? {}).join() !== "application/json") problems.push(`${key}: body is not JSON only`);
      } else if (op.requestBody) problems.push(`${key}: documents a body it does not take`);
      for (const name of r.path.matchAll(/\{([^}]+)\}/g)) {
        if (!r.hooks.params) problems.push(`${key}: path parameter ${name[1]} has no schema`);
        if (!op.parameters?.some((p) => p.in === "path" && p.name === name[1] && p.required))
          problems.push(`${key}: path parameter ${name[1]} missing`);
      }
      if (r.hooks.query && !op.parameters?.some((p) => p.in === "query")) problems.push(`${key}: query parameters missing`);
    }
    expect(problems).toEqual([]);
    // A few concrete shapes, so the walk above cannot pass on empty schemas.
    const create = operation("post", "/api/comparisons")!;
    const body = create.requestBody!.content["application/json"]!.schema as {
      properties: Record<string, { maxLength?: number }>;
      required: string[];
    };
    expect(body.required).toEqual(["name"]);
    expect(body.properties.name!.maxLength).toBe(100);
    const users = operation("get", "/api/admin/users")!;
    expect(users.parameters!.find((p) => p.name === "pageSize")!.schema).toMatchObject({ type: "integer", maximum: 100, default: 25 });
    const list = operation("get", "/api/comparisons")!.responses!["200"]!.content!["application/json"]!.schema as {
      type: string;
      items: { required: string[] };
    };
    expect(list.type).toBe("array");
    expect(list.items.required).toContain("targetCount");
  });

  test("files and images declare their content types", () => {
    const content = (method: string, path: string) => Object.keys(operation(method, path)!.responses!["200"]!.content!);
    expect(content("get", "/api/snapshots/{id}/screenshot")).toEqual(["image/png"]);
    expect(content("get", "/api/comparisons/{id}/export")).toEqual(["application/json", "text/html"]);
    expect(content("get", "/api/admin/backups/{name}")).toEqual(["application/vnd.sqlite3"]);
    expect(content("get", "/api/docs")).toEqual(["text/html"]);
    expect(content("get", "/api/share/{token}/screenshots/{snapshotId}")).toEqual(["image/png"]);
    // A 204 is documented with no body.
    expect(operation("delete", "/api/shares/{id}")!.responses!["204"]).toEqual({ description: "Revoked" } as object);
  });

  test("both security schemes are described and guarded routes name them", () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.accessToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(schemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(schemes.sessionCookie).toMatchObject({ type: "apiKey", in: "cookie", name: "di_refresh" });
    const problems: string[] = [];
    for (const r of apiRoutes) {
      const op = operation(r.method, r.path);
      if (!op) continue;
      const key = `${r.method} ${r.path}`;
      const names = (op.security ?? []).flatMap((s) => Object.keys(s));
      for (const n of names) if (!schemes[n]) problems.push(`${key}: unknown scheme ${n}`);
      if (PUBLIC.has(key) && names.length) problems.push(`${key}: public but requires ${names.join(", ")}`);
      if (!PUBLIC.has(key) && names.length === 0) problems.push(`${key}: guarded but names no scheme`);
    }
    expect(problems).toEqual([]);
    expect(operation("get", "/api/comparisons")!.security).toEqual([{ accessToken: [] }, { apiKey: [] }]);
    expect(operation("get", "/api/admin/users")!.tags).toEqual(["users"]);
  });
});

describe("validation through the route schemas", () => {
  test("a request that breaks a schema gets the field's own 400 message, in error and details", async () => {
    const cases: [string, string, unknown, string][] = [
      ["POST", "/api/comparisons", { name: "   " }, "Comparison name is required"],
      ["POST", "/api/comparisons", { name: "x".repeat(101) }, "Name must be under 100 characters"],
      ["POST", "/api/auth/signup", { email: "nope", password: "correct-horse" }, "Please enter a valid email address"],
      ["POST", "/api/auth/signup", { email: "a@example.com", password: "short" }, "Password must be at least 8 characters"],
      ["POST", "/api/beta-signups", { email: "a@example.com", source: "elsewhere" }, "Unknown signup source"],
      [
        "PUT",
        "/api/admin/alert-settings",
        { cpuThreshold: 0, memoryThreshold: 50, errorRateThreshold: 5, emailNotifications: true, slackNotifications: false },
        "CPU threshold must be between 1 and 100",
      ],
    ];
    for (const [method, path, body, message] of cases) {
      const r = await t.call(method, path, { body, headers: t.auth(admin.token) });
      expect({ path, status: r.status, error: r.json?.error }).toEqual({ path, status: 400, error: message });
      expect(r.json.details[0].message).toBe(message);
    }
    const q = await t.call("GET", "/api/admin/users?pageSize=500", { headers: t.auth(admin.token) });
    expect(q.status).toBe(400);
    expect(q.json).toEqual({
      error: "pageSize must be at most 100",
      details: [{ path: "pageSize", message: "pageSize must be at most 100" }],
    });
    const patch = await t.call("PATCH", `/api/admin/users/${admin.user.id}`, { body: {}, headers: t.auth(admin.token) });
    expect(patch.json.error).toBe("Nothing to change: send disabled or role");
  });

  test("no body is checked as an empty object, naming the first missing field", async () => {
    const u = await t.signup();
    const r = await t.call("POST", "/api/comparisons/x/targets", { headers: t.auth(u.token) });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("Please enter a valid URL");
    expect(r.json.details.map((d: { path: string }) => d.path)).toEqual(["url", "label"]);
  });

  test("the guard answers before validation: no sign-in is 401, not 400", async () => {
    const r = await t.call("POST", "/api/comparisons", { body: { name: "" } });
    expect(r.status).toBe(401);
    const user = await t.signup();
    const forbidden = await t.call("PUT", "/api/trends/settings", { body: {}, headers: t.auth(user.token) });
    expect(forbidden.status).toBe(403);
  });

  test("handlers get the parsed values: trimmed, transformed, defaulted", async () => {
    const u = await t.signup();
    const created = await t.call("POST", "/api/comparisons", { body: { name: "  Rivals  ", description: "" }, headers: t.auth(u.token) });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: "Rivals", description: null });
    const login = await t.call("POST", "/api/auth/login", { body: { email: `  ${u.email}  `, password: u.password } });
    expect(login.status).toBe(200);
    expect(login.json.user.email).toBe(u.email);
    const page = await t.call("GET", "/api/admin/audit-logs", { headers: t.auth(admin.token) });
    expect(page.json).toMatchObject({ page: 1, pageSize: 25 });
  });
});

describe("response schemas", () => {
  test("outside production an answer that breaks its schema is refused; a good one passes unchanged", async () => {
    const schema = responds(z.object({ id: z.string() }));
    const std = schema["~standard"];
    const bad = (await std.validate({ id: 1 })) as { issues?: unknown[] };
    expect(bad.issues?.length).toBe(1);
    const value = { id: "a", extra: true };
    expect(await std.validate(value)).toEqual({ value });
    // Pre-serialised bodies (cached lists) are checked as the JSON they carry.
    expect(((await std.validate('{"id":2}')) as { issues?: unknown[] }).issues?.length).toBe(1);
    // The schema is still the schema: the document and the types come from it.
    expect(z.toJSONSchema(schema)).toMatchObject({ type: "object", required: ["id"] });
  });
});

describe("API reference", () => {
  test("/api/docs is HTML whose scripts and styles come from this origin only, under the app's CSP", async () => {
    const r = await t.call("GET", "/api/docs");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("text/html");
    const csp = r.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval|https?:)/);
    const scripts = [...r.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(2);
    for (const [, attrs, body] of scripts) {
      const src = /\bsrc="([^"]+)"/.exec(attrs!)?.[1];
      // Either our own file, or a JSON data block (which never runs).
      if (src) expect(src).toStartWith("/api/");
      else {
        expect(attrs).toContain('type="application/json"');
        expect(body!.trim()).toBe("");
      }
    }
    expect(r.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(r.text).not.toMatch(/cdn\.|unpkg|jsdelivr/);
    const src = /<script src="([^"]+)"/.exec(r.text)![1]!;
    const asset = await t.app.handle(new Request(`http://localhost${src}`, { headers: { "accept-encoding": "gzip" } }));
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toContain("javascript");
    expect(asset.headers.get("content-encoding")).toBe("gzip");
    const js = new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await asset.arrayBuffer())));
    expect(js).toContain("createApiReference");
    // The page points Scalar at our document, and its settings turn off what would phone home.
    const config = JSON.parse(
      /data-configuration="([^"]+)"/
        .exec(r.text)![1]!
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, "&"),
    );
    expect(config).toMatchObject({ url: "/api/openapi.json", withDefaultFonts: false });
  });
});
