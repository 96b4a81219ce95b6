import { Flex, Switch, Text } from "@radix-ui/themes";
import { useId, useState } from "react";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { setMemberAlerts } from "../api";

export const ALERTS_LABEL = "Receive this workspace's alerts";
export const ALERTS_HINT = "Alert rules sent to the workspace's members e-mail you, and your digest covers its comparisons.";

/**
 * Your own opt-in to a workspace's alerts (`alerts` on your member entry): the alert rules that go
 * to its members, and its comparisons in your daily or weekly digest. Only you change yours.
 */
export function AlertsSwitch({
  workspaceId,
  userId,
  checked,
  onChange,
}: {
  workspaceId: string;
  userId: string;
  checked: boolean;
  /** The server's answer, once it took the change. */
  onChange(alerts: boolean): void;
}) {
  const [busy, setBusy] = useState(false);
  const hintId = useId();

  async function flip(alerts: boolean) {
    setBusy(true);
    try {
      const m = await setMemberAlerts(workspaceId, userId, alerts);
      onChange(m.alerts);
      toast({
        title: m.alerts ? "Alerts On" : "Alerts Off",
        description: m.alerts
          ? "You receive this workspace's member alerts, and your digest covers its comparisons."
          : "You no longer receive this workspace's member alerts, and your digest leaves out its comparisons.",
      });
    } catch (err) {
      toast({ title: "Alerts Not Changed", description: errorMessage(err, "Could not change your alerts."), variant: "destructive" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Flex direction="column" gap="1" data-testid="alerts-switch">
      <Text as="label" size="2">
        <Flex gap="2" align="center">
          <Switch size="1" checked={checked} disabled={busy} onCheckedChange={(v) => void flip(v)} aria-describedby={hintId} />
          {ALERTS_LABEL}
        </Flex>
      </Text>
      <Text id={hintId} size="1" color="gray">
        {ALERTS_HINT}
      </Text>
    </Flex>
  );
}
