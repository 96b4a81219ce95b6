import { Card, Container, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { STEPS } from "../content";
import { SectionHeading } from "./section-heading";

/** The three-step explainer (spec §2 "Landing page"). */
export function HowItWorks() {
  return (
    <section className="mk-section" aria-labelledby="steps-title">
      <Container size="4" px={{ initial: "4", md: "6" }}>
        <SectionHeading id="steps-title" eyebrow="How it works" title="From URL to unfair advantage in three moves" />
        <Grid asChild columns={{ initial: "1", md: "3" }} gap="5" mt="8">
          <ol className="mk-plain-list mk-steps">
            {STEPS.map((step, i) => (
              <li key={step.title}>
                <Card size="3" className="mk-step-card">
                  <Flex direction="column" gap="3">
                    <span className="mk-step-number" aria-hidden>
                      {i + 1}
                    </span>
                    <Heading as="h3" size="5">
                      {step.title}
                    </Heading>
                    <Text as="p" size="2" color="gray">
                      {step.body}
                    </Text>
                  </Flex>
                </Card>
              </li>
            ))}
          </ol>
        </Grid>
      </Container>
    </section>
  );
}
