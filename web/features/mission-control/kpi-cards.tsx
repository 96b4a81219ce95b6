import "./mission-control.css";
import { ActivityLogIcon, CodeIcon, LightningBoltIcon, TargetIcon } from "@radix-ui/react-icons";
import { Card, Flex, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { count, percentOrDash } from "#web/lib/format";
import type { MetricsDto } from "#server/modules/agents/model";

function Kpi({ label, value, hint, icon, testId }: { label: string; value: string; hint: string; icon: ReactNode; testId: string }) {
  return (
    <Card size="2" className="mc-kpi">
      <Flex direction="column" gap="1">
        <Flex align="center" justify="between">
          <Text size="2" color="gray" weight="medium">
            {label}
          </Text>
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
      <Kpi label="Active Tests" testId="kpi-tests" value={m ? count(m.activeTests) : "—"} hint="A/B tests collecting visitors" icon={<TargetIcon />} />
      <Kpi
        label="Prediction Accuracy"
        testId="kpi-accuracy"
        value={percentOrDash(m?.averageAccuracy ?? null)}
        hint={m && m.decidedPredictions ? `${m.correctPredictions} of ${m.decidedPredictions} decided calls right` : "Measured once a test is decided"}
        icon={<ActivityLogIcon />}
      />
    </div>
  );
}
