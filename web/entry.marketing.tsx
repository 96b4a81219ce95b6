// No stylesheet import: the server links the app's sheets (src/ssr/render.tsx), so both entries
// share them and a marketing page looks exactly as it did under the app entry.
import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import type { RootData } from "#web/features/auth/use-session";
import { MarketingRoot } from "#web/marketing-root";
import { MARKETING_PAGES } from "#web/features/marketing/pages";

declare global {
  interface Window {
    __staticRouterHydrationData?: { loaderData?: Record<string, unknown> };
    /** The route id of the marketing page the server rendered (src/ssr/render.tsx). */
    __marketingPage?: string;
  }
}

// The server preloaded this page's chunk beside the entry, so the import is no extra round trip.
const load = MARKETING_PAGES[window.__marketingPage ?? ""];
if (!load) throw new Error(`no marketing page "${window.__marketingPage}"`);
const { Component } = await load();
const root = window.__staticRouterHydrationData?.loaderData?.root as RootData;

hydrateRoot(
  document.getElementById("root")!,
  <StrictMode>
    <MarketingRoot root={root} pathname={window.location.pathname}>
      <Component />
    </MarketingRoot>
  </StrictMode>,
  {
    onRecoverableError(error) {
      console.error("hydration:", error);
    },
  },
);
