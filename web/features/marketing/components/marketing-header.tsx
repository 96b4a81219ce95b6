import { ExitIcon, HamburgerMenuIcon } from "@radix-ui/react-icons";
import { Box, Button, Container, DropdownMenu, Flex, IconButton, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Logo } from "./logo";
import { HeaderLink } from "./nav-link";

export interface HeaderUser {
  email: string;
  username: string | null;
}

export interface MarketingHeaderProps {
  /** The signed-in visitor, or null. Decides which variant shows (spec §2 "Marketing header"). */
  user: HeaderUser | null;
  onLogout(): void;
  /** The 'Crash the Beta' control, shown to signed-out visitors. */
  betaCta: ReactNode;
  /** Extra controls at the far right, e.g. a theme toggle. */
  extras?: ReactNode;
}

/** Public site header: signed-out visitors get Sign In + Crash the Beta, signed-in ones get Dashboard + Escape. */
export function MarketingHeader({ user, onLogout, betaCta, extras }: MarketingHeaderProps) {
  const name = user ? user.username || user.email : null;
  return (
    <header className="mk-header">
      <Container size="4" px={{ initial: "4", md: "6" }}>
        <Flex align="center" justify="between" gap="4" className="mk-header-row">
          <Flex align="center" gap="6">
            <Logo />
            <Flex asChild align="center" gap="1" display={{ initial: "none", md: "flex" }}>
              <nav aria-label="Main">
                <HeaderLink to="/features">Features</HeaderLink>
                <HeaderLink to="/pricing">Pricing</HeaderLink>
                {user && <HeaderLink to="/comparison">Compare Websites</HeaderLink>}
              </nav>
            </Flex>
          </Flex>

          <Flex align="center" gap={{ initial: "2", sm: "3" }}>
            {user ? (
              <Flex align="center" gap="3" display={{ initial: "none", md: "flex" }}>
                <HeaderLink to="/dashboard">Dashboard</HeaderLink>
                <Text size="2" color="gray" className="mk-header-user" title={user.email}>
                  {name}
                </Text>
                <Button variant="soft" color="gray" onClick={onLogout}>
                  <ExitIcon aria-hidden /> Escape
                </Button>
              </Flex>
            ) : (
              <>
                <Box display={{ initial: "none", md: "block" }}>
                  <HeaderLink to="/login">Sign In</HeaderLink>
                </Box>
                {betaCta}
              </>
            )}
            {extras}
            <Box display={{ initial: "block", md: "none" }}>
              <DropdownMenu.Root>
                <DropdownMenu.Trigger>
                  <IconButton variant="soft" color="gray" aria-label="Open menu">
                    <HamburgerMenuIcon aria-hidden />
                  </IconButton>
                </DropdownMenu.Trigger>
                <DropdownMenu.Content align="end">
                  <DropdownMenu.Item asChild>
                    <Link to="/features">Features</Link>
                  </DropdownMenu.Item>
                  <DropdownMenu.Item asChild>
                    <Link to="/pricing">Pricing</Link>
                  </DropdownMenu.Item>
                  {user ? (
                    <>
                      <DropdownMenu.Item asChild>
                        <Link to="/comparison">Compare Websites</Link>
                      </DropdownMenu.Item>
                      <DropdownMenu.Item asChild>
                        <Link to="/dashboard">Dashboard</Link>
                      </DropdownMenu.Item>
                      <DropdownMenu.Separator />
                      <DropdownMenu.Label>{name}</DropdownMenu.Label>
                      <DropdownMenu.Item color="red" onSelect={onLogout}>
                        Escape
                      </DropdownMenu.Item>
                    </>
                  ) : (
                    <DropdownMenu.Item asChild>
                      <Link to="/login">Sign In</Link>
                    </DropdownMenu.Item>
                  )}
                </DropdownMenu.Content>
              </DropdownMenu.Root>
            </Box>
          </Flex>
        </Flex>
      </Container>
    </header>
  );
}
