// Cron validation names the problem; next-run computation follows the zone, including DST.
import { describe, expect, test } from "bun:test";
import { checkSchedule, nextRunAfter, nextRunsAfter } from "#server/modules/watch/schedule/cron";

const NOW = new Date("2026-03-27T12:00:00Z");
const error = (cron: unknown, tz: unknown = "UTC") => {
  const r = checkSchedule(cron, tz, NOW);
  if (r.ok) throw new Error(`expected ${JSON.stringify(cron)} in ${String(tz)} to be refused`);
  return r.error;
};
const iso = (d: Date[]) => d.map((x) => x.toISOString());

describe("checkSchedule", () => {
  test("accepts 5-field expressions, names, shorthands and IANA zones (canonical spelling)", () => {
    expect(checkSchedule("0 9 * * 1", "Europe/Berlin", NOW)).toEqual({ ok: true, cron: "0 9 * * 1", timezone: "Europe/Berlin" });
    expect(checkSchedule("  */15   8-18 * * MON-FRI ", "europe/berlin", NOW)).toEqual({
      ok: true,
      cron: "*/15 8-18 * * MON-FRI",
      timezone: "Europe/Berlin",
    });
    expect(checkSchedule("@Daily", "UTC", NOW)).toEqual({ ok: true, cron: "@daily", timezone: "UTC" });
    expect(checkSchedule("* * * * *", "America/Argentina/Buenos_Aires", NOW).ok).toBe(true);
  });

  test("seconds (6 or 7 fields) are refused: the shortest interval is one minute", () => {
    expect(error("* * * * * *")).toBe(
      "The cron expression has 6 fields; use 5 fields: minute hour day-of-month month day-of-week. Seconds are not supported: the shortest interval is one minute",
    );
    expect(error("0 0 9 * * * 2027")).toContain("has 7 fields");
  });

  test("the wrong number of fields, an empty or unknown shorthand", () => {
    expect(error("0 9 * *")).toBe("The cron expression has 4 fields; use 5 fields: minute hour day-of-month month day-of-week");
    expect(error("   ")).toBe("The cron expression is empty: use 5 fields: minute hour day-of-month month day-of-week");
    expect(error("@every 5m")).toStartWith('Unknown cron shorthand "@every 5m"');
    expect(error("x".repeat(500))).toContain("longer than");
  });

  test("the field at fault is named with its allowed values", () => {
    expect(error("61 * * * *")).toBe(
      'Invalid minute field "61" in cron expression: allowed 0-59, with lists (1,15), ranges (1-5) and steps (*/15)',
    );
    expect(error("0 24 * * *")).toStartWith('Invalid hour field "24"');
    expect(error("0 0 0 * *")).toStartWith('Invalid day-of-month field "0"');
    expect(error("0 0 * 13 *")).toStartWith('Invalid month field "13"');
    expect(error("0 0 * * 8")).toStartWith('Invalid day-of-week field "8"');
    expect(error("*/0 * * * *")).toStartWith('Invalid minute field "*/0"');
    expect(error("0 9 * * FUNDAY")).toStartWith('Invalid day-of-week field "FUNDAY"');
  });

  test("a pattern that never fires is refused", () => {
    expect(error("0 0 30 2 *")).toBe('The cron expression "0 0 30 2 *" never matches a date');
  });

  test("unknown zones and raw offsets are refused, naming the zone", () => {
    expect(error("0 9 * * *", "Mars/Olympus_Mons")).toBe(
      'Unknown time zone "Mars/Olympus_Mons": use an IANA name such as "Europe/Berlin" or "UTC"',
    );
    expect(error("0 9 * * *", "+01:00")).toStartWith('Unknown time zone "+01:00"');
    expect(error("0 9 * * *", "")).toStartWith('Unknown time zone ""');
    expect(error(42)).toBe("cron must be a string");
    expect(error("0 9 * * *", null)).toBe("timezone must be a string");
  });
});

describe("next runs", () => {
  test("wall-clock time in the zone", () => {
    // Monday 09:00 in Berlin is 07:00Z in summer time, 08:00Z in winter time.
    expect(nextRunAfter("0 9 * * 1", "Europe/Berlin", NOW)!.toISOString()).toBe("2026-03-30T07:00:00.000Z");
    expect(nextRunAfter("0 9 * * 1", "Europe/Berlin", new Date("2026-11-01T00:00:00Z"))!.toISOString()).toBe("2026-11-02T08:00:00.000Z");
    expect(nextRunAfter("0 9 * * 1", "America/New_York", NOW)!.toISOString()).toBe("2026-03-30T13:00:00.000Z");
  });

  test("day-of-month and day-of-week together mean either (Vixie cron)", () => {
    // 1st of the month OR any Monday.
    expect(iso(nextRunsAfter("0 0 1 * 1", "UTC", new Date("2026-03-28T00:00:00Z"), 3))).toEqual([
      "2026-03-30T00:00:00.000Z",
      "2026-04-01T00:00:00.000Z",
      "2026-04-06T00:00:00.000Z",
    ]);
  });

  test("DST spring forward in Berlin: 02:30 does not exist on 29 March 2026, the job runs once at 03:00 CEST", () => {
    expect(iso(nextRunsAfter("30 2 * * *", "Europe/Berlin", NOW, 3))).toEqual([
      "2026-03-28T01:30:00.000Z", // 02:30 CET
      "2026-03-29T01:00:00.000Z", // 03:00 CEST, first instant after the gap
      "2026-03-30T00:30:00.000Z", // 02:30 CEST
    ]);
  });

  test("DST fall back in Berlin: 02:30 happens twice on 25 October 2026, the job runs once (first occurrence)", () => {
    expect(iso(nextRunsAfter("30 2 * * *", "Europe/Berlin", new Date("2026-10-23T12:00:00Z"), 3))).toEqual([
      "2026-10-24T00:30:00.000Z", // 02:30 CEST
      "2026-10-25T00:30:00.000Z", // 02:30 CEST, not again at 02:30 CET (01:30Z)
      "2026-10-26T01:30:00.000Z", // 02:30 CET
    ]);
  });

  test("an every-30-minutes job runs through the repeated hour on both occurrences", () => {
    expect(iso(nextRunsAfter("*/30 * * * *", "Europe/Berlin", new Date("2026-10-25T00:00:00Z"), 4))).toEqual([
      "2026-10-25T00:30:00.000Z",
      "2026-10-25T01:00:00.000Z",
      "2026-10-25T01:30:00.000Z",
      "2026-10-25T02:00:00.000Z",
    ]);
  });
});
