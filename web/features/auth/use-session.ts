import { createContext, useContext } from "react";
import type { PublicUser } from "#server/modules/auth/model";
import type { CurrentWorkspace } from "#server/modules/workspaces/model";
import { isServer } from "#web/lib/loader-context";
import { type AuthStatus, useAuth } from "./store";

export interface RootData {
  user: PublicUser | null;
  maintenance: boolean;
  /** Single sign-on as the server offers it ("Continue with <name>"), or null when it is off. */
  sso: { name: string } | null;
  /** The workspace the server rendered the page in (signed in), so the first client render agrees. */
  workspace?: CurrentWorkspace | null;
}

/**
 * The root loader's answer, provided by web/root.tsx under the data router and by the marketing
 * pages' own root (which run without the router, so this cannot be read with useRouteLoaderData).
 */
export const RootDataContext = createContext<RootData | undefined>(undefined);

/**
 * The session as components should see it. On the server the module-level store is shared by
 * concurrent requests, so the answer comes from this request's root loader data instead.
 */
export function useSession(): { status: AuthStatus; user: PublicUser | null } {
  const root = useContext(RootDataContext);
  const status = useAuth((s) => s.status);
  const user = useAuth((s) => s.user);
  if (isServer) return { status: root?.user ? "authenticated" : "unauthenticated", user: root?.user ?? null };
  return { status, user };
}

/** Single sign-on as the server rendered it into this page, or null when it is off. */
export function useSso(): { name: string } | null {
  return useContext(RootDataContext)?.sso ?? null;
}
