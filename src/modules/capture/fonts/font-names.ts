// Font family names as comparable keys: a page may write "Muli", 'muli' or Muli, the platform
// reports the font file's own name, and some typefaces were renamed or have metric-compatible
// stand-ins. Shared by the capture (is a declared font what was drawn?) and the analysis.

/** Renamed typefaces and metric-compatible clones, each to one key. */
const ALIASES: Record<string, string> = {
  muli: "mulish",
  "source sans pro": "source sans 3",
  "source serif pro": "source serif 4",
  "source code pro": "source code pro",
  "ibm plex sans var": "ibm plex sans",
  "inter var": "inter",
  "inter variable": "inter",
  // Metric-compatible clones draw the same advance widths; Linux systems substitute them silently.
  arial: "liberation sans",
  arimo: "liberation sans",
  "times new roman": "liberation serif",
  tinos: "liberation serif",
  "courier new": "liberation mono",
  cousine: "liberation mono",
};

/** CSS generic and system keywords: they name no typeface, so they can never "fail to load". */
const GENERIC = new Set([
  "serif",
  "sans-serif",
  "monospace",
  "cursive",
  "fantasy",
  "system-ui",
  "ui-serif",
  "ui-sans-serif",
  "ui-monospace",
  "ui-rounded",
  "math",
  "emoji",
  "fangsong",
  "-apple-system",
  "blinkmacsystemfont",
  "inherit",
  "initial",
  "unset",
  "revert",
]);

/** `"Muli", sans-serif` -> "mulish": the first choice, unquoted, lower case, known renames applied. */
export function normaliseFamily(family: string): string {
  const first = (family.split(",")[0] ?? "")
    .trim()
    .replace(/^["']|["']$/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
  return ALIASES[first] ?? first;
}

export function isGenericFamily(family: string): boolean {
  return GENERIC.has(normaliseFamily(family));
}

/** "Roboto Slab" -> "robotoslab": how a family appears in font URLs (Roboto+Slab, roboto-slab, RobotoSlab-Bold). */
export function familySlug(family: string): string {
  return (family.split(",")[0] ?? "").toLowerCase().replace(/[^a-z0-9]/g, "");
}
