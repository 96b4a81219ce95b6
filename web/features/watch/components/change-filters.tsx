import { Button, Flex, Text } from "@radix-ui/themes";
import type { ChangeKind, Severity } from "../api";
import { KIND_LABEL, KINDS, SEVERITIES, SEVERITY_COLOR, SEVERITY_LABEL } from "../changes-data";

interface Props {
  kinds: ReadonlySet<ChangeKind>;
  severities: ReadonlySet<Severity>;
  byKind: Record<ChangeKind, number>;
  bySeverity: Record<Severity, number>;
  onChange(next: { kinds: Set<ChangeKind>; severities: Set<Severity> }): void;
}

const toggled = <T,>(set: ReadonlySet<T>, v: T) => {
  const next = new Set(set);
  if (!next.delete(v)) next.add(v);
  return next;
};

/** Toggle buttons (aria-pressed) per kind and severity with their counts; none pressed shows all. */
export function ChangeFilters({ kinds, severities, byKind, bySeverity, onChange }: Props) {
  return (
    <Flex direction="column" gap="2">
      <Flex gap="2" align="center" wrap="wrap" role="group" aria-label="Filter by severity">
        <Text size="1" color="gray" style={{ minWidth: 56 }}>
          Severity
        </Text>
        {SEVERITIES.map((s) => (
          <Button
            key={s}
            size="1"
            radius="full"
            color={SEVERITY_COLOR[s]}
            variant={severities.has(s) ? "solid" : "soft"}
            highContrast={severities.has(s)}
            aria-pressed={severities.has(s)}
            disabled={bySeverity[s] === 0 && !severities.has(s)}
            onClick={() => onChange({ kinds: new Set(kinds), severities: toggled(severities, s) })}
          >
            {SEVERITY_LABEL[s]} · {bySeverity[s]}
          </Button>
        ))}
      </Flex>
      <Flex gap="2" align="center" wrap="wrap" role="group" aria-label="Filter by kind">
        <Text size="1" color="gray" style={{ minWidth: 56 }}>
          Kind
        </Text>
        {KINDS.map((k) => (
          <Button
            key={k}
            size="1"
            radius="full"
            color="gray"
            variant={kinds.has(k) ? "solid" : "soft"}
            highContrast={kinds.has(k)}
            aria-pressed={kinds.has(k)}
            disabled={byKind[k] === 0 && !kinds.has(k)}
            onClick={() => onChange({ kinds: toggled(kinds, k), severities: new Set(severities) })}
          >
            {KIND_LABEL[k]} · {byKind[k]}
          </Button>
        ))}
      </Flex>
    </Flex>
  );
}
