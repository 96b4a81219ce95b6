// Cron expressions for watch schedules: 5 fields read as wall-clock time in an IANA zone, evaluated
// by croner (maintained, no dependencies, DST-aware). What this file adds is the contract's
// validation: one clear message that names the field or zone at fault, and no sub-minute schedules.
//
// DST, as croner implements it and the tests pin: a fixed-time job ("30 2 * * *") whose local time
// falls in a spring-forward gap runs at the first valid instant after the gap; when a local time
// occurs twice (fall back) it runs once, on the first occurrence. Interval jobs ("*/30 * * * *")
// skip times in a gap and run on both occurrences of a repeated hour.

import { Cron } from "croner";

export const CRON_FIELDS = [
  { name: "minute", allowed: "0-59" },
  { name: "hour", allowed: "0-23" },
  { name: "day-of-month", allowed: "1-31" },
  { name: "month", allowed: "1-12 or JAN-DEC" },
  { name: "day-of-week", allowed: "0-7 or SUN-SAT (0 and 7 are Sunday)" },
] as const;

const SHORTHANDS = new Set(["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"]);
const MAX_CRON_LENGTH = 120;
// IANA names only ("Europe/Berlin", "UTC", "America/Argentina/Buenos_Aires"): Intl also takes
// raw offsets like "+01:00", which have no DST rules and are not what the contract promises.
const ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

export type ScheduleCheck = { ok: true; cron: string; timezone: string } | { ok: false; error: string };

const FIVE_FIELDS = "use 5 fields: minute hour day-of-month month day-of-week";

/** The croner object for a checked schedule (for walking many slots without re-parsing). */
export function cronFor(pattern: string, timezone: string): Cron {
  // OR between day-of-month and day-of-week when both are set, as in Vixie cron (croner's default,
  // spelled out so a library default change can't silently alter users' schedules).
  return new Cron(pattern, { mode: "5-part", timezone, domAndDow: false });
}

/** The IANA zone in its canonical spelling, or null when the runtime does not know it. */
export function canonicalZone(timezone: string): string | null {
  if (timezone.length > 64 || !ZONE_SHAPE.test(timezone)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

function checkCron(raw: string): { ok: true; cron: string } | { ok: false; error: string } {
  const cron = raw.trim().replace(/\s+/g, " ");
  if (!cron) return { ok: false, error: `The cron expression is empty: ${FIVE_FIELDS}` };
  if (cron.length > MAX_CRON_LENGTH) return { ok: false, error: `The cron expression is longer than ${MAX_CRON_LENGTH} characters` };
  if (cron.startsWith("@")) {
    const word = cron.toLowerCase();
    if (!SHORTHANDS.has(word)) {
      return { ok: false, error: `Unknown cron shorthand "${cron}": use one of ${[...SHORTHANDS].join(", ")} or ${FIVE_FIELDS}` };
    }
    return { ok: true, cron: word };
  }
  const fields = cron.split(" ");
  if (fields.length === 6 || fields.length === 7) {
    return {
      ok: false,
      error: `The cron expression has ${fields.length} fields; ${FIVE_FIELDS}. Seconds are not supported: the shortest interval is one minute`,
    };
  }
  if (fields.length !== 5)
    return { ok: false, error: `The cron expression has ${fields.length} field${fields.length === 1 ? "" : "s"}; ${FIVE_FIELDS}` };
  // Each field alone against wildcards elsewhere, so the message can name the one at fault.
  for (let i = 0; i < 5; i++) {
    const probe = fields.map((f, j) => (j === i ? f : "*")).join(" ");
    try {
      cronFor(probe, "UTC");
    } catch {
      const field = CRON_FIELDS[i]!;
      return {
        ok: false,
        error: `Invalid ${field.name} field "${fields[i]}" in cron expression: allowed ${field.allowed}, with lists (1,15), ranges (1-5) and steps (*/15)`,
      };
    }
  }
  try {
    cronFor(cron, "UTC");
  } catch (err) {
    return {
      ok: false,
      error: `Invalid cron expression "${cron}": ${err instanceof Error ? err.message.replace(/^CronPattern:\s*/, "") : String(err)}`,
    };
  }
  return { ok: true, cron };
}

/** Validates a schedule as the API receives it; the message names the problem for a 400. */
export function checkSchedule(cron: unknown, timezone: unknown, now: Date = new Date()): ScheduleCheck {
  if (typeof cron !== "string") return { ok: false, error: "cron must be a string" };
  if (typeof timezone !== "string") return { ok: false, error: "timezone must be a string" };
  const c = checkCron(cron);
  if (!c.ok) return c;
  const zone = canonicalZone(timezone.trim());
  if (!zone) return { ok: false, error: `Unknown time zone "${timezone.slice(0, 64)}": use an IANA name such as "Europe/Berlin" or "UTC"` };
  // "0 0 30 2 *" parses but never fires: a schedule that never runs is a mistake worth naming.
  if (!nextRunAfter(c.cron, zone, now)) return { ok: false, error: `The cron expression "${c.cron}" never matches a date` };
  return { ok: true, cron: c.cron, timezone: zone };
}

/** The first slot strictly after `after`, or null if the pattern never fires again. Expects a checked schedule. */
export function nextRunAfter(cron: string, timezone: string, after: Date): Date | null {
  return cronFor(cron, timezone).nextRun(after);
}

/** The next `count` slots after `after` (for previews such as "next runs: …"). */
export function nextRunsAfter(cron: string, timezone: string, after: Date, count: number): Date[] {
  return cronFor(cron, timezone).nextRuns(count, after);
}
