import { Container, Flex, Grid, Text } from "@radix-ui/themes";
import { TECH_STACK } from "../content";
import { SectionHeading } from "./section-heading";

export function TechStack() {
  return (
    <section className="mk-section" aria-labelledby="stack-title">
      <Container size="4" px={{ initial: "4", md: "6" }}>
        <SectionHeading
          id="stack-title"
          eyebrow="Tech stack"
          title="Built on boringly reliable tech"
          lede="One self-hosted executable. No fleet of microservices to babysit."
        />
        <Grid columns={{ initial: "1", sm: "2", md: "3" }} gap="4" mt="8">
          {TECH_STACK.map((t) => (
            <Flex key={t.name} direction="column" gap="1" className="mk-stack-item">
              <Text size="3" weight="bold">
                {t.name}
              </Text>
              <Text size="2" color="gray">
                {t.note}
              </Text>
            </Flex>
          ))}
        </Grid>
      </Container>
    </section>
  );
}
