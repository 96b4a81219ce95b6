// The trend settings live in the shared `settings` table; both threads read them through here.
import { DEFAULT_TREND_SETTINGS, trendSettings, type TrendSettings } from "./model";

export const TREND_SETTINGS_KEY = "trends.settings";

/** Stored JSON that no longer validates (older shape, hand edits) falls back field by field to the defaults. */
export function readTrendSettings(raw: string | null): TrendSettings {
  if (!raw) return { ...DEFAULT_TREND_SETTINGS };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { ...DEFAULT_TREND_SETTINGS };
  }
  const merged = { ...DEFAULT_TREND_SETTINGS, ...(parsed && typeof parsed === "object" ? parsed : {}) };
  const ok = trendSettings.safeParse(merged);
  if (ok.success) return ok.data;
  const out: Record<string, unknown> = { ...DEFAULT_TREND_SETTINGS };
  for (const key of Object.keys(DEFAULT_TREND_SETTINGS) as (keyof TrendSettings)[]) {
    const field = trendSettings.shape[key].safeParse((merged as Record<string, unknown>)[key]);
    if (field.success) out[key] = field.data;
  }
  return out as TrendSettings;
}
