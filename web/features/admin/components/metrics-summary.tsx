import { Badge, Card, Flex, Grid, Text } from "@radix-ui/themes";
import { DesktopIcon, LayersIcon, MixIcon, UpdateIcon } from "@radix-ui/react-icons";
import type { ReactNode } from "react";
import type { SystemMetrics } from "#server/modules/admin/model";
import { formatRate } from "../format";
import { Figure } from "./figure";

function Tile({ icon, label, value, hint, loading }: { icon: ReactNode; label: string; value: string; hint: string; loading: boolean }) {
  return (
    <Card>
      <Flex direction="column" gap="1">
        <Flex align="center" gap="2">
          <span aria-hidden="true">{icon}</span>
          <Text size="2" color="gray">
            {label}
          </Text>
        </Flex>
        <Figure loading={loading} size="6" weight="bold">
          {value}
        </Figure>
        <Text size="1" color="gray">
          {hint}
        </Text>
      </Flex>
    </Card>
  );
}

export function MetricsSummary({ metrics, loading }: { metrics: SystemMetrics; loading: boolean }) {
  return (
    <section aria-labelledby="admin-metrics-heading">
      <Flex align="center" gap="2" mb="2">
        <Text as="p" id="admin-metrics-heading" weight="bold" size="3">
          System Metrics
        </Text>
        {loading && (
          <Badge color="gray" variant="surface">
            Loading live figures…
          </Badge>
        )}
      </Flex>
      <Grid columns={{ initial: "2", md: "4" }} gap="3">
        <Tile icon={<DesktopIcon />} label="CPU Usage" value={`${metrics.cpu}%`} hint="Host, last few seconds" loading={loading} />
        <Tile icon={<MixIcon />} label="Memory Usage" value={`${metrics.memory}%`} hint="Host memory in use" loading={loading} />
        <Tile icon={<LayersIcon />} label="Disk Usage" value={`${metrics.disk}%`} hint="Filesystem holding the data" loading={loading} />
        <Tile
          icon={<UpdateIcon />}
          label="Network"
          value={metrics.network ? `↓ ${formatRate(metrics.network.in)}` : "n/a"}
          hint={metrics.network ? `↑ ${formatRate(metrics.network.out)} out` : "No kernel counters on this host"}
          loading={loading}
        />
      </Grid>
    </section>
  );
}
