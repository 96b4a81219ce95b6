import { MoonIcon, SunIcon } from "@radix-ui/react-icons";
import { Button, IconButton } from "@radix-ui/themes";
import { logout } from "#web/features/auth/session";
import { useSession } from "#web/features/auth/use-session";
import { MarketingHeader } from "#web/features/marketing/components/marketing-header";
import { useTheme } from "#web/features/theme/store";
import { BetaSignupDialog } from "#web/features/waitlist/components/beta-signup-dialog";

/**
 * The marketing header wired to the session, the waitlist and the theme; public pages use this.
 * It composes four features, so it sits with the routes rather than in web/components.
 */
export function PublicHeader() {
  const { user } = useSession();
  const theme = useTheme((s) => s.theme);
  const toggle = useTheme((s) => s.toggle);
  return (
    <MarketingHeader
      user={user}
      onLogout={() => void logout()}
      betaCta={<BetaSignupDialog source="header" trigger={<Button className="mk-glow-button">Crash the Beta</Button>} />}
      extras={
        <IconButton
          variant="ghost"
          color="gray"
          onClick={toggle}
          aria-label={theme === "dark" ? "Switch to light theme" : "Switch to dark theme"}
        >
          {theme === "dark" ? <SunIcon aria-hidden /> : <MoonIcon aria-hidden />}
        </IconButton>
      }
    />
  );
}
