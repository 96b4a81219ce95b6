import { create } from "zustand";
import type { PublicUser } from "#server/modules/auth/model";

export type AuthStatus = "loading" | "authenticated" | "unauthenticated";

interface AuthState {
  status: AuthStatus;
  user: PublicUser | null;
  accessToken: string | null;
  setSession(accessToken: string, user: PublicUser): void;
  setToken(accessToken: string): void;
  clear(): void;
}

/**
 * The server rendered the page for some user (or nobody) and put that in the router's hydration
 * payload. Starting from it matters: zustand hydrates from the initial state, so it must equal
 * what the server saw or hydration fails.
 */
function initialSession(): Pick<AuthState, "status" | "user"> {
  if (typeof window === "undefined") return { status: "loading", user: null };
  const data = (window as { __staticRouterHydrationData?: { loaderData?: { root?: { user?: PublicUser | null } } } })
    .__staticRouterHydrationData;
  const root = data?.loaderData?.root;
  if (!root) return { status: "loading", user: null };
  return root.user ? { status: "authenticated", user: root.user } : { status: "unauthenticated", user: null };
}

export const useAuth = create<AuthState>((set) => ({
  ...initialSession(),
  accessToken: null,
  setSession: (accessToken, user) => set({ status: "authenticated", accessToken, user }),
  setToken: (accessToken) => set({ accessToken }),
  clear: () => set({ status: "unauthenticated", user: null, accessToken: null }),
}));
