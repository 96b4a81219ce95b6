import { BellIcon, TrashIcon } from "@radix-ui/react-icons";
import { useCanEdit } from "#web/lib/workspace";
import { Badge, Box, Button, Card, Code, Flex, Heading, Separator, Text } from "@radix-ui/themes";
import { useState } from "react";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { type AlertView, deleteAlert, type DeliveryView } from "../api";
import { KIND_LABEL, MIN_SEVERITY_LABEL } from "../changes-data";
import { formatWhen } from "../format";
import { AlertRuleForm } from "./alert-rule-form";

interface Props {
  comparisonId: string;
  alerts: AlertView[] | null;
  deliveries: DeliveryView[] | null;
  /** Run numbers by id, to name the run a delivery was about. */
  runNumbers: ReadonlyMap<string, number>;
  loadError: string | null;
  onAlertsChange(next: AlertView[]): void;
}

const destination = (a: AlertView) => (a.channel === "webhook" ? a.url : a.email) ?? "";

/** Alert rules of one comparison and the log of what they sent. */
export function AlertRules({ comparisonId, alerts, deliveries, runNumbers, loadError, onAlertsChange }: Props) {
  const { canEdit } = useCanEdit();
  const [removing, setRemoving] = useState<string | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);

  async function remove(a: AlertView) {
    setRemoving(a.id);
    setRemoveError(null);
    try {
      await deleteAlert(a.id);
      onAlertsChange((alerts ?? []).filter((x) => x.id !== a.id));
      toast({ title: "Alert Rule Deleted" });
    } catch (err) {
      setRemoveError(errorMessage(err, "Could not delete the alert rule. Try again."));
    } finally {
      setRemoving(null);
    }
  }

  const ruleName = (id: string) => {
    const a = alerts?.find((x) => x.id === id);
    return a ? destination(a) : "Deleted rule";
  };

  return (
    <Card size="3">
      <Flex align="center" gap="2" mb="1">
        <BellIcon aria-hidden />
        <Heading as="h3" size="4">
          Alerts
        </Heading>
      </Flex>
      <Text as="p" size="2" color="gray" mb="3">
        When a run finds changes, tell a webhook (Slack works) or an inbox.
      </Text>

      <AlertRuleForm comparisonId={comparisonId} onCreated={(a) => onAlertsChange([...(alerts ?? []), a])} />

      <Separator size="4" my="4" />
      <Heading as="h4" size="3" mb="2">
        Rules
      </Heading>
      {loadError ? (
        <Text size="2" color="red" role="alert">
          {loadError}
        </Text>
      ) : !alerts ? (
        <Text size="2" color="gray">
          Loading rules…
        </Text>
      ) : alerts.length === 0 ? (
        <Text size="2" color="gray">
          No alert rules yet.
        </Text>
      ) : (
        <Flex direction="column" gap="2" asChild>
          <ul aria-label="Alert rules" style={{ listStyle: "none", margin: 0, padding: 0 }} data-testid="alert-rules">
            {alerts.map((a) => (
              <li key={a.id}>
                <Flex
                  gap="3"
                  align="start"
                  justify="between"
                  p="2"
                  style={{ border: "1px solid var(--gray-a5)", borderRadius: "var(--radius-3)" }}
                >
                  <Flex direction="column" gap="1" style={{ minWidth: 0 }}>
                    <Flex gap="2" align="center" wrap="wrap">
                      <Badge color={a.channel === "webhook" ? "violet" : "blue"} variant="soft">
                        {a.channel === "webhook" ? "Webhook" : "Email"}
                      </Badge>
                      <Text size="2" style={{ overflowWrap: "anywhere" }}>
                        {destination(a)}
                      </Text>
                    </Flex>
                    <Text size="1" color="gray">
                      {MIN_SEVERITY_LABEL[a.minSeverity]} ·{" "}
                      {a.kinds.length === 0 ? "every kind" : a.kinds.map((k) => KIND_LABEL[k]).join(", ")}
                    </Text>
                  </Flex>
                  <Button
                    size="1"
                    color="red"
                    variant="soft"
                    loading={removing === a.id}
                    disabled={!canEdit}
                    onClick={() => void remove(a)}
                    aria-label={`Delete alert rule ${destination(a)}`}
                  >
                    <TrashIcon aria-hidden /> Delete
                  </Button>
                </Flex>
              </li>
            ))}
          </ul>
        </Flex>
      )}
      {removeError && (
        <Text as="p" size="2" color="red" role="alert" mt="2">
          {removeError}
        </Text>
      )}

      <Heading as="h4" size="3" mt="4" mb="2">
        Recent deliveries
      </Heading>
      {!deliveries ? (
        <Text size="2" color="gray">
          {loadError ? "—" : "Loading deliveries…"}
        </Text>
      ) : deliveries.length === 0 ? (
        <Text size="2" color="gray">
          Nothing sent yet. Deliveries appear here after a run with changes.
        </Text>
      ) : (
        <Flex direction="column" gap="2" asChild>
          <ul aria-label="Recent deliveries" style={{ listStyle: "none", margin: 0, padding: 0 }} data-testid="alert-deliveries">
            {deliveries.slice(0, 20).map((d) => (
              <li key={`${d.alertId}-${d.runId}`}>
                <Box p="2" style={{ border: "1px solid var(--gray-a5)", borderRadius: "var(--radius-3)" }}>
                  <Flex gap="2" align="center" wrap="wrap">
                    <Badge color={d.status === "sent" ? "green" : "red"} variant="soft">
                      {d.status === "sent" ? "Sent" : "Failed"}
                    </Badge>
                    <Text size="2" style={{ overflowWrap: "anywhere" }}>
                      {ruleName(d.alertId)}
                    </Text>
                    <Text size="1" color="gray">
                      Run {runNumbers.has(d.runId) ? `#${runNumbers.get(d.runId)}` : "(pruned)"} · {d.attempts} attempt
                      {d.attempts === 1 ? "" : "s"}
                      {d.sentAt ? ` · ${formatWhen(d.sentAt)}` : ""}
                    </Text>
                  </Flex>
                  {d.lastError && (
                    <Text as="div" size="1" color="red" mt="1">
                      Last error:{" "}
                      <Code size="1" color="red" style={{ overflowWrap: "anywhere" }}>
                        {d.lastError}
                      </Code>
                    </Text>
                  )}
                </Box>
              </li>
            ))}
          </ul>
        </Flex>
      )}
    </Card>
  );
}
