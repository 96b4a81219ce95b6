import { ArrowDownIcon, ArrowRightIcon, ArrowUpIcon } from "@radix-ui/react-icons";
import { Badge, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { Link } from "react-router";
import type { TrendDto } from "#server/modules/agents/model";
import { RelativeTime } from "#web/components/ui/relative-time";

const TYPE_LABELS: Record<string, string> = {
  color: "Colour",
  typography: "Typography",
  theme: "Theme",
  layout: "Layout",
  cta: "Call to action",
  performance: "Performance",
  findings: "Findings",
  keywords: "Keywords",
};

function Direction({ trend }: { trend: TrendDto }) {
  const b = trend.directionBasis;
  if (!trend.direction || !b)
    return (
      <Badge color="gray" variant="outline">
        Not enough history yet
      </Badge>
    );
  const detail = `${Math.round(b.earlyShare * 100)}% of ${b.earlyN} earlier captures → ${Math.round(b.lateShare * 100)}% of ${b.lateN} recent ones`;
  if (trend.direction === "rising")
    return (
      <Badge color="green" variant="soft" highContrast title={detail}>
        <ArrowUpIcon aria-hidden /> Rising
      </Badge>
    );
  if (trend.direction === "falling")
    return (
      <Badge color="red" variant="soft" highContrast title={detail}>
        <ArrowDownIcon aria-hidden /> Falling
      </Badge>
    );
  return (
    <Badge color="gray" variant="soft" highContrast title={detail}>
      <ArrowRightIcon aria-hidden /> Steady
    </Badge>
  );
}

function Evidence({ trend }: { trend: TrendDto }) {
  if (trend.evidenceScope === "none") return null;
  const hosts = trend.evidence;
  const lead =
    trend.evidenceScope === "all"
      ? `Seen on ${trend.support} site${trend.support === 1 ? "" : "s"}:`
      : hosts.length
        ? `${hosts.length} of the ${trend.support} sites come from your comparisons:`
        : `None of the ${trend.support} sites come from your comparisons (other users' sites are counted, never named).`;
  return (
    <Flex direction="column" gap="2">
      <Text size="1" color="gray">
        {lead}
      </Text>
      {hosts.length > 0 && (
        <ul className="ag-hosts" aria-label={`Sites showing ${trend.title}`}>
          {hosts.map((h) => (
            <li key={h.host}>
              {h.comparisonIds[0] ? (
                <Badge asChild variant="surface" color="gray">
                  <Link
                    to={`/comparison/${encodeURIComponent(h.comparisonIds[0])}/view`}
                    title={`Captured ${new Date(h.capturedAt).toLocaleString()}`}
                  >
                    {h.host}
                  </Link>
                </Badge>
              ) : (
                <Badge variant="surface" color="gray">
                  {h.host}
                </Badge>
              )}
            </li>
          ))}
        </ul>
      )}
    </Flex>
  );
}

export function TrendCard({ trend }: { trend: TrendDto }) {
  const pct = Math.round(trend.share * 100);
  return (
    <Card size="2" data-testid="trend-card">
      <Flex direction="column" gap="3">
        <Flex justify="between" align="start" gap="2">
          <Flex direction="column" gap="1">
            <Text size="1" color="gray" weight="medium">
              {TYPE_LABELS[trend.type] ?? trend.type}
            </Text>
            <Heading as="h3" size="4">
              {trend.title}
            </Heading>
          </Flex>
          <Flex direction="column" align="end" gap="1">
            <Text size="5" weight="bold" className="ag-num">
              {trend.confidence.toFixed(1)}%
            </Text>
            <Text size="1" color="gray">
              confidence
            </Text>
          </Flex>
        </Flex>
        <Text size="2" color="gray">
          {trend.description}
        </Text>
        <Flex direction="column" gap="1">
          <div className="ag-share" role="img" aria-label={`${pct}% of sites`}>
            <span style={{ width: `${pct}%` }} />
          </div>
          <Text size="1" className="ag-num">
            {trend.support} of {trend.sampleSize} sites ({pct}%)
          </Text>
        </Flex>
        <Flex gap="2" wrap="wrap" align="center">
          <Direction trend={trend} />
          {trend.strong && (
            <Badge color="violet" variant="solid">
              High-confidence signal
            </Badge>
          )}
          <Text size="1" color="gray">
            Found <RelativeTime iso={trend.discoveredAt} />
          </Text>
        </Flex>
        <Evidence trend={trend} />
      </Flex>
    </Card>
  );
}
