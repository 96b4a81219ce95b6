import { BarChartIcon, CodeIcon, MagnifyingGlassIcon, TargetIcon } from "@radix-ui/react-icons";
import { Badge, Card, Container, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { AGENTS } from "../content";
import { SectionHeading } from "./section-heading";

const ICONS = {
  TrendHunter: MagnifyingGlassIcon,
  DesignNinja: CodeIcon,
  TestCommander: TargetIcon,
  InsightOracle: BarChartIcon,
} as const;

export function AgentCards() {
  return (
    <section className="mk-section" aria-labelledby="agents-title">
      <Container size="4" px={{ initial: "4", md: "6" }}>
        <SectionHeading
          id="agents-title"
          eyebrow="Meet the squad"
          title="Four agents, zero coffee breaks"
          lede="Each agent has one job and does it relentlessly. Launch them together from Mission Control."
        />
        <Grid columns={{ initial: "1", sm: "2", lg: "4" }} gap="5" mt="8">
          {AGENTS.map((agent) => {
            const Icon = ICONS[agent.name as keyof typeof ICONS] ?? MagnifyingGlassIcon;
            return (
              <Card key={agent.name} size="3" className="mk-card-lift">
                <Flex direction="column" gap="3">
                  <div className={`mk-icon-tile mk-icon-${agent.color}`} aria-hidden>
                    <Icon width={20} height={20} />
                  </div>
                  <Heading as="h3" size="5">
                    {agent.name}
                  </Heading>
                  <Badge color={agent.color} variant="soft" radius="full" style={{ alignSelf: "flex-start" }}>
                    {agent.role}
                  </Badge>
                  <Text as="p" size="2" color="gray">
                    {agent.body}
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
