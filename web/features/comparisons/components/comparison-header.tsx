import { Button, Callout, Card, Flex, Heading, Select, Switch, Text } from "@radix-ui/themes";
import { BarChartIcon, ExclamationTriangleIcon, PlayIcon, TrashIcon } from "@radix-ui/react-icons";
import { useState } from "react";
import { Link } from "react-router";
import { ConfirmDialog } from "#web/components/ui/confirm-dialog";
import { DisabledReason, ReasonNote } from "#web/components/ui/disabled-reason";
import { useCanEdit } from "#web/lib/workspace";
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
  /** Deletes the comparison (asked first); absent: no Delete button. */
  onDelete?(): void;
  /** The delete request is in flight. */
  deleting?: boolean;
}

const CONSENT_CHOICES: { value: ConsentPolicy; label: string }[] = [
  { value: "reject", label: "Reject (least tracking)" },
  { value: "accept", label: "Accept all" },
  { value: "keep", label: "Leave on screen" },
];

export function ComparisonHeader({ comparison, targetCount, starting, onStart, onConsent, onColorSchemes, onDelete, deleting }: Props) {
  const dark = colorSchemesOf(comparison).includes("dark");
  const running = isRunning(comparison.status) || starting;
  // A viewer reads; starting, settings and deleting need the editor role.
  const { canEdit, reason } = useCanEdit();
  const startable = canEdit && canStart(comparison.status, targetCount) && !starting;
  const [confirming, setConfirming] = useState(false);
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
            {canEdit ? (
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
            ) : (
              // A viewer reads the policy. (A disabled Radix Select also renders differently on the server.)
              <Text size="1" weight="medium">
                {CONSENT_CHOICES.find((c) => c.value === comparison.consent)?.label ?? comparison.consent}
              </Text>
            )}
            {onColorSchemes && canEdit && (
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
            {onColorSchemes && !canEdit && (
              <Text size="1" color="gray" ml="2">
                Dark captures: <Text weight="medium">{dark ? "on" : "off"}</Text>
              </Text>
            )}
          </Flex>
        </Flex>
        <Flex direction="column" gap="2" align={{ initial: "start", sm: "end" }}>
          <Flex gap="2" wrap="wrap" justify={{ initial: "start", sm: "end" }}>
            <DisabledReason reason={reason}>
              <Button size="3" onClick={onStart} disabled={!startable}>
                <PlayIcon /> {running ? "Running..." : "Start Analysis"}
              </Button>
            </DisabledReason>
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
            {onDelete && (
              <DisabledReason reason={reason ?? (running ? "Can't delete a comparison while the analysis runs" : null)}>
                <Button
                  size="3"
                  variant="soft"
                  color="red"
                  disabled={!canEdit || running}
                  loading={deleting}
                  onClick={() => setConfirming(true)}
                  aria-label={`Delete ${comparison.name}`}
                >
                  <TrashIcon /> Delete
                </Button>
              </DisabledReason>
            )}
          </Flex>
          <ReasonNote reason={reason} />
        </Flex>
      </Flex>
      {onDelete && (
        <ConfirmDialog
          open={confirming}
          onCancel={() => setConfirming(false)}
          title={`Delete ${comparison.name}?`}
          description="Its sites, runs, screenshots, schedule and alerts go for everyone in this workspace. This cannot be undone."
          action="Delete comparison"
          onConfirm={() => {
            setConfirming(false);
            onDelete();
          }}
        />
      )}
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
