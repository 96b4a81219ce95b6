import { Button, Callout, Card, Flex, Heading, Select, Switch, Text } from "@radix-ui/themes";
import { BarChartIcon, ExclamationTriangleIcon, PlayIcon } from "@radix-ui/react-icons";
import { Link } from "react-router";
import type { ColorScheme, ConsentPolicy } from "#server/modules/capture/model";
import type { ComparisonDto } from "#server/modules/comparisons/model";
import { colorSchemesOf } from "../page-variants";
import { canStart, canViewResults, isRunning } from "../status";
import { StatusBadge } from "./status-badge";

interface Props {
  comparison: ComparisonDto;
  targetCount: number;
  /** The start request is in flight. */
  starting: boolean;
  onStart(): void;
  /** A new cookie-banner policy for the next run. */
  onConsent(consent: ConsentPolicy): void;
  /** Whether the next run also captures dark variants (`prefers-color-scheme: dark`). */
  onColorSchemes?(schemes: ColorScheme[]): void;
}

const CONSENT_CHOICES: { value: ConsentPolicy; label: string }[] = [
  { value: "reject", label: "Reject (least tracking)" },
  { value: "accept", label: "Accept all" },
  { value: "keep", label: "Leave on screen" },
];

export function ComparisonHeader({ comparison, targetCount, starting, onStart, onConsent, onColorSchemes }: Props) {
  const dark = colorSchemesOf(comparison).includes("dark");
  const running = isRunning(comparison.status) || starting;
  const startable = canStart(comparison.status, targetCount) && !starting;
  const resultsPath = `/comparison/${encodeURIComponent(comparison.id)}/view`;
  return (
    <Card size="3">
      <Flex justify="between" align="start" gap="4" wrap="wrap">
        <Flex direction="column" gap="1" style={{ minWidth: 0, flex: "1 1 260px" }}>
          <Flex align="center" gap="2" wrap="wrap">
            <Heading as="h2" size="6" style={{ overflowWrap: "anywhere" }}>
              {comparison.name}
            </Heading>
            <StatusBadge status={comparison.status} />
          </Flex>
          {comparison.description && (
            <Text size="2" color="gray" style={{ overflowWrap: "anywhere" }}>
              {comparison.description}
            </Text>
          )}
          <Flex align="center" gap="2" mt="1" wrap="wrap">
            <Text size="1" color="gray" id={`consent-${comparison.id}`}>
              Cookie banners
            </Text>
            <Select.Root size="1" value={comparison.consent} onValueChange={(v) => onConsent(v as ConsentPolicy)}>
              <Select.Trigger variant="surface" aria-labelledby={`consent-${comparison.id}`} />
              <Select.Content position="popper">
                {CONSENT_CHOICES.map((c) => (
                  <Select.Item key={c.value} value={c.value}>
                    {c.label}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
            {onColorSchemes && (
              <Text as="label" size="1" color="gray" ml="2">
                <Flex align="center" gap="2">
                  <Switch
                    size="1"
                    checked={dark}
                    onCheckedChange={(on) => onColorSchemes(on ? ["light", "dark"] : ["light"])}
                    aria-label="Dark captures"
                  />
                  Dark captures too
                </Flex>
              </Text>
            )}
          </Flex>
        </Flex>
        <Flex gap="2" wrap="wrap">
          <Button size="3" onClick={onStart} disabled={!startable}>
            <PlayIcon /> {running ? "Running..." : "Start Analysis"}
          </Button>
          {canViewResults(comparison.status) ? (
            <Button size="3" variant="soft" asChild>
              <Link to={resultsPath}>
                <BarChartIcon /> View Results
              </Link>
            </Button>
          ) : (
            <Button size="3" variant="soft" disabled>
              <BarChartIcon /> View Results
            </Button>
          )}
        </Flex>
      </Flex>
      {comparison.status === "failed" && comparison.error && (
        <Callout.Root color="red" mt="3" size="1">
          <Callout.Icon>
            <ExclamationTriangleIcon />
          </Callout.Icon>
          <Callout.Text>The last run failed: {comparison.error}</Callout.Text>
        </Callout.Root>
      )}
    </Card>
  );
}
