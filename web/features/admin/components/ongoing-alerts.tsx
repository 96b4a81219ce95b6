import { ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { Badge, Callout, Flex, Text } from "@radix-ui/themes";
import { useEffect, useState } from "react";
import type { OngoingAlert } from "#server/modules/admin/model";
import { formatAlertDuration, formatDateTime } from "../format";
import type { OngoingState } from "../use-ongoing-alerts";

const LABEL: Record<OngoingAlert["metric"], string> = { cpu: "CPU usage", memory: "Memory usage", errorRate: "Error rate" };

/** How long, as of `now`: a figure still above its threshold keeps counting from the answer's arrival. */
const durationOf = (a: OngoingAlert, state: OngoingState, now: number) =>
  a.durationMs + (a.above ? Math.max(0, now - state.receivedAt) : 0);

function Line({ alert, ms, cooldownMs }: { alert: OngoingAlert; ms: number; cooldownMs: number }) {
  const label = LABEL[alert.metric];
  const lasted = formatAlertDuration(ms);
  const headline = alert.above
    ? `${label} above ${alert.threshold}% for ${lasted}`
    : `${label} back under ${alert.threshold}% after ${lasted}`;
  const status = alert.above
    ? null
    : alert.easing
      ? `Below ${alert.rearmBelow}%: the alert closes after ${formatAlertDuration(cooldownMs)} there.`
      : `Still above ${alert.rearmBelow}%: the alert stays open.`;
  return (
    <li data-testid="ongoing-alert" data-metric={alert.metric}>
      <Flex gap="2" align="center" wrap="wrap">
        <Text size="2" weight="medium">
          {headline}
        </Text>
        <Badge color={alert.above ? "red" : "amber"} variant="soft" highContrast>
          {alert.above ? "Ongoing" : "Easing"}
        </Badge>
      </Flex>
      <Text as="p" size="1" color="gray">
        Peak {alert.peak}% · since {formatDateTime(alert.since)}
        {status ? ` · ${status}` : ""}
      </Text>
    </li>
  );
}

/**
 * The host alerts still open: one line per crossing with its live duration, so a figure that stays
 * high reads as one alert that lasts rather than a stream of them. Nothing shows when none is open.
 */
export function OngoingAlerts({ state, now = Date.now }: { state: OngoingState | null; now?: () => number }) {
  const alerts = state?.answer.ongoing ?? [];
  const ticking = alerts.some((a) => a.above);
  // The first render (the server's, and the hydration of it) counts from the answer's arrival, so
  // both render the same duration; read at render, the clock would differ by the time hydration
  // takes, and past a second's rounding that is a hydration mismatch (React #418 on a busy machine).
  const [t, setT] = useState(() => state?.receivedAt ?? now());
  useEffect(() => {
    setT(now());
    if (!ticking) return;
    const timer = setInterval(() => setT(now()), 1000);
    return () => clearInterval(timer);
  }, [ticking, state, now]);
  if (!state || alerts.length === 0) return null;
  return (
    <Callout.Root color="red" variant="surface" role="region" aria-label="Open alerts" data-testid="ongoing-alerts">
      <Callout.Icon>
        <ExclamationTriangleIcon />
      </Callout.Icon>
      <Flex direction="column" gap="2" asChild>
        <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {alerts.map((a) => (
            <Line key={a.metric} alert={a} ms={durationOf(a, state, t)} cooldownMs={state.answer.cooldownMs} />
          ))}
        </ul>
      </Flex>
    </Callout.Root>
  );
}
