import { useRouteLoaderData } from "react-router";
import type { PublicUser } from "#server/modules/auth/model";
import { isServer } from "#web/lib/loader-context";
import { type AuthStatus, useAuth } from "./store";

export interface RootData {
  user: PublicUser | null;
  maintenance: boolean;
}

/**
 * The session as components should see it. On the server the module-level store is shared by
 * concurrent requests, so the answer comes from this request's root loader data instead.
 */
export function useSession(): { status: AuthStatus; user: PublicUser | null } {
  const root = useRouteLoaderData("root") as RootData | undefined;
  const status = useAuth((s) => s.status);
  const user = useAuth((s) => s.user);
  if (isServer) return { status: root?.user ? "authenticated" : "unauthenticated", user: root?.user ?? null };
  return { status, user };
}
