import { CheckIcon, ColumnsIcon, MagicWandIcon, MixerHorizontalIcon } from "@radix-ui/react-icons";
import { Card, Container, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { TOOLS, type Tool } from "../content";
import { SectionHeading } from "./section-heading";

const ICONS: Record<Tool["icon"], typeof ColumnsIcon> = {
  compare: ColumnsIcon,
  dna: MixerHorizontalIcon,
  fix: MagicWandIcon,
};

export function ToolCards() {
  return (
    <section className="mk-section" aria-labelledby="tools-title">
      <Container size="4" px={{ initial: "4", md: "6" }}>
        <SectionHeading
          id="tools-title"
          eyebrow="The toolkit"
          title="Three tools. Zero guesswork."
          lede="Everything you need to see what your competitors got right, what they got wrong, and what you should do about it."
        />
        <Grid columns={{ initial: "1", md: "3" }} gap="5" mt="8">
          {TOOLS.map((tool) => {
            const Icon = ICONS[tool.icon];
            return (
              <Card key={tool.title} size="3" className="mk-card-lift">
                <Flex direction="column" gap="3">
                  <div className="mk-icon-tile" aria-hidden>
                    <Icon width={20} height={20} />
                  </div>
                  <Heading as="h3" size="5">
                    {tool.title}
                  </Heading>
                  <Text as="p" size="2" color="gray">
                    {tool.body}
                  </Text>
                  <Flex asChild direction="column" gap="2" mt="1">
                    <ul className="mk-plain-list">
                      {tool.points.map((p) => (
                        <li key={p}>
                          <Flex align="center" gap="2">
                            <CheckIcon className="mk-check" aria-hidden />
                            <Text size="2">{p}</Text>
                          </Flex>
                        </li>
                      ))}
                    </ul>
                  </Flex>
                </Flex>
              </Card>
            );
          })}
        </Grid>
      </Container>
    </section>
  );
}
