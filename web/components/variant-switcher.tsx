import { Button, Flex, SegmentedControl, Text } from "@radix-ui/themes";
import type { ColorScheme, PageRole } from "#server/modules/capture/model";
import { ROLE_LABELS } from "#web/lib/page-roles";

interface Props {
  roles: PageRole[];
  role: PageRole;
  onRoleChange(r: PageRole): void;
  /** Shown only when the run has dark variants. */
  dark: boolean;
  scheme: ColorScheme;
  onSchemeChange(s: ColorScheme): void;
}

/** Which page of the sites the results show (pricing with pricing), and in which colour scheme. */
export function VariantSwitcher({ roles, role, onRoleChange, dark, scheme, onSchemeChange }: Props) {
  if (roles.length < 2 && !dark) return null;
  return (
    <Flex align="center" gap="3" wrap="wrap" data-testid="variant-switcher">
      {roles.length > 1 && (
        <Flex align="center" gap="1" wrap="wrap" role="group" aria-label="Page role">
          <Text size="2" weight="medium" mr="1">
            Page
          </Text>
          {roles.map((r) => (
            <Button
              key={r}
              size="1"
              variant={r === role ? "solid" : "soft"}
              color={r === role ? undefined : "gray"}
              aria-pressed={r === role}
              onClick={() => onRoleChange(r)}
            >
              {ROLE_LABELS[r]}
            </Button>
          ))}
        </Flex>
      )}
      {dark && (
        <SegmentedControl.Root
          size="1"
          value={scheme}
          onValueChange={(v) => onSchemeChange(v === "dark" ? "dark" : "light")}
          aria-label="Colour scheme"
        >
          <SegmentedControl.Item value="light">Light</SegmentedControl.Item>
          <SegmentedControl.Item value="dark">Dark</SegmentedControl.Item>
        </SegmentedControl.Root>
      )}
    </Flex>
  );
}
