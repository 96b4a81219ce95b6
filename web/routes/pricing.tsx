import { Button } from "@radix-ui/themes";
import { PublicHeader } from "#web/routes/layout/public-header";
import { CtaBand } from "#web/features/marketing/components/cta-band";
import { Faq } from "#web/features/marketing/components/faq";
import { MarketingPage } from "#web/features/marketing/components/marketing-page";
import { PricingCards } from "#web/features/marketing/components/pricing-cards";
import { PricingHero } from "#web/features/marketing/components/pricing-hero";
import { BetaSignupDialog } from "#web/features/waitlist/components/beta-signup-dialog";

export const handle = { title: "Pricing" };

export function Component() {
  return (
    <MarketingPage header={<PublicHeader />}>
      <PricingHero />
      <PricingCards
        professionalCta={
          <BetaSignupDialog
            source="pricing-professional"
            title="Join the Professional beta"
            trigger={<Button size="3">Join Beta - Free</Button>}
          />
        }
        enterpriseCta={
          // The spec's Contact Sales did nothing; here it collects an address for the sales team.
          <BetaSignupDialog
            source="pricing-cta"
            title="Contact Sales"
            description="Leave your work e-mail and a human from our team will reach out about Enterprise."
            submitLabel="Contact Me"
            trigger={
              <Button size="3" variant="soft">
                Contact Sales
              </Button>
            }
          />
        }
      />
      <Faq />
      <CtaBand
        id="pricing-cta-title"
        title="Still reading? Just join the beta."
        lede="It's free while we're in beta, and you'll be first in line when the paid plans land."
        action={
          <BetaSignupDialog
            source="pricing-cta"
            trigger={
              <Button size="4" className="mk-cta-button">
                Join the Beta
              </Button>
            }
          />
        }
      />
    </MarketingPage>
  );
}
