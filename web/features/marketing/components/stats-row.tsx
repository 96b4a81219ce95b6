import { Container, Flex, Grid, Text } from "@radix-ui/themes";
import { STATS } from "../content";

/** Spec §1 headline figures. They are not measured by this install, and the caption says so. */
export function StatsRow() {
  return (
    <section className="mk-stats" aria-labelledby="stats-title">
      <Container size="4" px={{ initial: "4", md: "6" }}>
        <h2 id="stats-title" className="di-visually-hidden">
          Design Intel in numbers
        </h2>
        <Grid columns={{ initial: "2", md: "4" }} gap="5">
          {STATS.map((s) => (
            <Flex key={s.label} direction="column" align="center" gap="1">
              <Text className="mk-stat-value">{s.value}</Text>
              <Text size="2" color="gray">
                {s.label}
              </Text>
            </Flex>
          ))}
        </Grid>
        <Text as="p" size="1" color="gray" align="center" mt="5" className="mk-stats-caption">
          Marketing figures for the Design Intel service — not live measurements from this installation.
        </Text>
      </Container>
    </section>
  );
}
