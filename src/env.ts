import { isIP } from "node:net";
import { z } from "zod";
import { LOG_LEVELS } from "./lib/logger";
import { secretsKeyEnv } from "./modules/secrets/model";
import { storageUrl } from "./modules/storage/model";
import { databaseTarget } from "./db/sql/url";
import { isLoopbackHostname } from "./http/host-guard";

const flag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");

/**
 * BROWSER_WS_ENDPOINTS: Playwright browser-server endpoints, comma-separated. An endpoint may carry
 * what grants access to its browser (a path, a token), so a bad entry is named by its place in the
 * list and its scheme, never quoted.
 */
const browserEndpoints = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return [];
    const entries = value.split(",").map((e) => e.trim());
    const problem = (i: number, what: string) => {
      ctx.addIssue({ code: "custom", message: `entry ${i + 1} of ${entries.length} ${what}` });
      return z.NEVER;
    };
    for (const [i, entry] of entries.entries()) {
      if (!entry) return problem(i, "is empty");
      const url = URL.parse(entry);
      if (!url) return problem(i, "is not a URL (expected ws://host:port/path)");
      if (url.protocol !== "ws:" && url.protocol !== "wss:") {
        // A usual scheme is worth naming; anything else may be the host itself ("browser-1:3000").
        const named = url.protocol === "http:" || url.protocol === "https:" ? `, not ${url.protocol}//` : " (ws://host:port/path)";
        return problem(i, `must be a ws:// or wss:// URL${named}`);
      }
      if (!url.hostname) return problem(i, "has no host");
      const first = entries.indexOf(entry);
      if (first !== i) return problem(i, `repeats entry ${first + 1}`);
    }
    return entries;
  });

const isLoopbackHost = (host: string) => {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare.endsWith(".localhost") || bare === "::1" || /^127\.\d+\.\d+\.\d+$/.test(bare);
};

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATA_DIR: z.string().min(1).default("./data"),
    CHROMIUM_PATH: z.string().min(1).optional(),
    ALLOW_PRIVATE_TARGETS: flag,
    ADMIN_EMAILS: z
      .string()
      .optional()
      .transform((v) =>
        (v ?? "")
          .split(",")
          .map((e) => e.trim().toLowerCase())
          .filter(Boolean),
      ),
    JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    /** The AES-256 key of site secrets (32 bytes, base64); DATA_DIR/secrets.key is generated when absent. */
    SECRETS_KEY: secretsKeyEnv.optional(),
    CAPTURE_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
    /** Launch capture browsers on first use instead of at boot (idle browsers then close after 2 minutes). */
    CAPTURE_LAZY: flag,
    /** Per-page capture limits (ms); unset means the capture pool's own defaults. */
    CAPTURE_NAV_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).optional(),
    CAPTURE_TOTAL_TIMEOUT_MS: z.coerce.number().int().min(2000).max(600_000).optional(),
    /** Loads each page's timing is taken from, at most (1 = the capture's own load only). */
    CAPTURE_TIMING_SAMPLES: z.coerce.number().int().min(1).max(3).default(3),
    /** "lighthouse-mobile" times the mobile viewport under Lighthouse's mobile preset (slow 4G, 4x CPU). */
    CAPTURE_MOBILE_PROFILE: z.enum(["unthrottled", "lighthouse-mobile"]).default("unthrottled"),
    TRUST_PROXY: flag,
    LLM_BASE_URL: z.url().optional(),
    LLM_API_KEY: z.string().optional(),
    LLM_MODEL: z.string().optional(),
    /** Runs kept per comparison (run history); older runs go with their screenshots. At least 2, so changes have a run to compare with. */
    HISTORY_KEEP: z.coerce.number().int().min(2).max(1000).default(50),
    /** Where screenshots, filmstrips and backups are kept: files under DATA_DIR when absent, or s3://bucket/prefix. */
    STORAGE_URL: storageUrl.optional(),
    /** The S3-compatible endpoint (MinIO, R2, Garage…); AWS S3 of S3_REGION when absent. */
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
    S3_REGION: z.string().min(1).optional(),
    AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
    AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** How many verified database backups DATA_DIR/backups keeps. */
    BACKUP_KEEP: z.coerce.number().int().min(1).max(365).default(7),
    /** Slack-compatible incoming webhook for admin alert chat notifications. */
    ALERT_WEBHOOK_URL: z.url().optional(),
    /** SMTP server for alert e-mails: smtp://user:pass@host:587 (STARTTLS) or smtps://user:pass@host:465. */
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
    /** The From of alert e-mails, e.g. "Design Intel <alerts@example.com>". */
    ALERT_EMAIL_FROM: z.string().min(3).optional(),
    /**
     * The address users reach the server at (https://intel.example.com). When set, requests whose
     * Host or Origin names anything else are refused (DNS rebinding), and links in alerts use it.
     * Kept as its origin: the app is served from the root of its host.
     */
    PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
      .refine((v) => !/^https?:\/\//i.test(v) || /^https?:\/\/[^/?#]+\/?$/i.test(v), "must be an origin, without a path")
      .transform((v) => new URL(v).origin)
      .optional(),
    /** The first account (the admin) needs the one-time setup token printed at boot; on by default for a non-loopback PUBLIC_URL. */
    SETUP_TOKEN_REQUIRED: flag,
    /**
     * OpenID Connect sign-in (docs/security.md, "Single sign-on"): off unless OIDC_ISSUER is set. The issuer
     * is https, or http on a loopback host (a provider on the same machine).
     */
    OIDC_ISSUER: z
      .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
      .refine(
        (v) => !v.startsWith("http:") || isLoopbackHostname(new URL(v).hostname),
        "must be https:// (http:// only on a loopback host)",
      )
      .optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    /** E-mail domains SSO accepts (comma list); every domain when absent. */
    OIDC_ALLOWED_DOMAINS: z
      .string()
      .optional()
      .transform((v) =>
        (v ?? "")
          .split(",")
          .map((d) => d.trim().toLowerCase().replace(/^@/, ""))
          .filter(Boolean),
      ),
    /** The sign-in button reads "Continue with <OIDC_NAME>". */
    OIDC_NAME: z.string().trim().min(1).max(60).default("Single sign-on"),
    /** "admins": only administrators sign in with a password; everyone else uses SSO. */
    PASSWORD_LOGIN: z.enum(["all", "admins"]).default("all"),
    /** Lowest level written to stdout (JSON lines); "silent" writes nothing. */
    LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
    /** Absent or `sqlite:`: the embedded file in DATA_DIR; `postgres://…`: a PostgreSQL 15+ server (docs/scaling.md). */
    DATABASE_URL: z
      .string()
      .optional()
      .superRefine((v, ctx) => {
        try {
          databaseTarget(v, ".");
        } catch (e) {
          ctx.addIssue({ code: "custom", message: (e as Error).message.replace(/^DATABASE_URL: /, "") });
        }
      }),
    /** Playwright browser servers capture workers connect to instead of launching Chromium (docs/scaling.md). */
    BROWSER_WS_ENDPOINTS: browserEndpoints,
    /** The address remote browsers reach this worker's egress proxy at; default 127.0.0.1 (browser servers on this machine). */
    BROWSER_EGRESS_HOST: z
      .string()
      .refine(
        (h) => isIP(h.replace(/^\[|\]$/g, "")) !== 0 || /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(h),
        "must be a host name or an IP address",
      )
      .optional(),
    /** The address the egress proxy listens on; default BROWSER_EGRESS_HOST when that is an IP address, else every interface. */
    BROWSER_EGRESS_LISTEN: z
      .string()
      .refine((h) => isIP(h) !== 0, "must be an IP address to listen on (0.0.0.0 for every interface)")
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.OIDC_ISSUER)
      for (const name of ["OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const)
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when OIDC_ISSUER is set" });
    if (env.PASSWORD_LOGIN === "admins" && !env.OIDC_ISSUER)
      ctx.addIssue({ code: "custom", path: ["PASSWORD_LOGIN"], message: "admins needs OIDC_ISSUER: everyone else would have no way in" });
    // Every instance of a deployment signs and checks the same tokens: a secret made per instance would sign everyone out at each hop.
    if (env.DATABASE_URL && /^postgres(ql)?:/.test(env.DATABASE_URL.trim()) && !env.JWT_SECRET)
      ctx.addIssue({
        code: "custom",
        path: ["JWT_SECRET"],
        message: "is required when DATABASE_URL is a postgres:// URL (every instance must share it)",
      });
    // Bun's S3 client would fall back to other variables or send unsigned requests: name what is missing here instead.
    if (!env.STORAGE_URL) return;
    for (const name of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"] as const)
      if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when STORAGE_URL is set" });
  });

/** The rule between the remote-browser variables. */
const checked = schema.superRefine((env, ctx) => {
  const away = env.BROWSER_WS_ENDPOINTS.find((e) => !isLoopbackHost(new URL(e).hostname));
  if (away && !env.BROWSER_EGRESS_HOST) {
    ctx.addIssue({
      code: "custom",
      path: ["BROWSER_EGRESS_HOST"],
      message:
        "must be set when BROWSER_WS_ENDPOINTS names a browser server on another machine: it is the address that server's browser reaches this worker's egress proxy at",
    });
  }
});

export type Env = z.infer<typeof schema>;

/** Values that are or may carry credentials: a bad one is described, never echoed into the logs. */
const SECRET = new Set([
  "JWT_SECRET",
  // A postgres:// URL usually carries its password.
  "DATABASE_URL",
  "OIDC_CLIENT_SECRET",
  "SECRETS_KEY",
  "LLM_API_KEY",
  "SMTP_URL",
  "ALERT_WEBHOOK_URL",
  "AWS_SECRET_ACCESS_KEY",
  "BROWSER_WS_ENDPOINTS",
]);

/** Where capture egress proxies listen for remote browsers, and the address those browsers dial. */
export function browserEgress(env: Pick<Env, "BROWSER_EGRESS_HOST" | "BROWSER_EGRESS_LISTEN">): { listen: string; advertise: string } {
  const advertise = env.BROWSER_EGRESS_HOST ?? "127.0.0.1";
  const bare = advertise.replace(/^\[|\]$/g, "");
  return { listen: env.BROWSER_EGRESS_LISTEN ?? (isIP(bare) ? bare : "0.0.0.0"), advertise: bare };
}

export class EnvError extends Error {}

/** Validates the environment once; every bad variable gets its own line so an operator fixes them all in one go. */
export function loadEnv(
  // NODE_ENV is read by name so the compiled binary's build-time "production" applies.
  source: Record<string, string | undefined> = { ...process.env, NODE_ENV: process.env.NODE_ENV },
): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = checked.safeParse(cleaned);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const name = issue.path.join(".") || "environment";
    const value = source[name as string];
    const got =
      SECRET.has(name) && value !== undefined ? `a value of ${value.length} characters, not shown` : JSON.stringify(value ?? null);
    return `  ${name}: ${issue.message} (got ${got})`;
  });
  throw new EnvError(`Invalid configuration:\n${lines.join("\n")}`);
}
