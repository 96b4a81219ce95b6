import { DoubleArrowLeftIcon, DoubleArrowRightIcon, ExitIcon, GearIcon, MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { Avatar, Badge, Flex, IconButton, Kbd, Skeleton, Text, Tooltip } from "@radix-ui/themes";
import type { ReactNode, Ref } from "react";
import { Link, NavLink } from "react-router";
import { NAV_ITEMS } from "./nav-items";
import type { ShellAgent, ShellAgentStatus, ShellDataState, ShellUser } from "./types";

export interface SidebarProps {
  id?: string;
  ref?: Ref<HTMLElement>;
  /** Shown as the narrow-screen drawer: no collapse toggle there. */
  drawer?: boolean;
  collapsed: boolean;
  onToggleCollapsed(): void;
  user: ShellUser;
  agents: ShellAgent[];
  agentsState: ShellDataState;
  /** Activity entries not yet seen, for the Activity badge; the badge hides at 0. */
  activityBadge: string | null;
  onOpenPalette(): void;
  /** The palette's key chord as shown ("Ctrl K" or "⌘ K"). */
  paletteHint: string;
  onLogout(): void;
  loggingOut: boolean;
  /** The workspace switcher (the layout route composes it in), told whether the sidebar shows icons only. */
  workspace?(collapsed: boolean): ReactNode;
}

const STATUS_LABEL: Record<ShellAgentStatus, string> = {
  active: "Active",
  idle: "Idle",
  error: "Error",
  stopped: "Stopped",
};

/** In the narrow sidebar every control keeps its name in a tooltip. */
function Hint({ show, label, children }: { show: boolean; label: ReactNode; children: ReactNode }) {
  if (!show) return <>{children}</>;
  return (
    <Tooltip content={label} side="right">
      {children}
    </Tooltip>
  );
}

function initials(name: string): string {
  const parts = name.split(/[\s._@-]+/).filter(Boolean);
  const letters = (parts[0]?.[0] ?? "?") + (parts[1]?.[0] ?? "");
  return letters.toUpperCase();
}

function AgentList({ agents, state, collapsed }: { agents: ShellAgent[]; state: ShellDataState; collapsed: boolean }) {
  if (state === "loading")
    return (
      <Flex direction="column" gap="2" px="3" aria-busy>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} height="20px" />
        ))}
      </Flex>
    );
  if (agents.length === 0)
    return (
      <Text as="p" size="1" color="gray" className="di-sidebar-note di-collapsible">
        {state === "unavailable" ? "Agent status is unavailable right now." : "No agents reporting yet."}
      </Text>
    );
  return (
    <ul className="di-agent-list">
      {agents.map((a) => (
        <li key={a.id}>
          <Hint show={collapsed} label={`${a.name}: ${STATUS_LABEL[a.status]}`}>
            <span className="di-agent-row">
              <span className="di-status-dot" data-status={a.status} aria-hidden />
              <span className="di-collapsible">
                <Text size="2" truncate>
                  {a.name}
                </Text>
              </span>
              <span className="di-collapsible di-agent-status">
                <Text size="1" color="gray">
                  {STATUS_LABEL[a.status]}
                </Text>
              </span>
            </span>
          </Hint>
        </li>
      ))}
    </ul>
  );
}

export function Sidebar(p: SidebarProps) {
  const c = p.collapsed;
  return (
    <aside id={p.id} ref={p.ref} className="di-sidebar" aria-label="Sidebar">
      <Flex align="center" justify="between" gap="2" className="di-sidebar-top">
        <Link to="/dashboard" className="di-brand">
          <span className="di-brand-mark" aria-hidden />
          <span className="di-collapsible">
            <Text size="3" weight="bold">
              Design Intel
            </Text>
          </span>
        </Link>
        {!p.drawer && (
          <Tooltip content={c ? "Expand sidebar" : "Collapse sidebar"} side="right">
            <IconButton
              variant="ghost"
              color="gray"
              size="1"
              onClick={p.onToggleCollapsed}
              aria-label={c ? "Expand sidebar" : "Collapse sidebar"}
              aria-expanded={!c}
              className="di-collapse-toggle"
            >
              {c ? <DoubleArrowRightIcon /> : <DoubleArrowLeftIcon />}
            </IconButton>
          </Tooltip>
        )}
      </Flex>

      {p.workspace && <div className="di-sidebar-workspace">{p.workspace(c)}</div>}

      <div className="di-sidebar-search">
        <Hint show={c} label="Search (Ctrl+K)">
          <button
            type="button"
            className="di-search-button"
            onClick={p.onOpenPalette}
            aria-label="Search commands"
            aria-keyshortcuts="Control+K Meta+K"
          >
            <MagnifyingGlassIcon aria-hidden />
            <span className="di-collapsible di-search-label">
              <Text size="2" color="gray">
                Search...
              </Text>
            </span>
            <span className="di-collapsible" aria-hidden>
              <Kbd size="1" className="di-hint" data-hint={p.paletteHint} />
            </span>
          </button>
        </Hint>
      </div>

      <nav aria-label="Main" className="di-nav">
        <ul>
          {NAV_ITEMS.map((item) => {
            const Icon = item.icon;
            const badge = item.to === "/comparison" ? "New" : item.to === "/activity" ? p.activityBadge : null;
            const name = item.to === "/activity" && badge ? `${item.label}, ${badge} new` : badge ? `${item.label}, ${badge}` : item.label;
            return (
              <li key={item.to}>
                <Hint show={c} label={`${name} · ${item.shortcut}`}>
                  <NavLink to={item.to} className="di-nav-link" aria-label={name} aria-keyshortcuts={item.shortcut}>
                    <span className="di-nav-icon" aria-hidden>
                      <Icon width={16} height={16} />
                      {c && badge && <span className="di-nav-dot" />}
                    </span>
                    <span className="di-collapsible di-nav-label">{item.label}</span>{" "}
                    {badge && (
                      <span className="di-collapsible" aria-hidden>
                        <Badge size="1" color={item.to === "/comparison" ? "green" : "violet"} variant="soft" radius="full" highContrast>
                          {badge}
                        </Badge>
                      </span>
                    )}
                    <span className="di-collapsible" aria-hidden>
                      <Kbd size="1" className="di-hint" data-hint={item.shortcut} />
                    </span>
                  </NavLink>
                </Hint>
              </li>
            );
          })}
        </ul>
      </nav>

      <section className="di-sidebar-agents" aria-labelledby="di-agents-heading">
        <Flex align="center" justify="between" className="di-sidebar-heading">
          <span id="di-agents-heading" className="di-collapsible">
            <Text size="1" weight="bold" color="gray">
              AI Agents
            </Text>
          </span>
          {p.agents.length > 0 && (
            <span className="di-collapsible">
              <Text size="1" color="gray">
                {p.agents.filter((a) => a.status === "active").length}/{p.agents.length} active
              </Text>
            </span>
          )}
        </Flex>
        <AgentList agents={p.agents} state={p.agentsState} collapsed={c} />
      </section>

      <div className="di-sidebar-user">
        <Flex align="center" gap="2" className="di-user-row">
          <Avatar size="2" radius="full" fallback={initials(p.user.name)} color="violet" variant="soft" aria-hidden />
          <Flex direction="column" className="di-collapsible" style={{ minWidth: 0 }}>
            <Text size="2" weight="medium" truncate>
              {p.user.name}
            </Text>
            <Text size="1" color="gray" truncate>
              {p.user.email}
            </Text>
          </Flex>
        </Flex>
        <Flex direction={c ? "column" : "row"} gap="1" className="di-user-actions">
          <Hint show={c} label="Settings">
            <NavLink to="/settings" className="di-nav-link di-user-action">
              <span className="di-nav-icon" aria-hidden>
                <GearIcon width={16} height={16} />
              </span>
              <span className="di-collapsible di-nav-label">Settings</span>
            </NavLink>
          </Hint>
          <Hint show={c} label="Logout">
            <button type="button" className="di-nav-link di-user-action" onClick={p.onLogout} disabled={p.loggingOut}>
              <span className="di-nav-icon" aria-hidden>
                <ExitIcon width={16} height={16} />
              </span>
              <span className="di-collapsible di-nav-label">{p.loggingOut ? "Logging out..." : "Logout"}</span>
            </button>
          </Hint>
        </Flex>
      </div>
    </aside>
  );
}
