import "@radix-ui/themes/styles.css";
import "./styles.css";
import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { RouterProvider, createBrowserRouter, matchRoutes, type RouteObject } from "react-router";
import { routes } from "./routes";

declare global {
  interface Window {
    __staticRouterHydrationData?: { loaderData?: Record<string, unknown> };
  }
}

/**
 * The server rendered the matched pages from their modules; the router must start with the same
 * modules in place, or it would render nothing for them and re-run their loaders. (Their chunks
 * are already preloaded by the document head, so this costs no extra round trip.)
 */
async function resolveMatchedLazyRoutes(): Promise<void> {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== "function") return;
      const mod = await route.lazy();
      Object.assign(route, mod, { lazy: undefined } satisfies Partial<RouteObject>);
    }),
  );
}

await resolveMatchedLazyRoutes();
const router = createBrowserRouter(routes, { hydrationData: window.__staticRouterHydrationData });

hydrateRoot(
  document.getElementById("root")!,
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
  {
    onRecoverableError(error) {
      console.error("hydration:", error);
    },
  },
);
