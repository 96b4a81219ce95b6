import { ClockIcon, EyeOpenIcon, RocketIcon } from "@radix-ui/react-icons";
import { Card, Container, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { BENEFITS } from "../content";
import { SectionHeading } from "./section-heading";

const ICONS = [RocketIcon, EyeOpenIcon, ClockIcon] as const;

export function BenefitCards() {
  return (
    <section className="mk-section" aria-labelledby="benefits-title">
      <Container size="4" px={{ initial: "4", md: "6" }}>
        <SectionHeading id="benefits-title" eyebrow="Why teams switch" title="Less guessing, more winning" />
        <Grid columns={{ initial: "1", md: "3" }} gap="5" mt="8">
          {BENEFITS.map((b, i) => {
            const Icon = ICONS[i % ICONS.length] ?? RocketIcon;
            return (
              <Card key={b.title} size="3" className="mk-benefit">
                <Flex direction="column" gap="3">
                  <Icon width={22} height={22} className="mk-benefit-icon" aria-hidden />
                  <Heading as="h3" size="5">
                    {b.title}
                  </Heading>
                  <Text as="p" size="2" color="gray">
                    {b.body}
                  </Text>
                </Flex>
              </Card>
            );
          })}
        </Grid>
      </Container>
    </section>
  );
}
