import type { ReactNode } from "react";
import { THEME_SETTINGS } from "#web/lib/theme-settings";

/**
 * The element Radix Themes' root <Theme hasBackground> draws, without its module: that one also
 * brings Radix's tooltip provider (and through it the popper and floating-ui), which no marketing
 * page uses. The overlays that read the theme's context load with their own (web/components/ui/overlay-theme.tsx).
 * theme-frame.test.tsx pins this markup to what <Theme> renders.
 */
export function ThemeFrame({ children }: { children: ReactNode }) {
  return (
    <div
      data-is-root-theme="true"
      data-accent-color={THEME_SETTINGS.accentColor}
      data-gray-color={THEME_SETTINGS.grayColor}
      data-has-background="true"
      data-panel-background="translucent"
      data-radius={THEME_SETTINGS.radius}
      data-scaling={THEME_SETTINGS.scaling}
      className="radix-themes"
    >
      {children}
    </div>
  );
}
