import { z } from "zod";

/** Keys announce themselves, so the resolver can tell them from JWTs before verifying anything. */
export const API_KEY_PREFIX = "di_";
export const isApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

export const createApiKeyBody = z.object({
  name: z
    .string({ error: "Key name is required" })
    .trim()
    .min(1, "Key name is required")
    .max(60, "Key name must be under 60 characters"),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeyBody>;

export const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
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
