// The four overlays. Boxes sit over the screenshot in the page frame, the dominant colours are
// pinned over its top, and the figures with no position (font stack, link counts) sit underneath.
import { Box, Flex, Grid, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import type { Box as PageBox, Extraction, PaletteEntry, Viewport } from "#server/modules/capture/model";
import { fontName, headingAnnotations, type PageFrame, type PercentBox, toPercentBox, VIEWPORT_SIZE } from "../../overlay-geometry";
import { asPercent } from "../../results-data";
import { OverlayBox } from "./overlay-box";
import type { OverlayKind } from "./overlay-kinds";

const REGION_COLORS: Record<Extraction["layout"]["regions"][number]["kind"], string> = {
  header: "violet",
  nav: "indigo",
  hero: "orange",
  main: "cyan",
  section: "teal",
  aside: "amber",
  footer: "gray",
};

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

interface Mark {
  key: string;
  box: PageBox;
  color: string;
  label: string;
  /** The full detail, read on hover or focus and by screen readers. */
  detail: string;
  dashed?: boolean;
  fill?: boolean;
}

function marksFor(ex: Extraction, on: Set<OverlayKind>): Mark[] {
  const marks: Mark[] = [];
  if (on.has("layout"))
    ex.layout.regions.forEach((r, i) =>
      marks.push({
        key: `l${i}`,
        box: r.box,
        color: REGION_COLORS[r.kind],
        fill: true,
        label: r.kind,
        detail: `${r.kind} region, ${Math.round(r.box.width)}×${Math.round(r.box.height)} px at y ${Math.round(r.box.y)}`,
      }),
    );
  if (on.has("typography"))
    headingAnnotations(ex).forEach((h, i) => {
      const label = `H${h.level}${h.font ? ` · ${h.font}` : ""}`;
      marks.push({ key: `t${i}`, box: h.box, color: "plum", dashed: true, label, detail: `${label}: ${h.text}` });
    });
  if (on.has("elements")) {
    ex.elements.forms.forEach((f, i) => {
      const label = `Form · ${f.inputs} ${f.inputs === 1 ? "input" : "inputs"}`;
      marks.push({
        key: `f${i}`,
        box: f.box,
        color: "green",
        dashed: true,
        fill: true,
        label,
        detail: `${label}${f.aboveFold ? ", above the fold" : ""}`,
      });
    });
    ex.elements.ctas.forEach((c, i) => {
      const label = `CTA · ${clip(c.text || "(no text)", 32)}`;
      marks.push({
        key: `c${i}`,
        box: c.box,
        color: "crimson",
        label,
        detail: `${label}${c.href ? ` → ${c.href}` : ""}${c.aboveFold ? ", above the fold" : ""}`,
      });
    });
  }
  return marks;
}

/**
 * Everything positioned over the image; rendered inside the image's relative wrapper.
 */
export function OverlayBoxes({ ex, frame, on, viewport }: { ex: Extraction; frame: PageFrame; on: Set<OverlayKind>; viewport: Viewport }) {
  const marks = marksFor(ex, on)
    .map((m) => ({ ...m, pct: toPercentBox(m.box, frame) }))
    .filter((m): m is typeof m & { pct: PercentBox } => m.pct !== null);
  // Tags never print over the capture: a box is an outline, and its tag shows outside it on
  // hover or focus (the legend under the screenshot names what the colours mean).
  const items: ReactNode[] = marks.map((m) => (
    <OverlayBox key={m.key} box={m.pct} color={m.color} dashed={m.dashed} fill={m.fill} label={m.label} detail={m.detail} />
  ));
  if (on.has("elements")) {
    const fold = VIEWPORT_SIZE[viewport].height;
    if (fold < frame.cssHeight)
      items.push(
        <div
          key="fold"
          data-testid="fold-line"
          aria-hidden
          style={{
            position: "absolute",
            left: 0,
            right: 0,
            top: `${(fold / frame.cssHeight) * 100}%`,
            borderTop: "2px dashed var(--crimson-9)",
            pointerEvents: "none",
          }}
        />,
      );
  }
  return <>{items}</>;
}

/** Dominant colours with their share of the pixels, in the panel's header (never over the capture). */
export function PaletteStrip({ ex }: { ex: Extraction }) {
  if (!ex.palette.dominant.length) return null;
  return (
    <Flex gap="1" wrap="wrap" aria-label="Dominant colours" role="list" px="1" pb="2">
      {ex.palette.dominant.slice(0, 8).map((p) => (
        <Flex
          key={p.hex}
          direction="column"
          align="center"
          role="listitem"
          title={`${p.hex} · ${asPercent(p.share)} of the page`}
          style={{ width: 34 }}
        >
          <span
            style={{ width: 22, height: 22, borderRadius: 5, background: p.hex, border: "1px solid var(--gray-a7)", display: "block" }}
            aria-hidden
          />
          <Text style={{ fontSize: 10, lineHeight: "13px" }}>{asPercent(p.share)}</Text>
        </Flex>
      ))}
    </Flex>
  );
}

function ColorRow({ name, entries }: { name: string; entries: PaletteEntry[] }) {
  if (!entries.length) return null;
  return (
    <Flex align="center" gap="1">
      <Text size="1" color="gray" style={{ minWidth: 74 }}>
        {name}
      </Text>
      {entries.slice(0, 5).map((p) => (
        <span
          key={p.hex}
          title={`${p.hex} · ${asPercent(p.share)}`}
          style={{ width: 14, height: 14, borderRadius: 3, background: p.hex, border: "1px solid var(--gray-a7)", display: "inline-block" }}
        />
      ))}
    </Flex>
  );
}

function LegendBlock({ title, color, children }: { title: string; color: string; children: ReactNode }) {
  return (
    <Box style={{ borderLeft: `3px solid var(--${color}-9)`, paddingLeft: 8, minWidth: 0 }}>
      <Text as="div" size="1" weight="bold">
        {title}
      </Text>
      {children}
    </Box>
  );
}

const Line = ({ children }: { children: ReactNode }) => (
  <Text as="div" size="1" color="gray" style={{ lineHeight: "17px" }}>
    {children}
  </Text>
);

/** The figures of each overlay that have no position on the page, under the screenshot. */
export function OverlayLegends({ ex, on }: { ex: Extraction; on: Set<OverlayKind> }) {
  const blocks: ReactNode[] = [];
  if (on.has("colors"))
    blocks.push(
      <LegendBlock key="colors" title={`Colors · ${ex.palette.isDark ? "dark" : "light"} page`} color="gray">
        <ColorRow name="Text" entries={ex.palette.text} />
        <ColorRow name="Backgrounds" entries={ex.palette.background} />
        <ColorRow name="Buttons" entries={ex.palette.buttons} />
      </LegendBlock>,
    );
  if (on.has("layout"))
    blocks.push(
      <LegendBlock key="layout" title={`Layout · ${ex.layout.regions.length} regions`} color="teal">
        <Flex gap="2" wrap="wrap" role="list" aria-label="Region colours">
          {[...new Set(ex.layout.regions.map((r) => r.kind))].map((kind) => (
            <Flex key={kind} align="center" gap="1" role="listitem">
              <span
                aria-hidden
                style={{ width: 10, height: 10, borderRadius: 2, background: `var(--${REGION_COLORS[kind]}-9)`, display: "inline-block" }}
              />
              <Text size="1">{kind}</Text>
            </Flex>
          ))}
        </Flex>
        <Line>
          {ex.layout.columns} {ex.layout.columns === 1 ? "column" : "columns"} · radius {Math.round(ex.layout.radiusPx)}px · gap{" "}
          {Math.round(ex.layout.spacingPx)}px
        </Line>
      </LegendBlock>,
    );
  if (on.has("typography")) {
    const t = ex.typography;
    blocks.push(
      <LegendBlock key="type" title="Typography" color="plum">
        {t.rendered && t.rendered.length > 0 && (
          <Line>
            Drawn{" "}
            {t.rendered
              .slice(0, 3)
              .map((f) => `${f.family} ${asPercent(f.share)}`)
              .join(" · ")}
          </Line>
        )}
        <Line>
          {t.rendered && t.rendered.length > 0 ? "Declared " : ""}
          {t.families
            .slice(0, 3)
            .map((f) => `${fontName(f.family)} ${asPercent(f.share)}`)
            .join(" · ")}
        </Line>
        {t.body && (
          <Line>
            Body {Math.round(t.body.sizePx)}px / {t.body.weight}, line {Math.round(t.body.lineHeightPx)}px
          </Line>
        )}
        {t.sizeScale.length > 0 && (
          <Line>
            Sizes{" "}
            {t.sizeScale
              .slice(0, 6)
              .map((s) => Math.round(s.px))
              .join(" · ")}{" "}
            px
          </Line>
        )}
      </LegendBlock>,
    );
  }
  if (on.has("elements")) {
    const e = ex.elements;
    blocks.push(
      <LegendBlock key="elements" title="Elements" color="crimson">
        <Line>
          {e.ctas.length} CTAs ({e.ctas.filter((c) => c.aboveFold).length} above fold) · {e.forms.length} forms
        </Line>
        <Line>
          {e.links} links ({e.linksAboveFold} above fold) · {e.images} images
        </Line>
        <Line>Dashed line: the fold (the first screen)</Line>
      </LegendBlock>,
    );
  }
  if (!blocks.length) return null;
  return (
    <Grid columns="repeat(auto-fill, minmax(200px, 1fr))" gap="3" pt="3" px="1" data-testid="overlay-legend">
      {blocks}
    </Grid>
  );
}
