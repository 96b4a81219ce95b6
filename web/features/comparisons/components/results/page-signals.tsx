import { Flex, Text } from "@radix-ui/themes";
import type { Extraction } from "#server/modules/capture/model";

type Timing = Extraction["timing"];
type Metric = "fcpMs" | "lcpMs" | "ttfbMs";

const ROLES = [
  ["background", "Background"],
  ["text", "Text"],
  ["primary", "Primary"],
  ["secondary", "Secondary"],
] as const;

const ms = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`);
const pct = (share: number) => `${Math.round(share * 100)}%`;
/** Font stacks as declared ('"Roboto Slab", serif'): the first family, unquoted. */
const firstFamily = (stack: string) =>
  stack
    .split(",")[0]!
    .trim()
    .replace(/^["']|["']$/g, "");

/** "412 ms ± 38 ms": the median with half the spread measured over the samples; the bare median with one sample. */
export function timingFigure(t: Timing, metric: Metric): string | null {
  const v = t[metric];
  if (v === null) return null;
  const range = t.spread?.[metric];
  const samples = t.samples?.length ?? 1;
  if (!range || samples < 2) return ms(v);
  return `${ms(v)} ± ${ms((range.max - range.min) / 2)}`;
}

/** "3 samples", and how many of them recent captures of the page measured: "3 samples (2 from earlier runs)". */
function samplesText(t: Timing): string {
  const samples = t.samples?.length ?? 1;
  const earlier = t.samples?.filter((s) => s.fromRunAt).length ?? 0;
  const count = samples === 1 ? "1 sample" : `${samples} samples`;
  return earlier > 0 ? `${count} (${earlier} from earlier ${earlier === 1 ? "run" : "runs"})` : count;
}

/** Speed Index and TBT as figures, or null when not measured (older captures lack them: null too). */
const siFigure = (t: Timing) => (typeof t.speedIndexMs === "number" ? ms(t.speedIndexMs) : null);
const tbtFigure = (t: Timing) => (typeof t.tbtMs === "number" ? ms(t.tbtMs) : null);

/** One line of timing as measured: the figures, how many loads they come from and under which profile. */
export function timingLine(t: Timing): string {
  const parts = [
    ["TTFB", timingFigure(t, "ttfbMs")],
    ["FCP", timingFigure(t, "fcpMs")],
    ["LCP", timingFigure(t, "lcpMs")],
    ["SI", siFigure(t)],
    ["TBT", tbtFigure(t)],
  ]
    .filter((p): p is [string, string] => p[1] !== null)
    .map(([k, v]) => `${k} ${v}`);
  parts.push(samplesText(t));
  return parts.join(" · ");
}

/** The closed line: LCP, Speed Index and TBT as measured and from how many loads; the rest is inside. */
function summaryLine(t: Timing): string {
  const lcp = timingFigure(t, "lcpMs");
  const si = siFigure(t);
  const tbt = tbtFigure(t);
  return ["Measured", lcp && `LCP ${lcp}`, si && `Speed Index ${si}`, tbt && `TBT ${tbt}`, samplesText(t)].filter(Boolean).join(" · ");
}

/**
 * How Speed Index (with visually complete) and TBT were measured, or why not: "Speed Index 1.40 s,
 * visually complete 2.10 s (filmstrip of the capture's own load)". Older captures measured neither.
 */
export function visualTimingLines(t: Timing): string[] {
  const by = t.measuredBy;
  if (!by) return ["Speed Index and TBT: not measured for this capture"];
  const how = (m: { method: string | null; reason: string | null }) => (m.method ? m.method.split(":")[0]! : null);
  const si =
    typeof t.speedIndexMs === "number"
      ? `Speed Index ${ms(t.speedIndexMs)}${typeof t.visuallyCompleteMs === "number" ? `, visually complete ${ms(t.visuallyCompleteMs)}` : ""} (${how(by.speedIndex)})`
      : `Speed Index not measured: ${by.speedIndex.reason ?? "no frames"}`;
  const tbt = typeof t.tbtMs === "number" ? `TBT ${ms(t.tbtMs)} (${how(by.tbt)})` : `TBT not measured: ${by.tbt.reason ?? "no long tasks"}`;
  return [si, tbt];
}

/** The full method text, on hover: how the figure on that line was measured. */
const methodTitle = (t: Timing, line: number) => {
  const m = line === 0 ? t.measuredBy?.speedIndex : t.measuredBy?.tbt;
  return m?.method ?? m?.reason ?? undefined;
};

const PROFILE_LABEL = {
  unthrottled: "Unthrottled (this machine's network and CPU)",
  "lighthouse-mobile": "Throttled: Lighthouse mobile preset (slow 4G, 4× CPU slowdown)",
} as const;

function Swatch({ hex, label }: { hex: string | null; label: string }) {
  return (
    <Flex as="span" align="center" gap="1" data-testid={`role-${label.toLowerCase()}`}>
      <span
        aria-hidden
        style={{
          width: 12,
          height: 12,
          borderRadius: 3,
          display: "inline-block",
          background: hex ?? "transparent",
          boxShadow: "inset 0 0 0 1px var(--gray-a7)",
        }}
      />
      <Text size="1">
        {label} {hex ?? "none"}
      </Text>
    </Flex>
  );
}

/**
 * What the capture measured on one page beyond the picture: colour roles, the fonts Chromium drew
 * next to those declared, and timing with its spread and load profile. Older captures lack some
 * signals; what is absent is left out, never guessed.
 */
export function PageSignals({ ex }: { ex: Extraction }) {
  const roles = ex.palette.roles;
  const drawn = ex.typography.rendered ?? [];
  const declared = ex.typography.families.slice(0, 3);
  const notLoaded = ex.typography.notLoaded ?? [];
  const t = ex.timing;
  return (
    <details data-testid="page-signals" style={{ padding: "var(--space-2) var(--space-1) 0" }}>
      <summary>
        <Text size="1" color="gray">
          {summaryLine(t)}
        </Text>
      </summary>
      <Flex direction="column" gap="1" pt="1">
        <Text size="1" data-testid="timing-line">
          {timingLine(t)}
        </Text>
        {visualTimingLines(t).map((line, i) => (
          <Text key={i} size="1" color="gray" data-testid="visual-timing" title={methodTitle(t, i)}>
            {line}
          </Text>
        ))}
        {roles && (
          <Flex gap="3" wrap="wrap" aria-label="Colour roles" data-testid="palette-roles">
            {ROLES.map(([key, label]) => (
              <Swatch key={key} hex={roles[key]} label={label} />
            ))}
          </Flex>
        )}
        <Text size="1" data-testid="fonts-drawn">
          {drawn.length > 0
            ? `Drawn: ${drawn.map((f) => `${f.family} ${pct(f.share)}`).join(", ")}`
            : "Drawn fonts: not recorded for this capture"}
        </Text>
        {declared.length > 0 && (
          <Text size="1" color="gray" data-testid="fonts-declared">
            Declared: {declared.map((f) => `${firstFamily(f.family)} ${pct(f.share)}`).join(", ")}
          </Text>
        )}
        {notLoaded.length > 0 && (
          <Text size="1" color="amber" data-testid="fonts-not-loaded">
            Never loaded (a fallback was drawn): {notLoaded.map((f) => firstFamily(f.family)).join(", ")}
          </Text>
        )}
        <Text size="1" color="gray" data-testid="timing-profile">
          {PROFILE_LABEL[t.profile ?? "unthrottled"]}
          {t.browser ? ` · in ${t.browser}` : ""}
          {t.lcpElement ? ` · LCP element: ${t.lcpElement}` : ""}
        </Text>
      </Flex>
    </details>
  );
}
