import { Button, Card, Flex, Heading, Switch, Text } from "@radix-ui/themes";
import { PlayIcon, ReloadIcon, StopIcon, UpdateIcon } from "@radix-ui/react-icons";

interface Props {
  maintenance: boolean;
  maintenanceBusy: boolean;
  onToggleMaintenance(next: boolean): void;
  systemActive: boolean | null;
  systemBusy: boolean;
  onStart(): void;
  onStop(): void;
  onRestart(): void;
  refreshing: boolean;
  onRefresh(): void;
}

export function ControlPanel(p: Props) {
  return (
    <Card>
      <Heading as="h2" size="4" mb="3">
        Control Panel
      </Heading>
      <Flex direction="column" gap="4">
        <Text as="label" size="2">
          <Flex gap="3" align="center" justify="between">
            <Flex direction="column">
              <Text weight="medium">Maintenance Mode</Text>
              <Text size="1" color="gray">
                Locks out everyone but admins
              </Text>
            </Flex>
            <Switch
              checked={p.maintenance}
              disabled={p.maintenanceBusy}
              onCheckedChange={(v) => p.onToggleMaintenance(v)}
              color="orange"
              data-testid="maintenance-switch"
            />
          </Flex>
        </Text>
        <Flex gap="2" wrap="wrap">
          {p.systemActive ? (
            <Button color="red" variant="soft" onClick={p.onStop} disabled={p.systemBusy}>
              <StopIcon aria-hidden="true" />
              Stop System
            </Button>
          ) : (
            <Button color="green" onClick={p.onStart} disabled={p.systemBusy}>
              <PlayIcon aria-hidden="true" />
              Start System
            </Button>
          )}
          <Button variant="soft" onClick={p.onRestart} disabled={p.systemBusy}>
            <UpdateIcon aria-hidden="true" />
            Restart
          </Button>
          <Button variant="outline" onClick={p.onRefresh} disabled={p.refreshing} aria-label="Refresh control panel data">
            <ReloadIcon aria-hidden="true" />
            Refresh
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
