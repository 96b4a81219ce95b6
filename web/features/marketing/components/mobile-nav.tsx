import { HamburgerMenuIcon } from "@radix-ui/react-icons";
import { IconButton } from "@radix-ui/themes";
import { lazy, Suspense, useState } from "react";

export interface MobileNavProps {
  user: { email: string; username: string | null } | null;
  /** How the signed-in visitor is named in the menu. */
  name: string | null;
  onLogout(): void;
}

const loadMenu = () => import("./mobile-nav-menu");
const MobileNavMenu = lazy(loadMenu);

/**
 * The small-screen menu button. It is drawn at once, as Radix's DropdownMenu.Trigger draws it; the
 * menu (Radix DropdownMenu, its positioning and focus handling) loads when the button is first
 * pressed, or hovered or focused just before, and replaces it already open.
 */
export function MobileNav(props: MobileNavProps) {
  const [used, setUsed] = useState(false);
  const prefetch = () => void loadMenu();
  const button = (
    <IconButton
      variant="soft"
      color="gray"
      aria-label="Open menu"
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onClick={() => setUsed(true)}
      onKeyDown={(e) => e.key === "ArrowDown" && setUsed(true)}
    >
      <HamburgerMenuIcon aria-hidden />
    </IconButton>
  );
  if (!used) return button;
  return (
    <Suspense fallback={button}>
      <MobileNavMenu {...props} />
    </Suspense>
  );
}
