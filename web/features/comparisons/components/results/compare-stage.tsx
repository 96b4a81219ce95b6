import { Card, Flex, Text } from "@radix-ui/themes";
import { useRef, useState } from "react";
import type { Viewport } from "#server/modules/capture/model";
import type { SnapshotDto } from "#server/modules/comparisons/model";
import { pageFrame } from "../../overlay-geometry";
import { PANEL_HEIGHT } from "./screenshot-panel";
import { useElementWidth } from "./use-element-width";
import { displayedWidth, type CompareMode, type Zoom } from "./zoom";

interface Props {
  mode: Exclude<CompareMode, "side">;
  zoom: Zoom;
  viewport: Viewport;
  left: { label: string; snapshot: SnapshotDto };
  right: { label: string; snapshot: SnapshotDto };
}

/**
 * Both captures stacked at the same scale in one scroller: the slider reveals the right-hand site
 * from the divider on, the onion skin fades it over the left. Differences show where they are.
 */
export function CompareStage({ mode, zoom, viewport, left, right }: Props) {
  const scroller = useRef<HTMLDivElement | null>(null);
  const panelWidth = useElementWidth(scroller);
  const [position, setPosition] = useState(50);
  const [opacity, setOpacity] = useState(50);
  const fa = pageFrame(left.snapshot);
  const fb = pageFrame(right.snapshot);
  const width = displayedWidth(zoom, Math.max(fa.cssWidth, fb.cssWidth), panelWidth);
  // One scale for both, so a pixel of one page lies over the same pixel of the other.
  const scale = width / Math.max(fa.cssWidth, fb.cssWidth);
  const height = Math.max(fa.cssHeight, fb.cssHeight) * scale;
  const value = mode === "slider" ? position : opacity;
  const control =
    mode === "slider"
      ? `Slider position: ${left.label} left of the line, ${right.label} right of it`
      : `Opacity of ${right.label} over ${left.label}`;

  return (
    <Card size="1" style={{ minWidth: 0 }}>
      <Flex align="center" gap="3" px="1" pb="2" wrap="wrap">
        <Text weight="bold" size="3">
          {left.label}
        </Text>
        <Flex align="center" gap="2" style={{ flex: "1 1 200px", minWidth: 160 }}>
          {/* A native range: keyboard, touch and its accessible name come with it. */}
          <input
            type="range"
            min={0}
            max={100}
            step={1}
            value={value}
            aria-label={control}
            style={{ flex: 1, accentColor: "var(--accent-9)" }}
            onChange={(e) => (mode === "slider" ? setPosition(Number(e.target.value)) : setOpacity(Number(e.target.value)))}
          />
          <Text size="1" color="gray" style={{ minWidth: 36, fontVariantNumeric: "tabular-nums" }}>
            {value}%
          </Text>
        </Flex>
        <Text weight="bold" size="3">
          {right.label}
        </Text>
      </Flex>
      <div
        ref={scroller}
        tabIndex={0}
        role="region"
        aria-label={`${left.label} and ${right.label} ${viewport} screenshots, ${mode === "slider" ? "slider" : "onion skin"}`}
        data-testid="compare-stage"
        style={{ height: PANEL_HEIGHT, overflow: "auto", background: "var(--gray-a2)", borderRadius: "var(--radius-3)" }}
      >
        <div className="di-compare-stage" style={{ width, height, margin: zoom === "fit" ? "0 auto" : 0 }}>
          <img
            src={left.snapshot.screenshotUrl}
            alt={`${left.label} ${viewport} screenshot`}
            style={{ position: "absolute", left: 0, top: 0, width: fa.cssWidth * scale, height: fa.cssHeight * scale }}
          />
          <img
            src={right.snapshot.screenshotUrl}
            alt={`${right.label} ${viewport} screenshot`}
            style={{
              position: "absolute",
              left: 0,
              top: 0,
              width: fb.cssWidth * scale,
              height: fb.cssHeight * scale,
              ...(mode === "slider" ? { clipPath: `inset(0 0 0 ${(position / 100) * width}px)` } : { opacity: opacity / 100 }),
            }}
          />
          {mode === "slider" && <div className="di-compare-divider" style={{ left: `calc(${position}% - 1px)` }} aria-hidden />}
        </div>
      </div>
    </Card>
  );
}
