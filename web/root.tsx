import { Theme } from "@radix-ui/themes";
import { Tooltip } from "radix-ui";
import { useEffect } from "react";
import { Outlet, type LoaderFunctionArgs, useLoaderData, useLocation } from "react-router";
import { startSession } from "./features/auth/session";
import { useAuth } from "./features/auth/store";
import { type RootData, RootDataContext } from "./features/auth/use-session";
import { SitePathContext } from "./features/marketing/components/site-link";
import { THEME_SETTINGS } from "./lib/theme-settings";
import { useTheme } from "./features/theme/store";
import { TitleSync } from "./components/layout/title-sync";
import { Toaster } from "./components/ui/toast";
import { isServer, serverMaintenance, serverSso, serverUser, serverWorkspace } from "./lib/loader-context";
import { RenderedWorkspaceContext, useWorkspaceStore } from "./lib/workspace";

/** Spec §9: tooltips open after 700 ms, and 300 ms after one closed the next opens at once. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

function renderedSso(): RootData["sso"] {
  const hydration = (window as { __staticRouterHydrationData?: { loaderData?: { root?: Partial<RootData> } } }).__staticRouterHydrationData;
  return hydration?.loaderData?.root?.sso ?? null;
}

export function rootLoader({ context }: LoaderFunctionArgs): RootData {
  if (isServer)
    return {
      user: serverUser(context),
      maintenance: serverMaintenance(context),
      sso: serverSso(context),
      workspace: serverWorkspace(context),
    };
  // A configuration value: the one the server rendered into this page stands until the next load.
  return { user: useAuth.getState().user, maintenance: false, sso: renderedSso(), workspace: useWorkspaceStore.getState().current };
}

export function Root() {
  const data = useLoaderData<RootData>();
  const { pathname } = useLocation();
  useEffect(() => {
    useTheme.getState().sync();
    // Effects run children first, so by now every listener of the first render is attached
    // (keyboard shortcuts included); browser tests wait for this mark before they type.
    document.documentElement.dataset.hydrated = "true";
    return startSession();
  }, []);
  return (
    <Theme {...THEME_SETTINGS} hasBackground>
      {/* Overrides the 200 ms that Radix Themes' own provider would use. */}
      <Tooltip.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
        <TitleSync />
        <RootDataContext value={data}>
          <RenderedWorkspaceContext value={data.workspace ?? null}>
            <SitePathContext value={pathname}>
              <Outlet />
            </SitePathContext>
          </RenderedWorkspaceContext>
        </RootDataContext>
        <Toaster />
      </Tooltip.Provider>
    </Theme>
  );
}
