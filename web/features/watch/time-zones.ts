// IANA zone names for the schedule and digest pickers, grouped by region.

/** The browser's own zone; UTC on the server (callers only ask in the browser). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** Every zone this runtime knows, plus UTC and any zone already in use (an alias the list leaves out). */
export function timeZones(...inUse: (string | null | undefined)[]): string[] {
  let all: string[] = [];
  try {
    all = Intl.supportedValuesOf("timeZone");
  } catch {
    /* an old runtime: the zones in use and UTC still work */
  }
  return [...new Set(["UTC", ...all, ...inUse.filter((z): z is string => !!z)])].sort((a, b) => a.localeCompare(b));
}

/** Zones grouped by the part before the first slash ("Europe/Berlin" → "Europe"); UTC and Etc under "Other". */
export function groupTimeZones(zones: string[]): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const z of zones) {
    const region = z.includes("/") && !z.startsWith("Etc/") ? z.slice(0, z.indexOf("/")) : "Other";
    groups.set(region, [...(groups.get(region) ?? []), z]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a === "Other" ? 1 : b === "Other" ? -1 : a.localeCompare(b)));
}
