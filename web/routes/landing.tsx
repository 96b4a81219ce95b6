import { PublicHeader } from "#web/routes/layout/public-header";
import { CtaBand } from "#web/features/marketing/components/cta-band";
import { HowItWorks } from "#web/features/marketing/components/how-it-works";
import { LandingHero } from "#web/features/marketing/components/landing-hero";
import { MarketingPage } from "#web/features/marketing/components/marketing-page";
import { StatsRow } from "#web/features/marketing/components/stats-row";
import { ToolCards } from "#web/features/marketing/components/tool-cards";
import { BetaSignupForm } from "#web/features/waitlist/components/beta-signup-form";

export const handle = { title: "Competitive design intelligence" };

export function Component() {
  return (
    <MarketingPage header={<PublicHeader />}>
      <LandingHero signupForm={<BetaSignupForm source="homepage" submitLabel="Crash the Beta" />} />
      <ToolCards />
      <StatsRow />
      <HowItWorks />
      <CtaBand
        id="landing-cta-title"
        title="Join the Rebellion"
        lede="Beta seats are going fast. Drop your e-mail and we'll slip you in before your competitors hear about it."
        action={<BetaSignupForm source="cta" submitLabel="Get Early Access" placeholder="your@email.com" />}
      />
    </MarketingPage>
  );
}
