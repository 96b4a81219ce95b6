import { Button, Callout, Card, Flex, Grid, Heading, Spinner, Switch, Text, TextField } from "@radix-ui/themes";
import { type FormEvent, useEffect, useState } from "react";
import type { AlertSettings, AlertSettingsAnswer } from "#server/modules/admin/model";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { getAlertSettings, saveAlertSettings } from "../api";

interface Draft {
  cpuThreshold: string;
  memoryThreshold: string;
  errorRateThreshold: string;
  emailNotifications: boolean;
  slackNotifications: boolean;
}

const toDraft = (s: AlertSettings): Draft => ({
  ...s,
  cpuThreshold: String(s.cpuThreshold),
  memoryThreshold: String(s.memoryThreshold),
  errorRateThreshold: String(s.errorRateThreshold),
});

/** The same rules the server applies, so most mistakes are caught before the round trip. */
function validate(d: Draft): { settings?: AlertSettings; errors: Partial<Record<keyof Draft, string>> } {
  const errors: Partial<Record<keyof Draft, string>> = {};
  const int = (v: string, label: string, key: keyof Draft) => {
    const n = Number(v);
    if (v.trim() === "" || !Number.isInteger(n) || n < 1 || n > 100) errors[key] = `${label} must be a whole number from 1 to 100`;
    return n;
  };
  const cpu = int(d.cpuThreshold, "CPU threshold", "cpuThreshold");
  const memory = int(d.memoryThreshold, "Memory threshold", "memoryThreshold");
  const rate = Number(d.errorRateThreshold);
  if (
    d.errorRateThreshold.trim() === "" ||
    !Number.isFinite(rate) ||
    rate < 0.1 ||
    rate > 100 ||
    Math.abs(rate * 10 - Math.round(rate * 10)) > 1e-6
  )
    errors.errorRateThreshold = "Error rate threshold must be 0.1 to 100, in steps of 0.1";
  if (Object.keys(errors).length) return { errors };
  return {
    errors,
    settings: {
      cpuThreshold: cpu,
      memoryThreshold: memory,
      errorRateThreshold: Math.round(rate * 10) / 10,
      emailNotifications: d.emailNotifications,
      slackNotifications: d.slackNotifications,
    },
  };
}

/** The three thresholds: whole percent for host figures, tenths for the error rate (the server's steps). */
const THRESHOLD_FIELDS = [
  { key: "cpuThreshold", id: "cpu-threshold", label: "CPU Threshold", step: "1" },
  { key: "memoryThreshold", id: "memory-threshold", label: "Memory Threshold", step: "1" },
  { key: "errorRateThreshold", id: "error-rate-threshold", label: "Error Rate Threshold", step: "0.1" },
] as const satisfies readonly { key: keyof Draft; id: string; label: string; step: string }[];

function NumberField(p: {
  id: string;
  label: string;
  value: string;
  step: string;
  min: string;
  error?: string;
  onChange(v: string): void;
}) {
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={p.id} size="2" weight="medium">
        {p.label}
      </Text>
      <TextField.Root
        id={p.id}
        type="number"
        inputMode="decimal"
        min={p.min}
        max="100"
        step={p.step}
        value={p.value}
        onChange={(e) => p.onChange(e.target.value)}
        aria-invalid={p.error ? true : undefined}
        aria-describedby={p.error ? `${p.id}-error` : undefined}
        color={p.error ? "red" : undefined}
      >
        <TextField.Slot side="right">%</TextField.Slot>
      </TextField.Root>
      {p.error && (
        <Text id={`${p.id}-error`} size="1" color="red" role="alert">
          {p.error}
        </Text>
      )}
    </Flex>
  );
}

/** A notification channel's switch, its name and what switching it on does on this server. */
function SwitchRow(p: { label: string; hint: string; checked: boolean; onChange(v: boolean): void }) {
  return (
    <Text as="label" size="2">
      <Flex gap="3" align="center">
        <Switch checked={p.checked} onCheckedChange={p.onChange} />
        <Flex direction="column">
          <Text weight="medium">{p.label}</Text>
          <Text size="1" color="gray">
            {p.hint}
          </Text>
        </Flex>
      </Flex>
    </Text>
  );
}

export function SettingsTab({ initial }: { initial: AlertSettingsAnswer | null }) {
  const [answer, setAnswer] = useState(initial);
  const [draft, setDraft] = useState<Draft | null>(initial ? toDraft(initial.settings) : null);
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    if (answer) return;
    getAlertSettings()
      .then((a) => {
        setAnswer(a);
        setDraft(toDraft(a.settings));
      })
      .catch((e) => setFailed(errorMessage(e, "Could not load alert settings")));
  }, [answer]);

  if (failed)
    return (
      <Callout.Root color="red">
        <Callout.Text>{failed}</Callout.Text>
      </Callout.Root>
    );
  if (!draft || !answer)
    return (
      <Flex align="center" gap="2">
        <Spinner /> <Text size="2">Loading alert settings…</Text>
      </Flex>
    );

  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!draft) return;
    const checked = validate(draft);
    setErrors(checked.errors);
    if (!checked.settings) return;
    setSaving(true);
    try {
      const saved = await saveAlertSettings(checked.settings);
      setAnswer(saved);
      setDraft(toDraft(saved.settings));
      toast({ title: "Alert Settings Saved", description: "New thresholds are live. Crossing one alerts every signed-in admin." });
    } catch (err) {
      toast({ title: "Save Failed", description: errorMessage(err, "Unable to save alert settings."), variant: "destructive" });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={save} noValidate>
      <Flex direction="column" gap="3">
        <Card>
          <Heading as="h3" size="3" mb="3">
            Alert Thresholds
          </Heading>
          <Grid columns={{ initial: "1", sm: "3" }} gap="3">
            {THRESHOLD_FIELDS.map((f) => (
              <NumberField
                key={f.key}
                id={f.id}
                label={f.label}
                value={draft[f.key]}
                step={f.step}
                min={f.step}
                error={errors[f.key]}
                onChange={(v) => set({ [f.key]: v })}
              />
            ))}
          </Grid>
        </Card>
        <Card>
          <Heading as="h3" size="3" mb="3">
            Notifications
          </Heading>
          <Flex direction="column" gap="3">
            <SwitchRow
              label="Email Notifications"
              checked={draft.emailNotifications}
              onChange={(v) => set({ emailNotifications: v })}
              hint={
                answer.channels.email
                  ? "Mails every active admin through the configured SMTP server."
                  : "Set SMTP_URL on the server to deliver these; meanwhile alerts reach admins in the console and the audit log."
              }
            />
            <SwitchRow
              label="Slack Notifications"
              checked={draft.slackNotifications}
              onChange={(v) => set({ slackNotifications: v })}
              hint={
                answer.channels.chat ? "Posts to the configured chat webhook." : "Set ALERT_WEBHOOK_URL on the server to deliver these."
              }
            />
          </Flex>
        </Card>
        <Flex justify="end">
          <Button type="submit" loading={saving}>
            Save Alert Settings
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}
