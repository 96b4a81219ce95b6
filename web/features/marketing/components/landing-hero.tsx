import { CheckIcon } from "@radix-ui/react-icons";
import { Badge, Box, Container, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { ComparePreview } from "./compare-preview";

/** Landing hero: the pitch on the left, an illustration of a comparison on the right. */
export function LandingHero({ signupForm }: { signupForm: ReactNode }) {
  return (
    <section className="mk-hero" aria-labelledby="hero-title">
      <div className="mk-hero-glow" aria-hidden />
      <Container size="4" px={{ initial: "4", md: "6" }}>
        <Grid columns={{ initial: "1", md: "2" }} gap={{ initial: "8", md: "9" }} align="center">
          <Flex direction="column" gap="5">
            <Badge size="2" radius="full" variant="surface" className="mk-eyebrow">
              <span className="mk-pulse-dot" aria-hidden /> Private beta — seats are limited
            </Badge>
            <Heading as="h1" id="hero-title" size={{ initial: "8", md: "9" }} className="mk-hero-title">
              Steal your rivals' <span className="mk-gradient-text">best design moves</span>. Legally.
            </Heading>
            <Text as="p" size={{ initial: "3", md: "4" }} color="gray" className="mk-hero-lede">
              Design Intel puts competitor websites side by side and compares design, UX, copy and timing — then AI models hand you specific
              fixes, with the evidence attached.
            </Text>
            <Box className="mk-hero-form">{signupForm}</Box>
            <Flex gap="4" wrap="wrap">
              {["Free during beta", "No hidden fees", "Cancel anytime"].map((t) => (
                <Flex key={t} align="center" gap="1">
                  <CheckIcon className="mk-check" aria-hidden />
                  <Text size="2" color="gray">
                    {t}
                  </Text>
                </Flex>
              ))}
            </Flex>
          </Flex>
          <ComparePreview />
        </Grid>
      </Container>
    </section>
  );
}
