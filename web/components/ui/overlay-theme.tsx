import { ThemeContext } from "@radix-ui/themes/components/theme";
import { type ReactNode, useContext } from "react";
import { THEME_SETTINGS } from "#web/lib/theme-settings";

const noop = () => {};
const SITE_THEME = {
  ...THEME_SETTINGS,
  appearance: "inherit",
  resolvedGrayColor: THEME_SETTINGS.grayColor,
  panelBackground: "translucent",
  onAppearanceChange: noop,
  onAccentColorChange: noop,
  onGrayColorChange: noop,
  onPanelBackgroundChange: noop,
  onRadiusChange: noop,
  onScalingChange: noop,
} as const;

/**
 * A Radix Themes dialog or menu portals its content out of the page and re-applies the theme from
 * the context of the <Theme> above it. The marketing pages draw their theme element without that
 * module (web/features/marketing/components/theme-frame.tsx), so a lazily loaded overlay brings the context itself; under the app's
 * own <Theme> it is already there and left alone.
 */
export function OverlayTheme({ children }: { children: ReactNode }) {
  if (useContext(ThemeContext)) return children;
  return <ThemeContext value={SITE_THEME}>{children}</ThemeContext>;
}
