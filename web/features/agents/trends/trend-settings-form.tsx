import { Button, Card, Checkbox, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { useEffect, useState, type FormEvent } from "react";
import type { TrendSettings } from "#server/modules/agents/model";
import type { TrendType } from "#server/modules/agents/logic/trend-mining";

const TYPES: { value: TrendType; label: string }[] = [
  { value: "color", label: "Colour families" },
  { value: "typography", label: "Typefaces" },
  { value: "theme", label: "Dark vs light" },
  { value: "layout", label: "Hero layouts" },
  { value: "cta", label: "Calls to action" },
  { value: "performance", label: "Page weight & LCP" },
  { value: "findings", label: "Recurring findings" },
  { value: "keywords", label: "Custom keywords" },
];

const SOURCES: { value: TrendSettings["sources"][number]; label: string }[] = [
  { value: "snapshots", label: "Captured snapshots" },
  { value: "findings", label: "Comparison findings" },
];

export interface TrendSettingsFormProps {
  settings: TrendSettings;
  editable: boolean;
  onSave(next: TrendSettings): Promise<boolean>;
}

function NumberField(p: {
  id: string;
  label: string;
  hint: string;
  value: number;
  min: number;
  max: number;
  disabled: boolean;
  onChange(v: number): void;
}) {
  return (
    <Flex direction="column" gap="1" asChild>
      <label htmlFor={p.id}>
        <Text size="2" weight="medium">
          {p.label}
        </Text>
        <TextField.Root
          id={p.id}
          type="number"
          min={p.min}
          max={p.max}
          step={1}
          value={Number.isFinite(p.value) ? String(p.value) : ""}
          disabled={p.disabled}
          onChange={(e) => p.onChange(e.currentTarget.value === "" ? Number.NaN : Number(e.currentTarget.value))}
        />
        <Text size="1" color="gray">
          {p.hint}
        </Text>
      </label>
    </Flex>
  );
}

function toggle<T>(list: readonly T[], v: T, on: boolean): T[] {
  return on ? [...new Set([...list, v])] : list.filter((x) => x !== v);
}

/** Spec §3's trend-discovery settings, read by TrendHunter on every scan. Admins edit; others read. */
export function TrendSettingsForm({ settings, editable, onSave }: TrendSettingsFormProps) {
  const [draft, setDraft] = useState(settings);
  const [keywords, setKeywords] = useState(settings.customKeywords.join(", "));
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setDraft(settings);
    setKeywords(settings.customKeywords.join(", "));
  }, [settings]);
  const disabled = !editable || saving;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    const customKeywords = keywords
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean);
    await onSave({ ...draft, customKeywords });
    setSaving(false);
  }

  return (
    <Card size="3">
      <form onSubmit={submit} aria-labelledby="trend-settings-title">
        <Flex direction="column" gap="4">
          <Flex direction="column" gap="1">
            <Heading as="h2" size="4" id="trend-settings-title">
              Trend discovery settings
            </Heading>
            <Text size="2" color="gray">
              {editable ? "TrendHunter reads these on every scan." : "Only admins can change these; TrendHunter reads them on every scan."}
            </Text>
          </Flex>
          <div className="ag-grid" style={{ gridTemplateColumns: "repeat(auto-fill, minmax(200px, 1fr))" }}>
            <NumberField
              id="ts-frequency"
              label="Frequency (seconds)"
              hint="How often TrendHunter scans"
              value={draft.frequency}
              min={10}
              max={86400}
              disabled={disabled}
              onChange={(v) => setDraft({ ...draft, frequency: v })}
            />
            <NumberField
              id="ts-threshold"
              label="Confidence threshold (%)"
              hint="Trends below it aren't reported"
              value={draft.confidenceThreshold}
              min={50}
              max={99}
              disabled={disabled}
              onChange={(v) => setDraft({ ...draft, confidenceThreshold: v })}
            />
            <NumberField
              id="ts-max"
              label="Max results"
              hint="Most certain first"
              value={draft.maxResults}
              min={1}
              max={100}
              disabled={disabled}
              onChange={(v) => setDraft({ ...draft, maxResults: v })}
            />
            <NumberField
              id="ts-ai"
              label="AI detection confidence (%)"
              hint="At or above: a high-confidence signal"
              value={draft.aiDetectionConfidence}
              min={50}
              max={100}
              disabled={disabled}
              onChange={(v) => setDraft({ ...draft, aiDetectionConfidence: v })}
            />
          </div>
          <fieldset className="ag-fieldset" disabled={disabled} style={{ border: 0, padding: 0, margin: 0 }}>
            <legend>
              <Text size="2" weight="medium">
                Sources
              </Text>
            </legend>
            <Flex gap="4" wrap="wrap" mt="2">
              {SOURCES.map((s) => (
                <Text as="label" size="2" key={s.value}>
                  <Flex gap="2" align="center">
                    <Checkbox
                      disabled={disabled}
                      checked={draft.sources.includes(s.value)}
                      onCheckedChange={(c) => setDraft({ ...draft, sources: toggle(draft.sources, s.value, c === true) })}
                    />
                    {s.label}
                  </Flex>
                </Text>
              ))}
            </Flex>
          </fieldset>
          <fieldset disabled={disabled} style={{ border: 0, padding: 0, margin: 0 }}>
            <legend>
              <Text size="2" weight="medium">
                Trend types
              </Text>
            </legend>
            <Flex gap="4" wrap="wrap" mt="2">
              {TYPES.map((t) => (
                <Text as="label" size="2" key={t.value}>
                  <Flex gap="2" align="center">
                    <Checkbox
                      disabled={disabled}
                      checked={draft.trendTypes.includes(t.value)}
                      onCheckedChange={(c) => setDraft({ ...draft, trendTypes: toggle(draft.trendTypes, t.value, c === true) })}
                    />
                    {t.label}
                  </Flex>
                </Text>
              ))}
            </Flex>
          </fieldset>
          <Flex direction="column" gap="1" asChild>
            <label htmlFor="ts-keywords">
              <Text size="2" weight="medium">
                Custom keywords
              </Text>
              <TextField.Root
                id="ts-keywords"
                value={keywords}
                disabled={disabled}
                placeholder="e.g. AI, free trial, pricing"
                onChange={(e) => setKeywords(e.currentTarget.value)}
              />
              <Text size="1" color="gray">
                Comma-separated, up to 10. A keyword is a trend when most sites' copy mentions it.
              </Text>
            </label>
          </Flex>
          {editable && (
            <Flex>
              <Button type="submit" loading={saving}>
                Save settings
              </Button>
            </Flex>
          )}
        </Flex>
      </form>
    </Card>
  );
}
