import { Elysia } from "elysia";
import { bearerToken } from "#server/http/auth-guard";
import { forbidden } from "#server/http/errors";
import { isApiKey, scopeRefusal } from "./model";
import type { ApiKeyService } from "./service";

/**
 * Runs first on every request. `X-API-Key: <key>` is the same credential as `Authorization: Bearer
 * <key>` (CI tools often only offer one of them), so it is turned into the bearer header every guard
 * reads. A key's scope is enforced here, before any route, guard or body validation, so a route
 * never has to remember it: writes a key's scope does not allow answer 403.
 */
export function apiKeyGate(keys: Pick<ApiKeyService, "scopeOf">) {
  return new Elysia({ name: "api-key-gate" }).onRequest(async ({ request }) => {
    const headerKey = request.headers.get("x-api-key");
    if (headerKey && !request.headers.has("authorization")) request.headers.set("authorization", `Bearer ${headerKey.trim()}`);
    const token = bearerToken(request.headers.get("authorization"));
    if (!token || !isApiKey(token)) return;
    const scope = await keys.scopeOf(token);
    if (!scope) return;
    const refusal = scopeRefusal(scope, request.method, new URL(request.url).pathname);
    if (refusal) throw forbidden(refusal);
  });
}
