// The OpenAPI 3.1 document, generated from the routes' own schemas by @elysiajs/openapi's
// generator, and the interactive reference (Scalar) served from this app: no CDN, so it works
// offline, from the compiled binary, and under a CSP that allows only our own origin.
import { toOpenAPISchema } from "@elysiajs/openapi";
import type { AnyElysia } from "elysia";
import { declaredSchema } from "./contract";
// Embedded by `bun build --compile`; a path into node_modules when run from source.
// @ts-ignore -- a `type: "file"` import resolves to a path, which TypeScript cannot know.
import scalarBundlePath from "../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with { type: "file" };

export const OPENAPI_PATH = "/api/openapi.json";
export const DOCS_PATH = "/api/docs";
export const DOCS_SCRIPT_PATH = "/api/docs/scalar.js";

const SECURITY_SCHEMES = {
  accessToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "The accessToken from POST /api/auth/login or /api/auth/signup, as `Authorization: Bearer <token>`. Lives 15 minutes; POST /api/auth/refresh gives a new one.",
  },
  apiKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "di_…",
    description:
      "A personal API key (POST /api/admin/api-keys), sent the same way: `Authorization: Bearer di_…`. It acts as the admin who created it.",
  },
  sessionCookie: {
    type: "apiKey",
    in: "cookie",
    name: "di_refresh",
    description:
      "The browser session's refresh cookie (HttpOnly, SameSite=Strict). Screenshot and export links accept it because <img> tags and downloads cannot send a bearer token.",
  },
  ingestKey: {
    type: "apiKey",
    in: "header",
    name: "X-Ingest-Key",
    description: "An A/B test's ingest key, shown to its owner: lets a site's backend post events without signing in.",
  },
} as const;

const TAGS = [
  { name: "health", description: "Liveness for operators and orchestrators" },
  { name: "auth", description: "Accounts and sessions" },
  { name: "waitlist", description: "The marketing site's beta waitlist" },
  { name: "comparisons", description: "Competitor comparisons: pages, captures, scores, findings, reports" },
  { name: "activity", description: "The activity log" },
  { name: "agents", description: "Mission Control: agents, trends, generated components, A/B tests, analytics" },
  { name: "system", description: "Switching the agent system on and off" },
  { name: "admin", description: "The super-admin console" },
  { name: "users", description: "Account management (admins)" },
  { name: "audit", description: "The audit log (admins)" },
  { name: "api-keys", description: "Personal API keys (admins)" },
  { name: "share", description: "Read-only links to one run's results, and the shared results themselves" },
  { name: "docs", description: "This document and its reference UI" },
];

type Json = Record<string, unknown>;

/** Drops each schema's `$schema` line: the document's dialect already says which JSON Schema it is. */
function stripDialect(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripDialect);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) if (k !== "$schema") out[k] = stripDialect(v);
  return out;
}

interface JsonSchemaSource {
  "~standard": { jsonSchema?: { input(opts: { target: string }): unknown } };
}

/** A route's body schema as JSON Schema (what a client sends: the input side of any transform). */
function bodySchemaOf(route: { hooks?: { body?: unknown } }): unknown {
  const body = route.hooks?.body as JsonSchemaSource | undefined;
  return body?.["~standard"]?.jsonSchema?.input({ target: "draft-2020-12" });
}

/**
 * Request bodies are JSON only: the generator leaves a body's content empty when the app has its
 * own parser (ours bounds the size), so it is filled from the route's schema. Routes whose 200 is
 * a file say so in `x-binary-response`, routes that answer 204 in `x-no-content`, redirects in `x-redirect` (see contract.ts).
 */
function finishOperation(op: Json, bodySchema: unknown) {
  if (bodySchema !== undefined) op.requestBody = { required: true, content: { "application/json": { schema: bodySchema } } };
  const binary = op["x-binary-response"] as { description: string; contentTypes: string[] } | undefined;
  if (binary) {
    delete op["x-binary-response"];
    const responses = (op.responses ??= {}) as Json;
    responses["200"] = {
      description: binary.description,
      content: Object.fromEntries(binary.contentTypes.map((t) => [t, { schema: { type: "string", contentMediaType: t } }])),
    };
  }
  const redirect = op["x-redirect"] as { description: string } | undefined;
  if (redirect) {
    delete op["x-redirect"];
    const responses = (op.responses ??= {}) as Json;
    responses["302"] = {
      description: redirect.description,
      headers: { Location: { description: "Where the browser goes next", schema: { type: "string" } } },
    };
  }
  const empty = op["x-no-content"] as { description: string } | undefined;
  if (empty) {
    delete op["x-no-content"];
    const responses = (op.responses ??= {}) as Json;
    responses["204"] = { description: empty.description };
  }
}

/**
 * The app as the generator reads it (its routes and definitions), each route's response map holding
 * the schemas its `responds()` values declare: in production they are opaque to Elysia (contract.ts).
 */
function withDeclaredResponses(app: AnyElysia): AnyElysia {
  const routes = app.routes.map((route) => {
    const response = route.hooks?.response as Record<string, unknown> | undefined;
    if (!response || typeof response !== "object") return route;
    const declared = Object.fromEntries(Object.entries(response).map(([status, schema]) => [status, declaredSchema(schema)]));
    return { ...route, hooks: { ...route.hooks, response: declared } };
  });
  const definitions = () => (app as unknown as { getGlobalDefinitions(): unknown }).getGlobalDefinitions();
  return { getGlobalRoutes: () => routes, getGlobalDefinitions: definitions } as unknown as AnyElysia;
}

export function buildOpenApiDocument(app: AnyElysia, version: string): Json {
  const { paths, components } = toOpenAPISchema(
    withDeclaredResponses(app),
    { staticFile: false, methods: ["options", "head"] },
    undefined,
    undefined,
    "3.1.1",
  ) as {
    paths: Record<string, Record<string, Json>>;
    components: { schemas?: Json };
  };
  const bodies = new Map<string, unknown>();
  for (const route of app.routes)
    bodies.set(`${route.method.toLowerCase()} ${route.path.replace(/:([^/]+)/g, "{$1}")}`, bodySchemaOf(route));
  const apiPaths: Record<string, Record<string, Json>> = {};
  for (const [path, ops] of Object.entries(paths)) {
    if (!path.startsWith("/api/")) continue;
    for (const [method, op] of Object.entries(ops)) finishOperation(op, bodies.get(`${method} ${path}`));
    apiPaths[path] = ops;
  }
  return stripDialect({
    openapi: "3.1.1",
    info: {
      title: "Design Intel API",
      version,
      description:
        'Every error answers `{ "error": message }` with its status. Validation errors (400) name the first failing rule and list every failure in `details`.',
    },
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    tags: TAGS,
    paths: apiPaths,
    components: { schemas: components?.schemas ?? {}, securitySchemes: SECURITY_SCHEMES },
  }) as Json;
}

/**
 * Scalar's settings: no default fonts (they come from Scalar's CDN), no client button, no
 * telemetry, no agent or MCP links (they phone home). The CSP would block those requests anyway.
 */
const SCALAR_CONFIGURATION = {
  url: OPENAPI_PATH,
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  persistAuth: false,
  theme: "purple",
};

const escapeAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The reference page: markup only. Scalar reads its settings from the data attribute of the
 * element with id "api-reference" (a JSON data block, so nothing inline runs) and its one script is
 * our own file, so `script-src 'self'` holds.
 */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Design Intel API reference</title>
  </head>
  <body>
    <script id="api-reference" type="application/json" data-configuration="${escapeAttr(JSON.stringify(SCALAR_CONFIGURATION))}"></script>
    <script src="${DOCS_SCRIPT_PATH}"></script>
  </body>
</html>
`;

let bundle: { body: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> } | null = null;

/** Scalar's standalone bundle (about 4 MB, 1 MB gzipped), read and compressed once. */
export async function docsScript(acceptEncoding: string | null): Promise<Response> {
  if (!bundle) {
    const body = new Uint8Array(await Bun.file(scalarBundlePath as string).arrayBuffer());
    bundle = { body, gzip: Bun.gzipSync(body) as Uint8Array<ArrayBuffer> };
  }
  const gz = /\bgzip\b/.test(acceptEncoding ?? "");
  return new Response(gz ? bundle.gzip : bundle.body, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=86400",
      vary: "accept-encoding",
      ...(gz ? { "content-encoding": "gzip" } : {}),
    },
  });
}
