import { Flex, Switch, Text } from "@radix-ui/themes";
import { OVERLAY_KINDS, OVERLAY_LABELS, type OverlayKind } from "./overlay-kinds";

export function OverlaySwitches({ value, onChange }: { value: Set<OverlayKind>; onChange(next: Set<OverlayKind>): void }) {
  return (
    <Flex gap="4" wrap="wrap" role="group" aria-label="Overlays" title="One overlay at a time">
      {OVERLAY_KINDS.map((kind) => (
        <Text as="label" size="2" key={kind}>
          <Flex gap="2" align="center">
            <Switch
              checked={value.has(kind)}
              onCheckedChange={(on) => {
                // One category at a time: two sets of tags over one capture are unreadable.
                onChange(on ? new Set([kind]) : new Set());
              }}
            />
            {OVERLAY_LABELS[kind]}
          </Flex>
        </Text>
      ))}
    </Flex>
  );
}
