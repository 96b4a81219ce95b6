import { Badge, Container, Flex, Heading, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";

export function FeaturesHero({ cta }: { cta: ReactNode }) {
  return (
    <section className="mk-hero mk-hero-compact" aria-labelledby="features-title">
      <div className="mk-hero-glow" aria-hidden />
      <Container size="3" px={{ initial: "4", md: "6" }}>
        <Flex direction="column" align="center" gap="5">
          <Badge size="2" radius="full" variant="surface" className="mk-eyebrow">
            <span className="mk-pulse-dot" aria-hidden /> Four agents. One mission.
          </Badge>
          <Heading as="h1" id="features-title" size={{ initial: "8", md: "9" }} align="center" className="mk-hero-title">
            Your unfair advantage, <span className="mk-gradient-text">fully automated</span>
          </Heading>
          <Text as="p" size={{ initial: "3", md: "4" }} color="gray" align="center" className="mk-hero-lede">
            A squad of AI agents that discovers trends, builds components, runs experiments and reads your analytics — while the comparison
            engine tears down every competitor you point it at.
          </Text>
          {cta}
        </Flex>
      </Container>
    </section>
  );
}
