import { Badge, Button, Card, Code, Flex, Heading, Progress, Table, Text } from "@radix-ui/themes";
import { useState } from "react";
import type { ExperimentDto } from "#server/modules/agents/model";
import { RelativeTime } from "#web/components/ui/relative-time";
import { count, fraction, pValue } from "#web/lib/format";

const signed = (x: number | null, digits = 1) =>
  x === null || !Number.isFinite(x) ? "—" : `${x >= 0 ? "+" : ""}${(x * 100).toFixed(digits)}%`;
const interval = (i: [number, number] | null) => (i ? `${signed(i[0])} to ${signed(i[1])}` : "—");

function TrafficBadge({ t }: { t: ExperimentDto }) {
  if (t.traffic === "simulated")
    return (
      <Badge color="amber" variant="soft" highContrast data-testid="simulated-badge">
        Simulated traffic
      </Badge>
    );
  if (t.traffic === "real")
    return (
      <Badge color="blue" variant="soft" highContrast>
        Real traffic
      </Badge>
    );
  return (
    <Badge color="gray" variant="outline">
      Waiting for traffic
    </Badge>
  );
}

function PredictionLine({ t }: { t: ExperimentDto }) {
  const p = t.prediction;
  if (!p)
    return (
      <Text size="2" color="gray">
        InsightOracle hasn't predicted this one yet.
      </Text>
    );
  const outcome =
    p.outcome === "correct"
      ? { label: "Right", color: "green" as const }
      : p.outcome === "wrong"
        ? { label: "Missed", color: "red" as const }
        : p.outcome === "undecided"
          ? { label: "Not counted: no significant winner", color: "gray" as const }
          : { label: "Pending", color: "gray" as const };
  return (
    <Flex gap="2" align="center" wrap="wrap">
      <Text size="2">
        InsightOracle predicted <strong>variant {p.label}</strong> ({Math.round(p.probability * 100)}% sure) before any result.
      </Text>
      <Badge color={outcome.color} variant="soft" highContrast>
        {outcome.label}
      </Badge>
    </Flex>
  );
}

function IngestHelp({ t }: { t: ExperimentDto }) {
  const [shown, setShown] = useState(false);
  if (!t.ingestKey || t.status !== "active" || t.traffic === "simulated") return null;
  return (
    <Flex direction="column" gap="2">
      <Text size="1" color="gray">
        Send real visitors: <Code>POST /api/tests/{t.id}/events</Code> with <Code>{'{"variant":"A","event":"impression","count":1}'}</Code>{" "}
        and the header <Code>x-ingest-key</Code>.
      </Text>
      <Flex gap="2" align="center">
        <Button size="1" variant="ghost" onClick={() => setShown((s) => !s)} aria-expanded={shown}>
          {shown ? "Hide ingest key" : "Show ingest key"}
        </Button>
        {shown && <Code>{t.ingestKey}</Code>}
      </Flex>
    </Flex>
  );
}

/** One A/B test with its statistics (spec: tests are active or completed). */
export function ExperimentCard({ test: t }: { test: ExperimentDto }) {
  const s = t.stats;
  const winner = t.winner?.label ?? null;
  return (
    <Card size="3" data-testid="experiment-card" data-status={t.status}>
      <Flex direction="column" gap="3">
        <Flex justify="between" align="start" gap="3" wrap="wrap">
          <Flex direction="column" gap="1" style={{ minWidth: 0 }}>
            <Heading as="h3" size="4">
              {t.name}
            </Heading>
            <Flex gap="2" wrap="wrap" align="center">
              <Badge color={t.status === "active" ? "blue" : "green"} variant="solid">
                {t.status === "active" ? "Active" : "Completed"}
              </Badge>
              <TrafficBadge t={t} />
              {t.status === "completed" && (
                <Badge color={winner ? "violet" : "gray"} variant="soft" highContrast>
                  {winner ? `Winner: variant ${winner}` : "No significant difference"}
                </Badge>
              )}
              <Text size="1" color="gray">
                Started <RelativeTime iso={t.startedAt} />
                {t.completedAt && (
                  <>
                    {" · completed "}
                    <RelativeTime iso={t.completedAt} />
                  </>
                )}
              </Text>
            </Flex>
          </Flex>
        </Flex>

        <Table.Root size="1" variant="surface">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Variant</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Component</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell justify="end">Visitors</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell justify="end">Conversions</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell justify="end">Rate</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Progress to {count(t.plannedPerVariant)}</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {t.variants.map((v) => (
              <Table.Row key={v.id}>
                <Table.RowHeaderCell>
                  {v.label}
                  {winner === v.label ? " 🏆" : ""}
                </Table.RowHeaderCell>
                <Table.Cell>
                  <Code variant="ghost">{v.name}</Code>
                </Table.Cell>
                <Table.Cell justify="end" className="ag-num">
                  {count(v.impressions)}
                </Table.Cell>
                <Table.Cell justify="end" className="ag-num">
                  {count(v.conversions)}
                </Table.Cell>
                <Table.Cell justify="end" className="ag-num">
                  {fraction(v.rate, 2)}
                </Table.Cell>
                <Table.Cell style={{ minWidth: 120 }}>
                  <Progress
                    value={Math.min(100, (v.impressions / t.plannedPerVariant) * 100)}
                    aria-label={`Variant ${v.label} sample progress`}
                  />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>

        <dl className="ag-stats">
          <div>
            <dt>Uplift (B vs A)</dt>
            <dd className="ag-num">{signed(s.uplift)}</dd>
          </div>
          <div>
            <dt>{Math.round((1 - t.alpha) * 100)}% interval of uplift</dt>
            <dd className="ag-num">{interval(s.upliftInterval)}</dd>
          </div>
          <div>
            <dt>p-value (z = {s.z.toFixed(2)})</dt>
            <dd className="ag-num">{pValue(s.pValue)}</dd>
          </div>
          <div>
            <dt>Chance B beats A</dt>
            <dd className="ag-num">{fraction(s.chanceBBeatsA)}</dd>
          </div>
        </dl>
        {t.status === "active" && (
          <Text size="1" color="gray">
            Interim numbers. {t.stoppingRule}
          </Text>
        )}
        {t.status === "completed" && (
          <Text size="1" color="gray">
            {t.stoppingRule}
          </Text>
        )}
        {t.simulated && (
          <Text size="1" color="amber">
            Simulated: visitors came from the seeded simulator because no real events arrived. Its true rates are random and unrelated to
            the designs.
          </Text>
        )}
        <PredictionLine t={t} />
        <IngestHelp t={t} />
      </Flex>
    </Card>
  );
}
