import { Flex, Select, Text } from "@radix-ui/themes";
import type { TargetDto } from "#server/modules/comparisons/model";
import type { Pair } from "../../results-data";

interface Props {
  targets: TargetDto[];
  pair: Pair;
  /** Targets with a screenshot in the current viewport; the others are marked. */
  withShots: Set<string>;
  onChange(pair: Pair): void;
}

/** With more than two sites the user chooses which two sit side by side. */
export function PairPicker({ targets, pair, withShots, onChange }: Props) {
  const side = (index: 0 | 1, name: string) => (
    <Flex align="center" gap="2">
      <Text size="2" weight="medium" id={`pair-${index}`}>
        {name}
      </Text>
      <Select.Root
        value={pair[index]}
        onValueChange={(id) => {
          const other = pair[1 - index]!;
          // Picking the site already on the other side swaps them instead of showing it twice.
          const next: Pair = index === 0 ? [id, id === other ? pair[0] : other] : [id === other ? pair[1] : other, id];
          onChange(next);
        }}
      >
        <Select.Trigger aria-labelledby={`pair-${index}`} style={{ minWidth: 160 }} />
        <Select.Content>
          {targets.map((t) => (
            <Select.Item key={t.id} value={t.id}>
              {t.label}
              {withShots.has(t.id) ? "" : " (no screenshot)"}
            </Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
    </Flex>
  );
  return (
    <Flex gap="4" wrap="wrap" align="center" role="group" aria-label="Sites to compare">
      {side(0, "Left")}
      <Text color="gray" size="2">
        vs
      </Text>
      {side(1, "Right")}
    </Flex>
  );
}
