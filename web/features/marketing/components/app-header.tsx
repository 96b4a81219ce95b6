import { ExitIcon, GearIcon } from "@radix-ui/react-icons";
import { Badge, Container, Flex, IconButton, Tooltip } from "@radix-ui/themes";
import { Link } from "react-router";
import { Logo } from "./logo";
import { HeaderLink } from "./nav-link";

export interface AppHeaderProps {
  /** Whether the agent system runs; null while unknown. */
  systemActive: boolean | null;
  onLogout(): void;
  settingsHref?: string;
}

/** The marketing header's app variant (spec §2): app navigation, system badge, settings and logout. */
export function AppHeader({ systemActive, onLogout, settingsHref = "/settings" }: AppHeaderProps) {
  return (
    <header className="mk-header">
      <Container size="4" px={{ initial: "4", md: "6" }}>
        <Flex align="center" justify="between" gap="4" className="mk-header-row">
          <Flex align="center" gap={{ initial: "3", md: "6" }}>
            <Logo to="/dashboard" showBeta={false} />
            <Flex asChild align="center" gap="1">
              <nav aria-label="App">
                <HeaderLink to="/dashboard">Dashboard</HeaderLink>
                <HeaderLink to="/comparison">Compare Websites</HeaderLink>
              </nav>
            </Flex>
          </Flex>
          <Flex align="center" gap="3">
            <Badge color={systemActive ? "green" : "gray"} variant="soft" radius="full" size="2" role="status">
              <span className={systemActive ? "mk-pulse-dot" : "mk-idle-dot"} aria-hidden />
              {systemActive ? "System Active" : "System Offline"}
            </Badge>
            <Tooltip content="Settings">
              <IconButton asChild variant="ghost" color="gray" aria-label="Settings">
                <Link to={settingsHref}>
                  <GearIcon aria-hidden />
                </Link>
              </IconButton>
            </Tooltip>
            <Tooltip content="Log out">
              <IconButton variant="ghost" color="gray" aria-label="Log out" onClick={onLogout}>
                <ExitIcon aria-hidden />
              </IconButton>
            </Tooltip>
          </Flex>
        </Flex>
      </Container>
    </header>
  );
}
