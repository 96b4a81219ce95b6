// Page roles as people read them, shared by the pages editor and the results' role switcher.
import type { PageRole } from "#server/modules/capture/model";

export const PAGE_ROLES = ["home", "pricing", "features", "signup", "blog", "docs", "other"] as const satisfies readonly PageRole[];

export const ROLE_LABELS: Record<PageRole, string> = {
  home: "Home",
  pricing: "Pricing",
  features: "Features",
  signup: "Sign-up",
  blog: "Blog",
  docs: "Docs",
  other: "Other",
};

export const ROLE_COLORS: Record<PageRole, "indigo" | "green" | "cyan" | "orange" | "purple" | "teal" | "gray"> = {
  home: "indigo",
  pricing: "green",
  features: "cyan",
  signup: "orange",
  blog: "purple",
  docs: "teal",
  other: "gray",
};

export const isPageRole = (v: unknown): v is PageRole => typeof v === "string" && (PAGE_ROLES as readonly string[]).includes(v);
