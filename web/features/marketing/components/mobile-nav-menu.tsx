import { HamburgerMenuIcon } from "@radix-ui/react-icons";
import { DropdownMenu, IconButton } from "@radix-ui/themes";
import type { MobileNavProps } from "./mobile-nav";
import { OverlayTheme } from "#web/components/ui/overlay-theme";
import { SiteLink } from "./site-link";

/** The small-screen menu itself, loaded when its button is first pressed (see ./mobile-nav). It opens at once. */
export default function MobileNavMenu({ user, name, onLogout }: MobileNavProps) {
  return (
    <OverlayTheme>
      <DropdownMenu.Root defaultOpen>
        <DropdownMenu.Trigger>
          <IconButton variant="soft" color="gray" aria-label="Open menu">
            <HamburgerMenuIcon aria-hidden />
          </IconButton>
        </DropdownMenu.Trigger>
        <DropdownMenu.Content align="end">
          <DropdownMenu.Item asChild>
            <SiteLink to="/features">Features</SiteLink>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild>
            <SiteLink to="/pricing">Pricing</SiteLink>
          </DropdownMenu.Item>
          {user ? (
            <>
              <DropdownMenu.Item asChild>
                <SiteLink to="/comparison">Compare Websites</SiteLink>
              </DropdownMenu.Item>
              <DropdownMenu.Item asChild>
                <SiteLink to="/dashboard">Dashboard</SiteLink>
              </DropdownMenu.Item>
              <DropdownMenu.Separator />
              <DropdownMenu.Label>{name}</DropdownMenu.Label>
              <DropdownMenu.Item color="red" onSelect={onLogout}>
                Escape
              </DropdownMenu.Item>
            </>
          ) : (
            <DropdownMenu.Item asChild>
              <SiteLink to="/login">Sign In</SiteLink>
            </DropdownMenu.Item>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Root>
    </OverlayTheme>
  );
}
