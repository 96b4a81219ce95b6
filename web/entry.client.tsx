import "@radix-ui/themes/styles.css";
import "./styles.css";
import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { RouterProvider, createBrowserRouter } from "react-router";
import { useAuth } from "./features/auth/store";
import type { RootData } from "./features/auth/use-session";
import { routes } from "./routes";

declare global {
  interface Window {
    __staticRouterHydrationData?: { loaderData?: Record<string, unknown> };
  }
}

const hydrationData = window.__staticRouterHydrationData;
// The first client render must match the server's: start from the user the server rendered for.
const root = hydrationData?.loaderData?.root as RootData | undefined;
useAuth.getState().seed(root?.user ?? null);

const router = createBrowserRouter(routes, { hydrationData });

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
