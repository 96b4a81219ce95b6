import { Badge, Button, Flex, Heading, Text } from "@radix-ui/themes";
import { ReloadIcon } from "@radix-ui/react-icons";
import { type Health, healthColor } from "../format";

interface Props {
  systemActive: boolean | null;
  /** null until the first reading: no health is claimed from placeholder figures. */
  health: Health | null;
  refreshing: boolean;
  onRefresh(): void;
}

export function AdminHeader({ systemActive, health, refreshing, onRefresh }: Props) {
  return (
    <Flex justify="between" align="start" gap="3" wrap="wrap" mb="4">
      <Flex direction="column" gap="1" style={{ flex: "1 1 320px", minWidth: 0 }}>
        <Flex align="center" gap="2" wrap="wrap">
          <Heading as="h1" size="7">
            Super Admin Console
          </Heading>
          <Badge color={systemActive ? "green" : "gray"} variant="soft" highContrast size="2" data-testid="system-badge">
            <span className={systemActive ? "di-pulse-dot" : "di-idle-dot"} aria-hidden="true" />
            {systemActive ? "System Active" : "System Offline"}
          </Badge>
          {health ? (
            <Badge color={healthColor(health)} variant="soft" highContrast size="2" data-testid="health-badge">
              {health}
            </Badge>
          ) : (
            <Badge color="gray" variant="outline" size="2" data-testid="health-badge" aria-busy="true">
              Checking health…
            </Badge>
          )}
        </Flex>
        <Text color="gray" size="2">
          The control room behind the control room. Watch the machine, keep the data safe, mind the keys.
        </Text>
      </Flex>
      <Button variant="soft" onClick={onRefresh} disabled={refreshing} aria-label="Refresh dashboard data">
        <ReloadIcon className={refreshing ? "di-spin" : undefined} aria-hidden="true" />
        Refresh
      </Button>
    </Flex>
  );
}
