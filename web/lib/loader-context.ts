import type { PublicUser } from "../../src/modules/auth/model";
import { api } from "./api";

/** What the server hands route loaders: the signed-in user and an in-process API call as that user. */
export interface ServerLoaderContext {
  user: PublicUser | null;
  maintenance: boolean;
  fetchApi(path: string): Promise<Response>;
}

export const isServer = typeof window === "undefined";

function serverContext(context: unknown): ServerLoaderContext | null {
  return context && typeof context === "object" && "fetchApi" in context ? (context as ServerLoaderContext) : null;
}

/**
 * A loader's read: on the server it goes through the app in-process as the page's user,
 * in the browser through the normal client. Null when signed out, so guarded pages still render their guard.
 */
export async function loadJson<T>(context: unknown, path: string): Promise<T | null> {
  const server = serverContext(context);
  if (server) {
    if (!server.user) return null;
    const res = await server.fetchApi(path);
    // 503: maintenance mode; the app layout shows its maintenance screen instead of the page.
    if (res.status === 401 || res.status === 403 || res.status === 404 || res.status === 503) return null;
    if (!res.ok) throw new Error(`${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  }
  try {
    return await api<T>(path, { nullOn401: true });
  } catch {
    return null;
  }
}

export function serverUser(context: unknown): PublicUser | null {
  return serverContext(context)?.user ?? null;
}

export function serverMaintenance(context: unknown): boolean {
  return serverContext(context)?.maintenance ?? false;
}
