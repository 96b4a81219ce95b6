import "#web/features/agents/agents.css";
import { Badge, Card, Flex, Heading, SegmentedControl, Text } from "@radix-ui/themes";
import { useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import type { AnalyticsDto, MetricsDto } from "#server/modules/agents/model";
import { BarChart, Legend, LineChart, type Row, type Series } from "#web/features/agents/analytics/charts";
import { useLiveRevalidate } from "#web/features/agents/use-live-revalidate";
import { count, percentOrDash } from "#web/lib/format";
import { load } from "#web/lib/loader-context";

export const handle = { title: "Analytics" };

interface AnalyticsData {
  analytics: AnalyticsDto | null;
  metrics: MetricsDto | null;
  range: "48h" | "30d";
}

export async function loader({ context, request }: LoaderFunctionArgs): Promise<AnalyticsData> {
  const range = new URL(request.url).searchParams.get("range") === "30d" ? "30d" : "48h";
  const [analytics, metrics] = await Promise.all([
    load(context, (api) => api.analytics.get({ query: { range } })).catch(() => null),
    load(context, (api) => api.metrics.get()).catch(() => null),
  ]);
  return { analytics, metrics, range };
}

const TESTS: Series[] = [
  { key: "started", label: "Tests started", color: "var(--violet-9)" },
  { key: "completed", label: "Tests completed", color: "var(--green-9)" },
];
const VISITORS: Series[] = [
  { key: "real", label: "Real visitors", color: "var(--blue-9)" },
  { key: "simulated", label: "Simulated visitors", color: "var(--amber-9)" },
];
const CONVERSIONS: Series[] = [{ key: "conversions", label: "Conversions", color: "var(--crimson-9)" }];
const ACCURACY: Series[] = [{ key: "accuracy", label: "Prediction accuracy", color: "var(--violet-10)" }];
const SIMILARITY: Series[] = [{ key: "count", label: "Site pairs", color: "var(--cyan-9)" }];

function bucketLabel(b: string, hourly: boolean): string {
  return hourly ? `${b.slice(11, 13)}h` : b.slice(5, 10);
}

/** `simulated`: the chart is fed (partly) by simulated visitors, and says so on the chart. */
function ChartCard({
  title,
  summary,
  children,
  simulated,
}: {
  title: string;
  summary: string;
  children: React.ReactNode;
  simulated?: string | null;
}) {
  return (
    <Card size="3">
      <Flex direction="column" gap="3">
        <Flex direction="column" gap="1">
          <Flex align="center" gap="2" wrap="wrap">
            <Heading as="h2" size="4">
              {title}
            </Heading>
            {simulated && (
              <Badge size="1" color="amber" variant="soft" highContrast data-testid="chart-simulated">
                {simulated}
              </Badge>
            )}
          </Flex>
          <Text size="2" color="gray">
            {summary}
          </Text>
        </Flex>
        {children}
      </Flex>
    </Card>
  );
}

export function Component() {
  const { analytics: a, metrics, range } = useLoaderData() as AnalyticsData;
  const [, setParams] = useSearchParams();
  useLiveRevalidate(["TEST_COMPLETED", "AGENT_UPDATE"], (m) => m.type === "TEST_COMPLETED" || m.agentId === "insight-oracle", 5000);

  const hourly = a?.bucket !== "day";
  const traffic: Row[] = (a?.traffic ?? []).map((t) => ({
    label: bucketLabel(t.bucket, hourly),
    values: {
      started: t.testsStarted,
      completed: t.testsCompleted,
      real: t.impressions - t.simulatedImpressions,
      simulated: t.simulatedImpressions,
      conversions: t.conversions,
    },
  }));
  const totals = (a?.traffic ?? []).reduce(
    (s, t) => ({
      started: s.started + t.testsStarted,
      completed: s.completed + t.testsCompleted,
      visitors: s.visitors + t.impressions,
      simulated: s.simulated + t.simulatedImpressions,
      conversions: s.conversions + t.conversions,
    }),
    { started: 0, completed: 0, visitors: 0, simulated: 0, conversions: 0 },
  );
  const accuracy: Row[] = (a?.accuracy ?? []).map((p) => ({ label: `#${p.decided}`, values: { accuracy: p.accuracy } }));
  const similarity: Row[] = (a?.similarity.buckets ?? []).map((b) => ({
    label: `${Math.round(b.from * 100)}–${Math.round(b.to * 100)}%`,
    values: { count: b.count },
  }));
  const simLabel =
    totals.simulated === 0 ? null : totals.simulated === totals.visitors ? "Simulated visitors" : "Includes simulated visitors";
  const span = range === "48h" ? "the last 48 hours" : "the last 30 days";

  return (
    <div className="ag-page" aria-labelledby="analytics-title">
      <Flex justify="between" align="end" gap="3" wrap="wrap">
        <Flex direction="column" gap="1">
          <Heading as="h1" size="7" id="analytics-title">
            Analytics
          </Heading>
          <Text color="gray">
            InsightOracle's numbers: A/B tests, visitors and conversions, its own prediction record, and how alike compared sites are.
          </Text>
        </Flex>
        <SegmentedControl.Root value={range} onValueChange={(v) => setParams(v === "30d" ? { range: "30d" } : {})} aria-label="Time range">
          <SegmentedControl.Item value="48h">48 hours</SegmentedControl.Item>
          <SegmentedControl.Item value="30d">30 days</SegmentedControl.Item>
        </SegmentedControl.Root>
      </Flex>
      {!a ? (
        <Text color="red">Analytics could not be loaded. Try again in a moment.</Text>
      ) : (
        <div className="ag-grid" style={{ gridTemplateColumns: "repeat(auto-fill, minmax(min(420px, 100%), 1fr))" }}>
          <ChartCard
            title="Tests over time"
            summary={`${count(totals.started)} started and ${count(totals.completed)} completed in ${span}.`}
          >
            <BarChart rows={traffic} series={TESTS} title={`Tests started and completed per ${hourly ? "hour" : "day"} over ${span}`} />
            <Legend series={TESTS} />
          </ChartCard>
          <ChartCard
            title="Visitors over time"
            simulated={simLabel}
            summary={`${count(totals.visitors)} visitors${totals.simulated ? `, of which ${count(totals.simulated)} simulated` : ""}, in ${span}.`}
          >
            <BarChart rows={traffic} series={VISITORS} title={`Real and simulated visitors per ${hourly ? "hour" : "day"} over ${span}`} />
            <Legend series={VISITORS} />
          </ChartCard>
          <ChartCard
            title="Conversions over time"
            simulated={simLabel}
            summary={`${count(totals.conversions)} conversions (${totals.visitors ? ((totals.conversions / totals.visitors) * 100).toFixed(2) : "0.00"}% of visitors) in ${span}.`}
          >
            <LineChart rows={traffic} series={CONVERSIONS} title={`Conversions per ${hourly ? "hour" : "day"} over ${span}`} />
          </ChartCard>
          <ChartCard
            title="Prediction accuracy over time"
            simulated={
              (metrics?.simulatedDecisions ?? 0) > 0
                ? metrics!.simulatedDecisions === metrics!.decidedPredictions
                  ? "Simulated visitors"
                  : "Partly simulated visitors"
                : null
            }
            summary={
              accuracy.length
                ? `Now ${percentOrDash(metrics?.averageAccuracy ?? null)}: ${metrics?.correctPredictions ?? 0} of ${metrics?.decidedPredictions ?? 0} decided predictions were right. Each point is the running accuracy after one more decided test.`
                : "— No prediction has been decided yet: a test has to end with a significant winner first."
            }
          >
            {accuracy.length > 0 && (
              <LineChart
                rows={accuracy}
                series={ACCURACY}
                max={100}
                format={(v) => `${Math.round(v)}%`}
                title="Running prediction accuracy after each decided test"
              />
            )}
          </ChartCard>
          <ChartCard
            title="Similarity distribution across comparisons"
            summary={
              a.similarity.total
                ? `${count(a.similarity.total)} site pairs in ${a.similarity.scope === "all" ? "all comparisons" : "your comparisons"}; mean overall similarity ${((a.similarity.mean ?? 0) * 100).toFixed(1)}%.`
                : `No compared site pairs yet in ${a.similarity.scope === "all" ? "any comparison" : "your comparisons"}.`
            }
          >
            {a.similarity.total > 0 && (
              <BarChart rows={similarity} series={SIMILARITY} title="Number of compared site pairs by overall similarity" maxLabels={10} />
            )}
          </ChartCard>
        </div>
      )}
    </div>
  );
}
