// The schedule editor's presets and the 5-field cron each writes. A saved cron that matches a
// preset opens as that preset; anything else opens in the custom field, untouched.

export type PresetKind = "hourly" | "daily" | "weekly" | "custom";

export interface SchedulePreset {
  kind: PresetKind;
  /** 0-59: the minute past the hour (all presets). */
  minute: number;
  /** 0-23 (daily and weekly). */
  hour: number;
  /** 0 = Sunday … 6 = Saturday, as cron counts (weekly). */
  weekday: number;
  /** The expression itself (custom). */
  custom: string;
}

export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

export const DEFAULT_PRESET: SchedulePreset = { kind: "daily", minute: 0, hour: 9, weekday: 1, custom: "0 9 * * 1" };

/** The cron a preset writes. */
export function presetToCron(p: SchedulePreset): string {
  switch (p.kind) {
    case "hourly":
      return `${p.minute} * * * *`;
    case "daily":
      return `${p.minute} ${p.hour} * * *`;
    case "weekly":
      return `${p.minute} ${p.hour} * * ${p.weekday}`;
    case "custom":
      return p.custom.trim().split(/\s+/).join(" ");
  }
}

const int = (s: string, max: number): number | null => (/^\d{1,2}$/.test(s) && Number(s) <= max ? Number(s) : null);

/** The preset a saved cron reads as; the custom field for anything the presets cannot write. */
export function cronToPreset(cron: string): SchedulePreset {
  const fields = cron.trim().split(/\s+/);
  const custom: SchedulePreset = { ...DEFAULT_PRESET, kind: "custom", custom: cron.trim() };
  if (fields.length !== 5) return custom;
  const [m, h, dom, mon, dow] = fields as [string, string, string, string, string];
  const minute = int(m, 59);
  if (minute === null || dom !== "*" || mon !== "*") return custom;
  if (h === "*" && dow === "*") return { ...custom, kind: "hourly", minute };
  const hour = int(h, 23);
  if (hour === null) return custom;
  if (dow === "*") return { ...custom, kind: "daily", minute, hour };
  // 7 is Sunday too in most crons; the preset writes 0.
  const day = int(dow, 7);
  if (day === null) return custom;
  return { ...custom, kind: "weekly", minute, hour, weekday: day % 7 };
}

const pad = (n: number) => String(n).padStart(2, "0");
export const timeOf = (p: Pick<SchedulePreset, "hour" | "minute">) => `${pad(p.hour)}:${pad(p.minute)}`;

/** "HH:MM" from a time input; null when it is not a time. */
export function parseTime(value: string): { hour: number; minute: number } | null {
  const m = /^(\d{2}):(\d{2})/.exec(value);
  if (!m) return null;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  return hour <= 23 && minute <= 59 ? { hour, minute } : null;
}

/** In words, for the saved schedule's line. */
export function describePreset(p: SchedulePreset): string {
  switch (p.kind) {
    case "hourly":
      return p.minute === 0 ? "Every hour, on the hour" : `Every hour at ${p.minute} past`;
    case "daily":
      return `Every day at ${timeOf(p)}`;
    case "weekly":
      return `Every ${WEEKDAYS[p.weekday]} at ${timeOf(p)}`;
    case "custom":
      return `Custom: ${p.custom}`;
  }
}
