import "./mission-control.css";
import { ActivityLogIcon, CodeIcon, LightningBoltIcon, TargetIcon } from "@radix-ui/react-icons";
import { Badge, Card, Flex, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { count, percentOrDash } from "#web/lib/format";
import type { MetricsDto } from "#server/modules/agents/model";

function Kpi({
  label,
  value,
  hint,
  icon,
  testId,
  simulated,
}: {
  label: string;
  value: string;
  hint: string;
  icon: ReactNode;
  testId: string;
  simulated?: boolean;
}) {
  return (
    <Card size="2" className="mc-kpi">
      <Flex direction="column" gap="1">
        <Flex align="center" justify="between">
          <Flex align="center" gap="2">
            <Text size="2" color="gray" weight="medium">
              {label}
            </Text>
            {simulated && (
              <Badge size="1" color="amber" variant="soft" highContrast data-testid={`${testId}-simulated`}>
                Simulated
              </Badge>
            )}
          </Flex>
          <span className="mc-kpi-icon" aria-hidden>
            {icon}
          </span>
        </Flex>
        <Text size="8" weight="bold" data-testid={testId} className="mc-kpi-value">
          {value}
        </Text>
        <Text size="1" color="gray">
          {hint}
        </Text>
      </Flex>
    </Card>
  );
}

/** Spec §2: Trends Discovered, Components Generated, Active Tests and Prediction Accuracy (one decimal, %). */
/** The accuracy card's line under the figure: its denominator, and what share of it is simulated. */
function accuracyHint(m: MetricsDto | null): string {
  if (!m || !m.decidedPredictions) return "Measured once a test is decided";
  const base = `${m.correctPredictions} of ${m.decidedPredictions} decided calls right`;
  const sim = m.simulatedDecisions;
  if (sim === undefined) return base;
  if (sim === 0) return `${base}, on real visitors`;
  return sim === m.decidedPredictions ? `${base}, all on simulated visitors` : `${base}; ${sim} decided on simulated visitors`;
}

export function KpiCards({ metrics }: { metrics: MetricsDto | null }) {
  const m = metrics;
  return (
    <div className="mc-grid mc-grid-kpi" role="group" aria-label="Key metrics">
      <Kpi
        label="Trends Discovered"
        testId="kpi-trends"
        value={m ? count(m.totalTrends) : "—"}
        hint="Patterns most captured sites share"
        icon={<LightningBoltIcon />}
      />
      <Kpi
        label="Components Generated"
        testId="kpi-components"
        value={m ? count(m.totalComponents) : "—"}
        hint="React components built from real tokens"
        icon={<CodeIcon />}
      />
      <Kpi
        label="Active Tests"
        testId="kpi-tests"
        value={m ? count(m.activeTests) : "—"}
        hint="A/B tests collecting visitors"
        icon={<TargetIcon />}
      />
      <Kpi
        label="Prediction Accuracy"
        testId="kpi-accuracy"
        value={percentOrDash(m?.averageAccuracy ?? null)}
        hint={accuracyHint(m)}
        simulated={(m?.simulatedDecisions ?? 0) > 0}
        icon={<ActivityLogIcon />}
      />
    </div>
  );
}
