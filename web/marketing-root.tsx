import { type ReactNode, useEffect } from "react";
import { startSession } from "#web/features/auth/session";
import { type RootData, RootDataContext } from "#web/features/auth/use-session";
import { useTheme } from "#web/features/theme/store";
import { LazyToaster } from "#web/features/marketing/components/lazy-toaster";
import { SitePathContext } from "#web/features/marketing/components/site-link";
import { ThemeFrame } from "#web/features/marketing/components/theme-frame";

/**
 * The frame of a marketing page, rendered alike by the server (src/ssr/render.tsx) and by
 * web/entry.marketing.tsx: what web/root.tsx gives every page (theme, session, toasts, the
 * hydrated mark), without the data router, which these pages do not need.
 */
export function MarketingRoot({ root, pathname, children }: { root: RootData; pathname: string; children: ReactNode }) {
  useEffect(() => {
    useTheme.getState().sync();
    // Browser tests wait for this mark before they type, as on every other page.
    document.documentElement.dataset.hydrated = "true";
    return startSession();
  }, []);
  return (
    <ThemeFrame>
      <RootDataContext value={root}>
        <SitePathContext value={pathname}>{children}</SitePathContext>
      </RootDataContext>
      <LazyToaster />
    </ThemeFrame>
  );
}
