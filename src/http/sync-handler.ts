// Elysia guesses from a handler's source text whether it may return a promise: any `=> f(` or
// `return f(` counts (compose.ts, `matchFnReturn`), and a route with such a handler is compiled to
// `await` it on every request, even when it returns a plain value. Without the await the authenticated
// list costs ~15 % less CPU a request in process (the API hot-path rules: decision 0011).
//
// A bound function's source reads "[native code]", which that guess takes for synchronous. The same
// source is what Elysia reads to learn which parts of the request a handler uses (sucrose), so a
// wrapped handler must take only what the route's hooks provide anyway: the user from the auth
// guard, params (always routed), and `set`. The types below hold it to that and to a plain result.
import type { Context } from "elysia";
import type { PublicUser } from "#server/modules/auth/model";
import type { CurrentWorkspace } from "#server/modules/workspaces/model";

/**
 * What a wrapped handler may read: the user the auth guard resolved, the routed params, and `set`,
 * which Elysia always provides. Annotating a handler's context with it keeps the handler to these.
 */
export interface SyncContext<Params = Record<string, never>> {
  user: PublicUser;
  /** Set on routes guarded by a workspace role (workspace-guard). */
  workspace: CurrentWorkspace;
  params: Params;
  set: Context["set"];
}

/** `handler`, marked for Elysia as returning its answer without a promise. */
export function syncHandler<C extends Partial<SyncContext<unknown>>, R>(
  handler: (context: C) => R extends PromiseLike<unknown> ? never : R,
): (context: C) => R {
  return handler.bind(null) as (context: C) => R;
}
