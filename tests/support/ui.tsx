// Helpers for component tests (never imported by the app). Load it with a dynamic import after
// tests/support/dom, like every module that pulls in react-dom.
import { Theme } from "@radix-ui/themes";
import { render, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { Toaster, useToasts } from "#web/components/ui/toast";

/** Queries over the whole document (portals included). */
export const $ = () => within(document.body);

/** Renders inside the Radix theme, a router at `path` (for <Link> and search params) and the toaster. */
export function renderUi(node: ReactNode, path = "/") {
  useToasts.setState({ current: null });
  const router = createMemoryRouter(
    [
      {
        path: "*",
        element: (
          <Theme>
            {node}
            <Toaster />
          </Theme>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  return { ...render(<RouterProvider router={router} />), router };
}

export interface FetchCall {
  method: string;
  path: string;
  body: unknown;
  authorization?: string;
  /** The `X-Workspace-Id` the call named, when it named one. */
  workspace?: string;
}

/** A JSON body (a string is sent as HTML), or a blob sent with its own type. */
export type Answer = { status?: number; json?: unknown; blob?: Blob };
type Handler = (call: FetchCall) => Answer | undefined;

/** Replaces fetch with a router over "METHOD /path" keys; unknown requests answer 404. */
export function mockFetch(routes: Record<string, Handler | Answer>) {
  const calls: FetchCall[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://localhost");
    const method = (init?.method ?? "GET").toUpperCase();
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    const headers = new Headers(init?.headers);
    const authorization = headers.get("authorization") ?? undefined;
    const workspace = headers.get("x-workspace-id") ?? undefined;
    const call: FetchCall = {
      method,
      path: url.pathname + url.search,
      body,
      ...(authorization ? { authorization } : {}),
      ...(workspace ? { workspace } : {}),
    };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}`];
    const answer = typeof route === "function" ? route(call) : route;
    const status = answer?.status ?? (route ? 200 : 404);
    if (answer?.blob) return new Response(answer.blob, { status, headers: { "content-type": answer.blob.type } });
    const payload = answer?.json ?? (route ? {} : { error: "Not found" });
    const text = typeof payload === "string" ? payload : JSON.stringify(payload);
    return new Response(status === 204 ? null : text, {
      status,
      headers: { "content-type": typeof payload === "string" ? "text/html" : "application/json" },
    });
  }) as typeof fetch;
  return { calls, restore: () => void (globalThis.fetch = original) };
}
