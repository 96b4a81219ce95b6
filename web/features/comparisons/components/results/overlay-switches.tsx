import { Flex, Switch, Text } from "@radix-ui/themes";
import { OVERLAY_KINDS, OVERLAY_LABELS, type OverlayKind } from "./overlay-kinds";

export function OverlaySwitches({ value, onChange }: { value: Set<OverlayKind>; onChange(next: Set<OverlayKind>): void }) {
  return (
    <Flex gap="4" wrap="wrap" role="group" aria-label="Overlays">
      {OVERLAY_KINDS.map((kind) => (
        <Text as="label" size="2" key={kind}>
          <Flex gap="2" align="center">
            <Switch
              checked={value.has(kind)}
              onCheckedChange={(on) => {
                const next = new Set(value);
                if (on) next.add(kind);
                else next.delete(kind);
                onChange(next);
              }}
            />
            {OVERLAY_LABELS[kind]}
          </Flex>
        </Text>
      ))}
    </Flex>
  );
}
