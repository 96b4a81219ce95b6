import "@radix-ui/themes/styles.css";
import "./styles.css";
import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { RouterProvider, createBrowserRouter } from "react-router";
import { routes } from "./routes";

declare global {
  interface Window {
    __staticRouterHydrationData?: { loaderData?: Record<string, unknown> };
  }
}

const hydrationData = window.__staticRouterHydrationData;
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
