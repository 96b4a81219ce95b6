import { CheckIcon } from "@radix-ui/react-icons";
import { Badge, Button, Card, Container, Flex, Grid, Heading, Separator, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { PLANS, type Plan } from "../content";

export interface PricingCardsProps {
  /** 'Join Beta - Free' on the Professional card. */
  professionalCta: ReactNode;
  /** 'Contact Sales' on the Enterprise card. */
  enterpriseCta: ReactNode;
}

function PlanCard({ plan, action }: { plan: Plan; action: ReactNode }) {
  return (
    <Card asChild size="4" className={`mk-plan ${plan.popular ? "mk-plan-popular" : ""}`}>
      <article aria-labelledby={`plan-${plan.id}`}>
        <Flex direction="column" gap="4" height="100%">
          <Flex align="center" justify="between" gap="2">
            <Heading as="h2" size="5" id={`plan-${plan.id}`}>
              {plan.name}
            </Heading>
            {plan.popular && (
              <Badge radius="full" variant="solid">
                Most Popular
              </Badge>
            )}
          </Flex>
          <Text as="p" size="2" color="gray">
            {plan.tagline}
          </Text>
          <Flex align="baseline" gap="2" wrap="wrap">
            <Text className="mk-plan-price">{plan.price}</Text>
            <Text size="2" color="gray">
              {plan.priceNote}
            </Text>
          </Flex>
          {action}
          <Separator size="4" />
          <Flex asChild direction="column" gap="3">
            <ul className="mk-plain-list" aria-label={`${plan.name} includes`}>
              {plan.features.map((f) => (
                <li key={f}>
                  <Flex align="start" gap="2">
                    <CheckIcon className="mk-check mk-check-top" aria-hidden />
                    <Text size="2">{f}</Text>
                  </Flex>
                </li>
              ))}
            </ul>
          </Flex>
        </Flex>
      </article>
    </Card>
  );
}

export function PricingCards({ professionalCta, enterpriseCta }: PricingCardsProps) {
  const actions: Record<Plan["id"], ReactNode> = {
    // Starter is not on sale yet; the spec keeps its button visibly disabled.
    starter: (
      <Button size="3" variant="outline" disabled>
        Notify Me
      </Button>
    ),
    professional: professionalCta,
    enterprise: enterpriseCta,
  };
  return (
    <section className="mk-section mk-section-tight" aria-label="Plans">
      <Container size="4" px={{ initial: "4", md: "6" }}>
        <Grid columns={{ initial: "1", md: "3" }} gap="5" align="stretch" className="mk-plans">
          {PLANS.map((plan) => (
            <PlanCard key={plan.id} plan={plan} action={actions[plan.id]} />
          ))}
        </Grid>
      </Container>
    </section>
  );
}
