import { ReasonNote } from "#web/components/ui/disabled-reason";
import { useCanEdit } from "#web/lib/workspace";
import { Button, CheckboxGroup, Flex, Grid, SegmentedControl, Select, Text, TextField } from "@radix-ui/themes";
import { type FormEvent, useId, useState } from "react";
import { errorMessage } from "#web/lib/api";
import { type AlertView, type ChangeKind, createAlert, type Severity } from "../api";
import { KIND_LABEL, KINDS, MIN_SEVERITY_LABEL, SEVERITIES } from "../changes-data";

interface Props {
  comparisonId: string;
  onCreated(alert: AlertView): void;
}

type Channel = "webhook" | "email";

/** A new alert rule: where it goes, how severe a change must be, and which kinds count. */
export function AlertRuleForm({ comparisonId, onCreated }: Props) {
  const ids = useId();
  const [channel, setChannel] = useState<Channel>("webhook");
  const [address, setAddress] = useState("");
  const [minSeverity, setMinSeverity] = useState<Severity>("low");
  const [kinds, setKinds] = useState<ChangeKind[]>([]);
  const [busy, setBusy] = useState(false);
  // Managing alerts needs the editor role.
  const { canEdit, reason } = useCanEdit();
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const target = address.trim();
    if (!target) return;
    setBusy(true);
    setError(null);
    try {
      const created = await createAlert(comparisonId, {
        channel,
        ...(channel === "webhook" ? { url: target } : { email: target }),
        minSeverity,
        kinds,
      });
      onCreated(created);
      setAddress("");
    } catch (err) {
      setError(errorMessage(err, "Could not add the alert rule. Try again."));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} aria-label="New alert rule">
      <fieldset disabled={!canEdit} className="di-plain-fieldset">
        <Flex direction="column" gap="3">
          <div>
            <Text as="div" size="2" weight="medium" mb="1" id={`${ids}-channel`}>
              Channel
            </Text>
            <SegmentedControl.Root
              value={channel}
              onValueChange={(v) => (setError(null), setChannel(v as Channel))}
              aria-labelledby={`${ids}-channel`}
              style={{ width: "100%" }}
            >
              <SegmentedControl.Item value="webhook">Webhook</SegmentedControl.Item>
              <SegmentedControl.Item value="email">Email</SegmentedControl.Item>
            </SegmentedControl.Root>
          </div>
          <Grid columns={{ initial: "1", sm: "minmax(0, 2fr) minmax(0, 1fr)" }} gap="3">
            <label>
              <Text as="div" size="2" weight="medium" mb="1">
                {channel === "webhook" ? "Webhook URL" : "Email address"}
              </Text>
              <TextField.Root
                type={channel === "webhook" ? "url" : "email"}
                value={address}
                onChange={(e) => (setError(null), setAddress(e.target.value))}
                placeholder={channel === "webhook" ? "https://hooks.slack.com/services/…" : "you@example.com"}
                maxLength={channel === "webhook" ? 2048 : 254}
                autoComplete={channel === "email" ? "email" : "off"}
                spellCheck={false}
                required
              />
            </label>
            <div>
              <Text as="div" size="2" weight="medium" mb="1" id={`${ids}-severity`}>
                Minimum severity
              </Text>
              <Select.Root value={minSeverity} onValueChange={(v) => setMinSeverity(v as Severity)}>
                <Select.Trigger aria-labelledby={`${ids}-severity`} style={{ width: "100%" }} />
                <Select.Content position="popper">
                  {[...SEVERITIES].reverse().map((s) => (
                    <Select.Item key={s} value={s}>
                      {MIN_SEVERITY_LABEL[s]}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            </div>
          </Grid>
          <div role="group" aria-labelledby={`${ids}-kinds`}>
            <Text as="div" size="2" weight="medium" id={`${ids}-kinds`}>
              Kinds of change
            </Text>
            <Text as="div" size="1" color="gray" mb="2">
              None ticked: every kind counts.
            </Text>
            <CheckboxGroup.Root value={kinds} onValueChange={(v) => setKinds(v as ChangeKind[])} size="2">
              <Grid columns={{ initial: "2", sm: "4" }} gap="2">
                {KINDS.map((k) => (
                  <CheckboxGroup.Item key={k} value={k}>
                    {KIND_LABEL[k]}
                  </CheckboxGroup.Item>
                ))}
              </Grid>
            </CheckboxGroup.Root>
          </div>
          {error && (
            <Text size="2" color="red" role="alert" data-testid="alert-error">
              {error}
            </Text>
          )}
          <Flex gap="3" align="center" wrap="wrap">
            <Button type="submit" loading={busy} disabled={!address.trim()}>
              Add Alert Rule
            </Button>
            <ReasonNote reason={reason} />
          </Flex>
        </Flex>
      </fieldset>
    </form>
  );
}
