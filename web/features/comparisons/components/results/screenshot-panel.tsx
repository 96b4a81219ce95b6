import { Badge, Callout, Card, Flex, Text } from "@radix-ui/themes";
import { ImageIcon } from "@radix-ui/react-icons";
import { type RefObject, useState } from "react";
import type { Viewport } from "#server/modules/capture/model";
import type { SnapshotDto } from "#server/modules/comparisons/model";
import { pageFrame } from "../../overlay-geometry";
import { pathOf, stepFailureOf } from "../../page-variants";
import { ConsentNote } from "./consent-note";
import type { OverlayKind } from "./overlay-kinds";
import { OverlayBoxes, OverlayLegends, PaletteStrip } from "./overlays";
import { PageProblemsNote } from "./page-problems-note";
import { PageSignals } from "./page-signals";
import { useElementWidth } from "./use-element-width";
import { displayedWidth, type Zoom } from "./zoom";

export const PANEL_HEIGHT = 600;

interface Props {
  label: string;
  viewport: Viewport;
  snapshot: SnapshotDto | undefined;
  overlays: Set<OverlayKind>;
  zoom: Zoom;
  scrollRef: RefObject<HTMLDivElement | null>;
  onScroll(): void;
}

export function ScreenshotPanel({ label, viewport, snapshot, overlays, zoom, scrollRef, onScroll }: Props) {
  const [broken, setBroken] = useState(false);
  const panelWidth = useElementWidth(scrollRef);
  const stopped = snapshot ? stepFailureOf(snapshot) : null;
  // A page whose steps stopped was not measured (its extraction is null): no frame, no overlays.
  const frame = snapshot && !stopped ? pageFrame(snapshot) : null;
  const shown = snapshot && frame && !broken;
  // What the capture measured; none for a page whose steps stopped.
  const ex = (!stopped && snapshot?.extraction) || null;
  const width = frame ? displayedWidth(zoom, frame.cssWidth, panelWidth) : 0;
  return (
    <Card size="1" style={{ minWidth: 0 }}>
      {/* On a narrow screen the badge goes under the label rather than squeezing it to a letter. */}
      <Flex justify="between" align={{ initial: "start", sm: "center" }} direction={{ initial: "column", sm: "row" }} gap="1" px="1" pb="2">
        <Flex direction="column" style={{ minWidth: 0, maxWidth: "100%" }}>
          <Text weight="bold" size="3" truncate>
            {label}
          </Text>
          {snapshot && ex && (
            <Text size="1" color="gray" truncate title={ex.finalUrl}>
              {snapshot.title || ex.finalUrl}
            </Text>
          )}
          {snapshot && stopped && pathOf(snapshot) && (
            <Text size="1" color="gray" truncate>
              {pathOf(snapshot)}
            </Text>
          )}
        </Flex>
        <Badge variant="soft" color={viewport === "desktop" ? "indigo" : "cyan"}>
          {viewport}
        </Badge>
      </Flex>
      {stopped && (
        <Callout.Root color="red" size="1" mb="2" data-testid="step-stopped">
          <Callout.Text>
            Stopped at step {stopped.index}: {stopped.error}
          </Callout.Text>
        </Callout.Root>
      )}
      {shown && ex && overlays.has("colors") && <PaletteStrip ex={ex} />}
      <div
        ref={scrollRef}
        onScroll={onScroll}
        tabIndex={0}
        role="region"
        aria-label={`${label} ${viewport} screenshot`}
        data-testid="screenshot-panel"
        data-zoom={zoom}
        style={{
          height: PANEL_HEIGHT,
          overflow: "auto",
          position: "relative",
          background: "var(--gray-a2)",
          borderRadius: "var(--radius-3)",
        }}
      >
        {shown ? (
          // Fit centres a page narrower than the panel; a zoomed page starts at the left edge so it can scroll sideways.
          <div
            style={{
              position: "relative",
              width: zoom === "fit" && !panelWidth ? "100%" : width,
              maxWidth: zoom === "fit" ? frame.cssWidth : "none",
              margin: zoom === "fit" ? "0 auto" : 0,
            }}
          >
            <img
              src={snapshot.screenshotUrl}
              alt={`${label} ${viewport} screenshot`}
              width={Math.round(frame.cssWidth)}
              height={Math.round(frame.cssHeight)}
              style={{ display: "block", width: "100%", height: "auto", maxWidth: "none" }}
              onError={() => setBroken(true)}
            />
            {ex && <OverlayBoxes ex={ex} frame={frame} on={overlays} viewport={viewport} />}
          </div>
        ) : snapshot && stopped && !broken ? (
          <img
            src={snapshot.screenshotUrl}
            alt={`${label} ${viewport} screenshot where step ${stopped.index} stopped`}
            style={{ display: "block", width: "100%", height: "auto" }}
            onError={() => setBroken(true)}
          />
        ) : (
          <Flex direction="column" align="center" justify="center" gap="2" style={{ height: "100%" }}>
            <ImageIcon width="28" height="28" color="var(--gray-8)" aria-hidden />
            <Text color="gray" size="2">
              No screenshot available
            </Text>
          </Flex>
        )}
      </div>
      {shown && ex && <OverlayLegends ex={ex} on={overlays} />}
      {snapshot && <ConsentNote snapshot={snapshot} />}
      {ex && <PageSignals ex={ex} />}
      {ex && <PageProblemsNote ex={ex} />}
    </Card>
  );
}
