import { Button } from "@radix-ui/themes";
import { PublicHeader } from "#web/routes/layout/public-header";
import { AgentCards } from "#web/features/marketing/components/agent-cards";
import { BenefitCards } from "#web/features/marketing/components/benefit-cards";
import { CtaBand } from "#web/features/marketing/components/cta-band";
import { FeatureGrid } from "#web/features/marketing/components/feature-grid";
import { FeaturesHero } from "#web/features/marketing/components/features-hero";
import { MarketingPage } from "#web/features/marketing/components/marketing-page";
import { TechStack } from "#web/features/marketing/components/tech-stack";
import { BetaSignupDialog } from "#web/features/waitlist/components/beta-signup-dialog";

export const handle = { title: "Features" };

export function Component() {
  return (
    <MarketingPage header={<PublicHeader />}>
      <FeaturesHero
        cta={
          <BetaSignupDialog
            source="features-hero"
            trigger={
              <Button size="4" className="mk-glow-button">
                Start Free Beta
              </Button>
            }
          />
        }
      />
      <AgentCards />
      <FeatureGrid />
      <TechStack />
      <BenefitCards />
      <CtaBand
        id="features-cta-title"
        title="Ready to outsmart the competition?"
        lede="Put all four agents to work on your rivals today. The beta is free, the advantage is not."
        action={
          <BetaSignupDialog
            source="features-cta"
            trigger={
              <Button size="4" className="mk-cta-button">
                Start Free Beta
              </Button>
            }
          />
        }
      />
    </MarketingPage>
  );
}
