import { GearIcon, HamburgerMenuIcon, MagnifyingGlassIcon, MoonIcon, SunIcon, ViewVerticalIcon } from "@radix-ui/react-icons";
import type { Ref } from "react";
import { Flex, IconButton, Kbd, Separator, Text, Tooltip } from "@radix-ui/themes";
import { Link } from "react-router";
import { NotificationsButton } from "./notifications";
import { formatClock, formatRelative, useNow } from "./relative-time";
import type { ShellActivityItem, ShellDataState } from "./types";

export interface StatusBarProps {
  /** The narrow-screen drawer's menu button; null on wide screens. */
  menu?: { open: boolean; controls: string; ref: Ref<HTMLButtonElement>; onToggle(): void } | null;
  onSeenNotifications?(): void;
  systemActive: boolean | null;
  connected: boolean;
  /** ms since epoch of the last live message or data sync. */
  lastSync: number | null;
  agents: { active: number; total: number } | null;
  notifications: ShellActivityItem[];
  notificationsState: ShellDataState;
  notificationsBadge: string | null;
  railOpen: boolean;
  railId: string;
  onToggleRail(): void;
  theme: "light" | "dark";
  onToggleTheme(): void;
  onOpenPalette(): void;
  /** The palette's key chord as shown ("Ctrl K" or "⌘ K"). */
  paletteHint: string;
}

function Chip({ tone, label, className }: { tone: "green" | "red" | "gray" | "amber"; label: string; className?: string }) {
  return (
    <span className={`di-chip ${className ?? ""}`} data-tone={tone} title={label}>
      <span className="di-chip-dot" aria-hidden />
      <Text size="1" weight="medium">
        {label}
      </Text>
    </span>
  );
}

export function StatusBar(p: StatusBarProps) {
  // One tick drives both the clock and the relative sync time; null until mounted (see useNow).
  const now = useNow(1000);
  const system =
    p.systemActive === null
      ? { tone: "gray" as const, label: "System Unknown" }
      : p.systemActive
        ? { tone: "green" as const, label: "System Online" }
        : { tone: "red" as const, label: "System Offline" };
  const lastSync = now === null ? "--" : p.lastSync === null ? "never" : formatRelative(p.lastSync, now);
  const isDark = p.theme === "dark";

  return (
    <header className="di-statusbar">
      {p.menu && (
        <IconButton
          ref={p.menu.ref}
          variant="ghost"
          color="gray"
          className="di-menu-button"
          onClick={p.menu.onToggle}
          aria-label="Menu"
          aria-expanded={p.menu.open}
          aria-controls={p.menu.controls}
        >
          <HamburgerMenuIcon />
        </IconButton>
      )}
      <button
        type="button"
        className="di-quick-search"
        onClick={p.onOpenPalette}
        aria-label="Quick search"
        aria-keyshortcuts="Control+K Meta+K"
      >
        <MagnifyingGlassIcon aria-hidden />
        <Text size="2" color="gray" className="di-quick-search-text">
          Quick search...
        </Text>
        <Kbd size="1" aria-hidden className="di-hint" data-hint={p.paletteHint} />
      </button>

      <Flex align="center" gap="2" className="di-status-chips" role="group" aria-label="System status">
        <Chip tone={system.tone} label={system.label} />
        <Chip tone={p.connected ? "green" : "amber"} label={p.connected ? "Connected" : "Disconnected"} />
        <span className="di-status-meta di-hide-md">
          <Text size="1" color="gray">
            Last sync {lastSync}
          </Text>
        </span>
        <span className="di-status-meta di-hide-md">
          <Text size="1" color="gray">
            {p.agents === null ? "Agents --" : `${p.agents.total} agent${p.agents.total === 1 ? "" : "s"} · ${p.agents.active} active`}
          </Text>
        </span>
      </Flex>

      <Flex align="center" gap="4" className="di-statusbar-end">
        <time className="di-clock" dateTime={now === null ? undefined : new Date(now).toISOString()} aria-label="Current time">
          {now === null ? "--:--:--" : formatClock(now)}
        </time>
        <Separator orientation="vertical" size="1" />
        <NotificationsButton
          items={p.notifications}
          state={p.notificationsState}
          badge={p.notificationsBadge}
          onOpen={p.onSeenNotifications}
        />
        <Tooltip content={p.railOpen ? "Hide activity rail" : "Show activity rail"}>
          <IconButton
            variant={p.railOpen ? "soft" : "ghost"}
            color="gray"
            onClick={p.onToggleRail}
            aria-label="Activity rail"
            aria-pressed={p.railOpen}
            aria-controls={p.railOpen ? p.railId : undefined}
          >
            <ViewVerticalIcon />
          </IconButton>
        </Tooltip>
        <Tooltip content={isDark ? "Switch to light theme" : "Switch to dark theme"}>
          <IconButton
            variant="ghost"
            color="gray"
            onClick={p.onToggleTheme}
            aria-label={isDark ? "Switch to light theme" : "Switch to dark theme"}
          >
            {isDark ? <SunIcon /> : <MoonIcon />}
          </IconButton>
        </Tooltip>
        <Tooltip content="Settings">
          <IconButton asChild variant="ghost" color="gray" className="di-statusbar-settings">
            <Link to="/settings" aria-label="Settings">
              <GearIcon />
            </Link>
          </IconButton>
        </Tooltip>
      </Flex>
    </header>
  );
}
