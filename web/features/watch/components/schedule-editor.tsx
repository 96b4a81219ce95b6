import { Button, Card, Code, Flex, Grid, Heading, RadioCards, Select, Text, TextField } from "@radix-ui/themes";
import { ClockIcon } from "@radix-ui/react-icons";
import { type FormEvent, useId, useState } from "react";
import { DisabledReason, ReasonNote } from "#web/components/ui/disabled-reason";
import { useCanEdit } from "#web/lib/workspace";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { putSchedule, removeSchedule, type ScheduleView } from "../api";
import {
  cronToPreset,
  DEFAULT_PRESET,
  describePreset,
  parseTime,
  type PresetKind,
  presetToCron,
  type SchedulePreset,
  timeOf,
  WEEKDAYS,
} from "../cron-presets";
import { formatWhen, fromNow } from "../format";
import { browserTimeZone } from "../time-zones";
import { TimeZoneSelect } from "./time-zone-select";

interface Props {
  comparisonId: string;
  schedule: ScheduleView | null;
  onChange(schedule: ScheduleView | null): void;
}

const KINDS: { value: PresetKind; label: string }[] = [
  { value: "hourly", label: "Hourly" },
  { value: "daily", label: "Daily" },
  { value: "weekly", label: "Weekly" },
  { value: "custom", label: "Custom" },
];

/** Runs the comparison on a cron schedule: presets that write the cron, or the cron itself. */
export function ScheduleEditor({ comparisonId, schedule, onChange }: Props) {
  const ids = useId();
  const [preset, setPreset] = useState<SchedulePreset>(() => (schedule ? cronToPreset(schedule.cron) : DEFAULT_PRESET));
  const [zone, setZone] = useState(() => schedule?.timezone ?? browserTimeZone());
  const [busy, setBusy] = useState<"save" | "remove" | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Scheduling needs the editor role; a viewer sees the schedule and why it is locked.
  const { canEdit, reason } = useCanEdit();
  const cron = presetToCron(preset);
  const set = (patch: Partial<SchedulePreset>) => {
    setError(null);
    setPreset((p) => ({ ...p, ...patch }));
  };
  const setKind = (kind: PresetKind) => set(kind === "custom" ? { kind, custom: presetToCron(preset) } : { kind });

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy("save");
    setError(null);
    try {
      const saved = await putSchedule(comparisonId, cron, zone);
      onChange(saved);
      toast({
        title: "Schedule Saved",
        description: saved.nextRunAt ? `Next run ${formatWhen(saved.nextRunAt, saved.timezone)}` : undefined,
      });
    } catch (err) {
      setError(errorMessage(err, "Could not save the schedule. Try again."));
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    setBusy("remove");
    setError(null);
    try {
      await removeSchedule(comparisonId);
      onChange(null);
      toast({ title: "Schedule Removed", description: "This comparison now runs only when you start it." });
    } catch (err) {
      setError(errorMessage(err, "Could not remove the schedule. Try again."));
    } finally {
      setBusy(null);
    }
  }

  const time = (
    <label>
      <Text as="div" size="2" weight="medium" mb="1">
        Time
      </Text>
      <TextField.Root
        type="time"
        value={timeOf(preset)}
        onChange={(e) => {
          const t = parseTime(e.target.value);
          if (t) set(t);
        }}
        required
      />
    </label>
  );

  return (
    <Card size="3">
      <Flex align="center" gap="2" mb="1">
        <ClockIcon aria-hidden />
        <Heading as="h3" size="4" id={`${ids}-heading`}>
          Schedule
        </Heading>
      </Flex>
      <Text as="p" size="2" color="gray" mb="3">
        Run this comparison by itself and keep every run in its history.
      </Text>

      {schedule && (
        <Flex
          direction="column"
          gap="1"
          mb="3"
          p="3"
          style={{ background: "var(--accent-a2)", borderRadius: "var(--radius-3)" }}
          data-testid="schedule-current"
        >
          <Text size="2" weight="medium">
            {describePreset(cronToPreset(schedule.cron))} <Text color="gray">({schedule.timezone.replaceAll("_", " ")})</Text>
          </Text>
          <Text size="2" data-testid="next-run">
            {schedule.nextRunAt ? (
              <>
                Next run: <strong>{formatWhen(schedule.nextRunAt, schedule.timezone)}</strong>{" "}
                <Text color="gray">({fromNow(schedule.nextRunAt)})</Text>
              </>
            ) : (
              <Text color="gray">This schedule will not fire again.</Text>
            )}
          </Text>
        </Flex>
      )}

      <form onSubmit={save} aria-labelledby={`${ids}-heading`}>
        <fieldset disabled={!canEdit} className="di-plain-fieldset">
          <Flex direction="column" gap="3">
            <div>
              <Text as="div" size="2" weight="medium" mb="1" id={`${ids}-repeat`}>
                Repeat
              </Text>
              {/* Radio cards wrap two by two on a phone, where four segments would not fit. */}
              <RadioCards.Root
                size="1"
                columns={{ initial: "2", sm: "4" }}
                gap="2"
                value={preset.kind}
                onValueChange={(v) => setKind(v as PresetKind)}
                aria-labelledby={`${ids}-repeat`}
              >
                {KINDS.map((k) => (
                  <RadioCards.Item key={k.value} value={k.value}>
                    {k.label}
                  </RadioCards.Item>
                ))}
              </RadioCards.Root>
            </div>

            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              {preset.kind === "hourly" && (
                <label>
                  <Text as="div" size="2" weight="medium" mb="1">
                    Minutes past the hour
                  </Text>
                  <TextField.Root
                    type="number"
                    min={0}
                    max={59}
                    value={String(preset.minute)}
                    onChange={(e) => {
                      const n = Number(e.target.value);
                      if (Number.isInteger(n) && n >= 0 && n <= 59) set({ minute: n });
                    }}
                    required
                  />
                </label>
              )}
              {preset.kind === "weekly" && (
                <div>
                  <Text as="div" size="2" weight="medium" mb="1" id={`${ids}-day`}>
                    Day
                  </Text>
                  <Select.Root value={String(preset.weekday)} onValueChange={(v) => set({ weekday: Number(v) })}>
                    <Select.Trigger aria-labelledby={`${ids}-day`} style={{ width: "100%" }} />
                    <Select.Content position="popper">
                      {WEEKDAYS.map((d, i) => (
                        <Select.Item key={d} value={String(i)}>
                          {d}
                        </Select.Item>
                      ))}
                    </Select.Content>
                  </Select.Root>
                </div>
              )}
              {(preset.kind === "daily" || preset.kind === "weekly") && time}
              {preset.kind === "custom" && (
                <div style={{ gridColumn: "1 / -1" }}>
                  <Text as="label" size="2" weight="medium" mb="1" htmlFor={`${ids}-cron`} style={{ display: "block" }}>
                    Cron expression
                  </Text>
                  <TextField.Root
                    id={`${ids}-cron`}
                    value={preset.custom}
                    onChange={(e) => set({ custom: e.target.value })}
                    placeholder="0 9 * * 1"
                    spellCheck={false}
                    autoComplete="off"
                    aria-describedby={`${ids}-cron-hint`}
                    style={{ fontFamily: "var(--code-font-family)" }}
                    required
                  />
                  <Text as="div" size="1" color="gray" mt="1" id={`${ids}-cron-hint`}>
                    Five fields: minute, hour, day of month, month, day of week. At most once a minute.
                  </Text>
                </div>
              )}
              <div style={preset.kind === "custom" || preset.kind === "hourly" ? { gridColumn: "1 / -1" } : undefined}>
                <Text as="div" size="2" weight="medium" mb="1" id={`${ids}-zone`}>
                  Time zone
                </Text>
                <TimeZoneSelect value={zone} onChange={(z) => (setError(null), setZone(z))} labelledBy={`${ids}-zone`} />
              </div>
            </Grid>

            {preset.kind !== "custom" && (
              <Text size="1" color="gray">
                Writes the cron <Code size="1">{cron}</Code>
              </Text>
            )}

            {error && (
              <Text size="2" color="red" role="alert" data-testid="schedule-error">
                {error}
              </Text>
            )}

            <Flex gap="2" wrap="wrap" align="center">
              <DisabledReason reason={reason}>
                <Button type="submit" loading={busy === "save"} disabled={!canEdit || busy !== null || cron === ""}>
                  {schedule ? "Update Schedule" : "Save Schedule"}
                </Button>
              </DisabledReason>
              {schedule && (
                <Button
                  type="button"
                  color="red"
                  variant="soft"
                  loading={busy === "remove"}
                  disabled={busy !== null}
                  onClick={() => void remove()}
                >
                  Remove Schedule
                </Button>
              )}
              <ReasonNote reason={reason} />
            </Flex>
          </Flex>
        </fieldset>
      </form>
    </Card>
  );
}
