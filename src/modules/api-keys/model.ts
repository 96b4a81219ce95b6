import { z } from "zod";
import { pagedAnswer, pagedSearchQuery } from "#server/http/paging";

/** Keys announce themselves, so the resolver can tell them from JWTs before verifying anything. */
export const API_KEY_PREFIX = "di_";
export const isApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

/** A person can hold this many live keys; revoking one frees a place. */
export const MAX_LIVE_KEYS = 50;

/** `read`: GET only. `run`: also create comparisons and targets and start runs (what CI needs). */
export const apiKeyScope = z.enum(["read", "run"], { error: 'Scope must be "read" or "run"' });
export type ApiKeyScope = z.infer<typeof apiKeyScope>;

const keyName = z
  .string({ error: "Key name is required" })
  .trim()
  .min(1, "Key name is required")
  .max(60, "Key name must be under 60 characters");

/** The admin console's form; keys it makes without a scope are `run` keys, as they were before scopes. */
export const createApiKeyBody = z.object({ name: keyName, scope: apiKeyScope.default("run") });
/** What the service takes: a scope left out means `run`, as for keys stored without a scope. */
export type CreateApiKeyInput = z.input<typeof createApiKeyBody>;

/** Settings: every user chooses the scope. */
export const createPersonalKeyBody = z.object({ name: keyName, scope: apiKeyScope });

export const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  scope: apiKeyScope,
  /** The key's first characters, for recognising it; never enough to use it. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;

/** The only answer that ever carries the key itself. */
export const createdApiKey = z.object({ key: z.string(), apiKey: apiKeyView });
export type CreatedApiKey = z.infer<typeof createdApiKey>;

/** POST /api/api-keys answers flat: the key once, beside what the list shows. */
export const createdPersonalKey = z.object({
  id: z.string(),
  name: z.string(),
  scope: apiKeyScope,
  key: z.string(),
  createdAt: z.string(),
});
export type CreatedPersonalKey = z.infer<typeof createdPersonalKey>;

export const apiKeyList = z.object({ keys: z.array(apiKeyView) });
export const revokedApiKey = z.object({ apiKey: apiKeyView });

/** The admin console's view of every user's keys: paged, searchable by owner e-mail or key name. */
export const allKeysQuery = pagedSearchQuery;
export type AllKeysQuery = z.infer<typeof allKeysQuery>;

/** A key with whose it is and the workspace it acts in; like every view, never the key or its hash. */
export const ownedApiKeyView = apiKeyView.extend({
  ownerId: z.string(),
  ownerEmail: z.string(),
  workspaceId: z.string(),
  workspaceName: z.string(),
});
export type OwnedApiKeyView = z.infer<typeof ownedApiKeyView>;

export const allKeysPage = pagedAnswer("keys", ownedApiKeyView);
export type AllKeysPage = z.infer<typeof allKeysPage>;

export const revokedOwnedKey = z.object({ apiKey: ownedApiKeyView });

/** GET /api/workspaces/:id/api-keys: every member's keys in the workspace (admins and owners). */
export const workspaceKeyList = z.object({ keys: z.array(ownedApiKeyView) });

/**
 * The writes a `run` key may make: what a CI job needs to start a comparison, and an admin's cron
 * backup (docs/operations.md; the route itself still requires the owner to be an admin). Every
 * other write (and every write for a `read` key) answers 403, so a new route is closed to keys
 * until listed here.
 */
const RUN_KEY_WRITES: [method: string, path: RegExp][] = [
  ["POST", /^\/api\/comparisons\/?$/],
  ["POST", /^\/api\/comparisons\/[^/]+\/targets\/?$/],
  ["POST", /^\/api\/comparisons\/[^/]+\/start\/?$/],
  ["POST", /^\/api\/admin\/backups\/?$/],
];

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Null when a key with this scope may make the request; otherwise why not. */
export function scopeRefusal(scope: ApiKeyScope, method: string, path: string): string | null {
  if (READS.has(method)) return null;
  if (scope === "run" && RUN_KEY_WRITES.some(([m, p]) => m === method && p.test(path))) return null;
  return scope === "read"
    ? "This API key can only read; use a key with the run scope"
    : "API keys can only create comparisons and targets, start runs and make backups; sign in to do this";
}
