import { describe, expect, test } from "bun:test";
import { cronToPreset, DEFAULT_PRESET, describePreset, parseTime, presetToCron } from "./cron-presets";

describe("schedule presets write a 5-field cron", () => {
  test("hourly, daily and weekly", () => {
    expect(presetToCron({ ...DEFAULT_PRESET, kind: "hourly", minute: 15 })).toBe("15 * * * *");
    expect(presetToCron({ ...DEFAULT_PRESET, kind: "daily", hour: 7, minute: 30 })).toBe("30 7 * * *");
    expect(presetToCron({ ...DEFAULT_PRESET, kind: "weekly", hour: 9, minute: 0, weekday: 1 })).toBe("0 9 * * 1");
    expect(presetToCron({ ...DEFAULT_PRESET, kind: "custom", custom: "  */5   *  * * 1-5 " })).toBe("*/5 * * * 1-5");
  });

  test("a saved cron reads back as its preset; anything else stays custom and untouched", () => {
    expect(cronToPreset("15 * * * *")).toMatchObject({ kind: "hourly", minute: 15 });
    expect(cronToPreset("30 7 * * *")).toMatchObject({ kind: "daily", hour: 7, minute: 30 });
    expect(cronToPreset("0 9 * * 7")).toMatchObject({ kind: "weekly", weekday: 0 });
    for (const cron of ["*/5 * * * *", "0 9 1 * *", "0 9 * * 1-5", "0 24 * * *", "0 9 * *"]) {
      expect(cronToPreset(cron)).toMatchObject({ kind: "custom", custom: cron });
    }
    for (const cron of ["0 * * * *", "5 18 * * *", "45 6 * * 3"]) expect(presetToCron(cronToPreset(cron))).toBe(cron);
  });

  test("time input values and words", () => {
    expect(parseTime("07:05")).toEqual({ hour: 7, minute: 5 });
    expect(parseTime("25:00")).toBeNull();
    expect(parseTime("")).toBeNull();
    expect(describePreset(cronToPreset("0 9 * * 1"))).toBe("Every Monday at 09:00");
    expect(describePreset(cronToPreset("0 * * * *"))).toBe("Every hour, on the hour");
  });
});
