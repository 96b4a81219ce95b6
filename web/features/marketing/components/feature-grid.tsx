import { AccessibilityIcon, BarChartIcon, CameraIcon, ColorWheelIcon, LockClosedIcon, ActivityLogIcon } from "@radix-ui/react-icons";
import { Container, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { FEATURES, type Feature } from "../content";
import { SectionHeading } from "./section-heading";

const ICONS: Record<Feature["icon"], typeof CameraIcon> = {
  camera: CameraIcon,
  palette: ColorWheelIcon,
  score: BarChartIcon,
  access: AccessibilityIcon,
  live: ActivityLogIcon,
  lock: LockClosedIcon,
};

export function FeatureGrid() {
  return (
    <section className="mk-section mk-section-alt" aria-labelledby="feature-grid-title">
      <Container size="4" px={{ initial: "4", md: "6" }}>
        <SectionHeading id="feature-grid-title" eyebrow="Under the hood" title="Everything a design spy needs" />
        <Grid columns={{ initial: "1", sm: "2", md: "3" }} gapX="6" gapY="7" mt="8">
          {FEATURES.map((f) => {
            const Icon = ICONS[f.icon];
            return (
              <Flex key={f.title} gap="4" align="start">
                <div className="mk-icon-tile mk-icon-small" aria-hidden>
                  <Icon width={18} height={18} />
                </div>
                <Flex direction="column" gap="1">
                  <Heading as="h3" size="4">
                    {f.title}
                  </Heading>
                  <Text as="p" size="2" color="gray">
                    {f.body}
                  </Text>
                </Flex>
              </Flex>
            );
          })}
        </Grid>
      </Container>
    </section>
  );
}
