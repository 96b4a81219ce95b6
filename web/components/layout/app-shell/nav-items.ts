import { ActivityLogIcon, BarChartIcon, DashboardIcon, LightningBoltIcon, MixIcon } from "@radix-ui/react-icons";
import type { ComponentType } from "react";

export interface NavItem {
  label: string;
  to: string;
  /** The digit that jumps here (spec §2: shortcuts 1 to 5). */
  shortcut: string;
  icon: ComponentType<{ width?: number; height?: number }>;
  description: string;
}

/** Sidebar order is the shortcut order. */
export const NAV_ITEMS: readonly NavItem[] = [
  {
    label: "Dashboard",
    to: "/dashboard",
    shortcut: "1",
    icon: DashboardIcon,
    description: "Mission Control: agents, KPIs and the live stream",
  },
  { label: "Compare", to: "/comparison", shortcut: "2", icon: MixIcon, description: "Put competitor websites side by side" },
  { label: "Trends", to: "/trends", shortcut: "3", icon: LightningBoltIcon, description: "What TrendHunter spotted lately" },
  { label: "Analytics", to: "/analytics", shortcut: "4", icon: BarChartIcon, description: "InsightOracle's numbers" },
  { label: "Activity", to: "/activity", shortcut: "5", icon: ActivityLogIcon, description: "Everything the agents did, newest first" },
];

export function navPathForShortcut(key: string): string | null {
  return NAV_ITEMS.find((i) => i.shortcut === key)?.to ?? null;
}

/** A readable name for a shell page, for pages whose route declares no title. */
export function labelForPath(path: string): string | null {
  if (path === "/settings") return "Settings";
  return NAV_ITEMS.find((i) => i.to === path)?.label ?? null;
}
