import type { PublicUser } from "#server/modules/auth/model";
import type { CurrentWorkspace } from "#server/modules/workspaces/model";
import { type Answer, ApiError, type Client, type Ok, api, call, createClient, toError } from "./api";

/** What the server hands route loaders: the signed-in user and an in-process API call as that user. */
export interface ServerLoaderContext {
  user: PublicUser | null;
  maintenance: boolean;
  /** Single sign-on when the server offers it (the sign-in page's button). */
  sso: { name: string } | null;
  /** The workspace the page is rendered in; the loaders' calls read it. */
  workspace?: CurrentWorkspace | null;
  fetchApi(path: string): Promise<Response>;
}

export const isServer = typeof window === "undefined";

function serverContext(context: unknown): ServerLoaderContext | null {
  return context && typeof context === "object" && "fetchApi" in context ? (context as ServerLoaderContext) : null;
}

/** Answers a loader renders as "nothing" (503: maintenance; the app layout shows its own screen). */
const EMPTY_ON = new Set([401, 403, 404, 503]);

/** The typed client over the in-process app, as the page's user; loaders only read (GET). */
function inProcess(server: ServerLoaderContext): Client {
  return createClient(async (input) => {
    const res = await server.fetchApi(String(input));
    if (!res.ok) throw await toError(res);
    return res;
  });
}

/**
 * A loader's read: on the server it goes through the app in-process as the page's user,
 * in the browser through the normal client. Null when signed out, so guarded pages still render their guard.
 */
export async function load<R extends Answer>(context: unknown, pick: (client: Client) => Promise<R>): Promise<Ok<R> | null> {
  const server = serverContext(context);
  if (server) {
    if (!server.user) return null;
    try {
      return await call(pick(inProcess(server)));
    } catch (err) {
      if (err instanceof ApiError && EMPTY_ON.has(err.status)) return null;
      throw err;
    }
  }
  try {
    return await call(pick(api), { nullOn401: true });
  } catch {
    return null;
  }
}

/**
 * A read that needs no account (what a share link opens): on the server through the app in-process
 * whoever is signed in, in the browser through the normal client. Null when the API answers 404.
 */
export async function loadPublic<R extends Answer>(context: unknown, pick: (client: Client) => Promise<R>): Promise<Ok<R> | null> {
  const server = serverContext(context);
  try {
    return await call(pick(server ? inProcess(server) : api));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export function serverUser(context: unknown): PublicUser | null {
  return serverContext(context)?.user ?? null;
}

export function serverMaintenance(context: unknown): boolean {
  return serverContext(context)?.maintenance ?? false;
}

export function serverSso(context: unknown): { name: string } | null {
  return serverContext(context)?.sso ?? null;
}

export function serverWorkspace(context: unknown): CurrentWorkspace | null {
  return serverContext(context)?.workspace ?? null;
}
