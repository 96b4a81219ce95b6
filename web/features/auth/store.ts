import { create } from "zustand";
import type { PublicUser } from "../../../src/modules/auth/model";

export type AuthStatus = "loading" | "authenticated" | "unauthenticated";

interface AuthState {
  status: AuthStatus;
  user: PublicUser | null;
  accessToken: string | null;
  setSession(accessToken: string, user: PublicUser): void;
  setToken(accessToken: string): void;
  clear(): void;
  /** The server rendered this page for `user` (or for nobody); the client starts from there. */
  seed(user: PublicUser | null): void;
}

export const useAuth = create<AuthState>((set) => ({
  status: "loading",
  user: null,
  accessToken: null,
  setSession: (accessToken, user) => set({ status: "authenticated", accessToken, user }),
  setToken: (accessToken) => set({ accessToken }),
  clear: () => set({ status: "unauthenticated", user: null, accessToken: null }),
  seed: (user) => set(user ? { status: "authenticated", user } : { status: "unauthenticated", user: null }),
}));
