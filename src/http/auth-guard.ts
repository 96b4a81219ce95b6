import { Elysia } from "elysia";
import type { PublicUser } from "../modules/auth/model";
import { forbidden, unauthorized } from "./errors";

export interface BearerResolver {
  (token: string): Promise<PublicUser | null>;
}

export function bearerToken(header: string | null | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  return m?.[1];
}

/**
 * `{ auth: 'user' }` or `{ auth: 'admin' }` on a route resolves `user` or answers 401/403.
 * Built per app so tests can run many apps against separate databases.
 */
export function authGuard(resolve: BearerResolver) {
  return new Elysia({ name: "auth-guard" }).macro({
    auth: (level: "user" | "admin") => ({
      async resolve({ headers }) {
        const token = bearerToken(headers.authorization);
        const user = token ? await resolve(token) : null;
        if (!user) throw unauthorized();
        if (level === "admin" && user.role !== "admin") throw forbidden();
        return { user };
      },
    }),
  });
}
