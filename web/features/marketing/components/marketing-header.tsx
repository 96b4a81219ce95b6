import { ExitIcon } from "@radix-ui/react-icons";
import { Box, Button, Container, Flex, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { MobileNav } from "./mobile-nav";
import { SiteNavLink } from "./site-link";
import { Logo } from "./logo";

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
                <SiteNavLink to="/features">Features</SiteNavLink>
                <SiteNavLink to="/pricing">Pricing</SiteNavLink>
                {user && <SiteNavLink to="/comparison">Compare Websites</SiteNavLink>}
              </nav>
            </Flex>
          </Flex>

          <Flex align="center" gap={{ initial: "2", sm: "3" }}>
            {user ? (
              <Flex align="center" gap="3" display={{ initial: "none", md: "flex" }}>
                <SiteNavLink to="/dashboard">Dashboard</SiteNavLink>
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
                  <SiteNavLink to="/login">Sign In</SiteNavLink>
                </Box>
                {betaCta}
              </>
            )}
            {extras}
            <Box display={{ initial: "block", md: "none" }}>
              <MobileNav user={user} name={name} onLogout={onLogout} />
            </Box>
          </Flex>
        </Flex>
      </Container>
    </header>
  );
}
