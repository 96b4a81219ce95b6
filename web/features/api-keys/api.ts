// Everyone's own API keys (Settings). Types come from the server's schemas.
import type { ApiKeyScope, ApiKeyView, CreatedPersonalKey } from "../../../src/modules/api-keys/model";
import { api } from "../../lib/api";

export type { ApiKeyScope, ApiKeyView, CreatedPersonalKey };

export const listMyKeys = () => api<{ keys: ApiKeyView[] }>("/api/api-keys").then((r) => r.keys);
export const createMyKey = (name: string, scope: ApiKeyScope) => api<CreatedPersonalKey>("/api/api-keys", { body: { name, scope } });
export const revokeMyKey = (id: string) =>
  api<{ apiKey: ApiKeyView }>(`/api/api-keys/${encodeURIComponent(id)}`, { method: "DELETE" }).then((r) => r.apiKey);
