import { CodeIcon, CounterClockwiseClockIcon, GearIcon, MixIcon, PlusIcon } from "@radix-ui/react-icons";
import type { ComponentType } from "react";
import { NAV_ITEMS } from "./nav-items";

export type CommandCategory = "Recent" | "Navigation" | "Actions";

export interface PaletteCommand {
  id: string;
  label: string;
  description: string;
  category: CommandCategory;
  to: string;
  shortcut?: string;
  icon: ComponentType<{ width?: number; height?: number }>;
}

/** A page visited earlier in this browser session. */
export interface RecentPage {
  path: string;
  title: string;
}

const NAV_LABELS: Record<string, string> = { "/comparison": "Compare Websites" };

export const BASE_COMMANDS: readonly PaletteCommand[] = [
  ...NAV_ITEMS.map((item) => ({
    id: `nav-${item.to.slice(1)}`,
    label: NAV_LABELS[item.to] ?? item.label,
    description: item.description,
    category: "Navigation" as const,
    to: item.to,
    shortcut: item.shortcut,
    icon: item.icon,
  })),
  {
    id: "nav-tests",
    label: "A/B Tests",
    description: "TestCommander's experiments and their statistics",
    category: "Navigation",
    to: "/tests",
    icon: MixIcon,
  },
  {
    id: "nav-generate",
    label: "Generated Components",
    description: "DesignNinja's components: preview, copy, download",
    category: "Navigation",
    to: "/generate",
    icon: CodeIcon,
  },
  {
    id: "action-new-comparison",
    label: "New Comparison",
    description: "Name a project and line up the competitors",
    category: "Actions",
    to: "/comparison",
    icon: PlusIcon,
  },
  {
    id: "action-settings",
    label: "Settings",
    description: "Profile and theme",
    category: "Actions",
    to: "/settings",
    icon: GearIcon,
  },
];

/**
 * Every word of the query must appear in the label, description or category (case-insensitive).
 * The Recent entry belongs to the empty query only: once typing starts, it is commands that are searched.
 */
export function filterCommands(query: string, recent: RecentPage | null): PaletteCommand[] {
  const terms = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) {
    const recentCommand: PaletteCommand[] = recent
      ? [
          {
            id: "recent",
            label: recent.title,
            description: recent.path,
            category: "Recent",
            to: recent.path,
            icon: CounterClockwiseClockIcon,
          },
        ]
      : [];
    return [...recentCommand, ...BASE_COMMANDS];
  }
  return BASE_COMMANDS.filter((c) => {
    const haystack = `${c.label}\n${c.description}\n${c.category}`.toLowerCase();
    return terms.every((t) => haystack.includes(t));
  });
}
