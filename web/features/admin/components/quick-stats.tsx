import "./quick-stats.css";
import { Card, DataList, Heading } from "@radix-ui/themes";
import type { SystemMetrics } from "#server/modules/admin/model";
import { formatCount, formatUptime } from "../format";
import { Figure } from "./figure";

export function QuickStats({ metrics, loading }: { metrics: SystemMetrics; loading: boolean }) {
  return (
    <Card className="quick-stats">
      <Heading as="h2" size="4" mb="3">
        Quick Stats
      </Heading>
      <DataList.Root size="2">
        <DataList.Item>
          <DataList.Label>Uptime</DataList.Label>
          <DataList.Value>
            <Figure loading={loading} weight="medium" wrap="nowrap" data-testid="uptime" data-sampled-at={metrics.sampledAt}>
              {formatUptime(metrics.uptime)}
            </Figure>
          </DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Active Connections</DataList.Label>
          <DataList.Value>
            <Figure
              loading={loading}
              weight="medium"
              title={`${metrics.connections.http} HTTP, ${metrics.connections.sockets} live sockets`}
            >
              {formatCount(metrics.activeConnections)}
            </Figure>
          </DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Total Requests</DataList.Label>
          <DataList.Value>
            <Figure loading={loading} weight="medium">
              {formatCount(metrics.totalRequests)}
            </Figure>
          </DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Error Rate</DataList.Label>
          <DataList.Value>
            <Figure loading={loading} weight="medium">
              {metrics.errorRate}%
            </Figure>
          </DataList.Value>
        </DataList.Item>
      </DataList.Root>
    </Card>
  );
}
