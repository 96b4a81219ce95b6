// Everyone's own API keys (Settings). Types come from the server's schemas.
import type { ApiKeyScope, ApiKeyView, CreatedPersonalKey } from "#server/modules/api-keys/model";
import { api, call } from "#web/lib/api";

export type { ApiKeyScope, ApiKeyView, CreatedPersonalKey };

export const listMyKeys = () => call(api["api-keys"].get()).then((r) => r.keys);
export const createMyKey = (name: string, scope: ApiKeyScope) => call(api["api-keys"].post({ name, scope }));
export const revokeMyKey = (id: string) => call(api["api-keys"]({ id: encodeURIComponent(id) }).delete()).then((r) => r.apiKey);
