import { CheckCircledIcon } from "@radix-ui/react-icons";
import { Badge, Container, Flex, Heading, Text } from "@radix-ui/themes";
import { PRICING_CLAIMS } from "../content";

export function PricingHero() {
  return (
    <section className="mk-hero mk-hero-compact" aria-labelledby="pricing-title">
      <div className="mk-hero-glow" aria-hidden />
      <Container size="3" px={{ initial: "4", md: "6" }}>
        <Flex direction="column" align="center" gap="4">
          <Badge size="2" radius="full" color="amber" variant="soft">
            Coming Soon
          </Badge>
          <Heading as="h1" id="pricing-title" size={{ initial: "8", md: "9" }} align="center" className="mk-hero-title">
            Pricing that <span className="mk-gradient-text">doesn't bite</span>
          </Heading>
          <Text as="p" size={{ initial: "3", md: "4" }} color="gray" align="center" className="mk-hero-lede">
            Paid plans land after the beta. Until then, beta operatives get the Professional toolkit for free.
          </Text>
          <Flex gap={{ initial: "3", sm: "5" }} wrap="wrap" justify="center" mt="2">
            {PRICING_CLAIMS.map((claim) => (
              <Flex key={claim} align="center" gap="2">
                <CheckCircledIcon className="mk-check" aria-hidden />
                <Text size="2" weight="medium">
                  {claim}
                </Text>
              </Flex>
            ))}
          </Flex>
        </Flex>
      </Container>
    </section>
  );
}
