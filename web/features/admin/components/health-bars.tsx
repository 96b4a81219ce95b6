import { Card, Flex, Heading, Progress, Text } from "@radix-ui/themes";
import type { SystemMetrics } from "#server/modules/admin/model";
import { barColor } from "../format";
import { Figure } from "./figure";

function Bar({ label, value, color, loading }: { label: string; value: number; color: "green" | "amber" | "red"; loading: boolean }) {
  const id = `health-${label.toLowerCase()}`;
  return (
    <Flex direction="column" gap="1">
      <Flex justify="between">
        <Text size="2" id={id}>
          {label}
        </Text>
        <Figure loading={loading} size="2" weight="medium">
          {value}%
        </Figure>
      </Flex>
      <Progress value={value} max={100} color={loading ? "gray" : color} aria-labelledby={id} size="2" />
    </Flex>
  );
}

/** Bars turn amber and red at the same lines as the health badge (disk: 80 and 90). */
export function HealthBars({ metrics, loading }: { metrics: SystemMetrics; loading: boolean }) {
  return (
    <Card>
      <Heading as="h2" size="4" mb="3">
        System Health
      </Heading>
      <Flex direction="column" gap="3">
        <Bar label="CPU" value={metrics.cpu} color={barColor(metrics.cpu, 70, 90)} loading={loading} />
        <Bar label="Memory" value={metrics.memory} color={barColor(metrics.memory, 80, 90)} loading={loading} />
        <Bar label="Disk" value={metrics.disk} color={barColor(metrics.disk, 80, 90)} loading={loading} />
      </Flex>
    </Card>
  );
}
