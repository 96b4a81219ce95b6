import type { ComponentType } from "react";

/**
 * The pages served with the light entry (web/entry.marketing.tsx) instead of the app's: route id
 * (web/routes.tsx) -> its module. They are static copy plus a few islands (theme toggle, menu,
 * waitlist forms), so they need React and the Radix pieces they draw, not the data router.
 */
export const MARKETING_PAGES: Record<string, () => Promise<{ Component: ComponentType }>> = {
  landing: () => import("#web/routes/landing"),
  features: () => import("#web/routes/features"),
  pricing: () => import("#web/routes/pricing"),
  "not-found": () => import("#web/routes/not-found"),
};

export const isMarketingPage = (routeId: string | undefined): routeId is string => !!routeId && Object.hasOwn(MARKETING_PAGES, routeId);
