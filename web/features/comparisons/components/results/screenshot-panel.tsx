import { Badge, Card, Flex, Text } from "@radix-ui/themes";
import { ImageIcon } from "@radix-ui/react-icons";
import { type Ref, useState } from "react";
import type { Viewport } from "#server/modules/capture/model";
import type { SnapshotDto } from "#server/modules/comparisons/model";
import { pageFrame } from "../../overlay-geometry";
import type { OverlayKind } from "./overlay-kinds";
import { OverlayBoxes, OverlayLegends, PaletteStrip } from "./overlays";
import { PageProblemsNote } from "./page-problems-note";

export const PANEL_HEIGHT = 600;

interface Props {
  label: string;
  viewport: Viewport;
  snapshot: SnapshotDto | undefined;
  overlays: Set<OverlayKind>;
  scrollRef: Ref<HTMLDivElement>;
  onScroll(): void;
}

export function ScreenshotPanel({ label, viewport, snapshot, overlays, scrollRef, onScroll }: Props) {
  const [broken, setBroken] = useState(false);
  const frame = snapshot ? pageFrame(snapshot) : null;
  const shown = snapshot && frame && !broken;
  return (
    <Card size="1" style={{ minWidth: 0 }}>
      <Flex justify="between" align="center" gap="2" px="1" pb="2">
        <Flex direction="column" style={{ minWidth: 0 }}>
          <Text weight="bold" size="3" truncate>
            {label}
          </Text>
          {snapshot && (
            <Text size="1" color="gray" truncate title={snapshot.extraction.finalUrl}>
              {snapshot.title || snapshot.extraction.finalUrl}
            </Text>
          )}
        </Flex>
        <Badge variant="soft" color={viewport === "desktop" ? "indigo" : "cyan"}>
          {viewport}
        </Badge>
      </Flex>
      <div
        ref={scrollRef}
        onScroll={onScroll}
        tabIndex={0}
        role="region"
        aria-label={`${label} ${viewport} screenshot`}
        data-testid="screenshot-panel"
        style={{
          height: PANEL_HEIGHT,
          overflow: "auto",
          position: "relative",
          background: "var(--gray-a2)",
          borderRadius: "var(--radius-3)",
        }}
      >
        {shown ? (
          <>
            {overlays.has("colors") && <PaletteStrip ex={snapshot.extraction} />}
            <div style={{ position: "relative", width: "100%", maxWidth: frame.cssWidth, margin: "0 auto" }}>
              <img
                src={snapshot.screenshotUrl}
                alt={`${label} ${viewport} screenshot`}
                width={Math.round(frame.cssWidth)}
                height={Math.round(frame.cssHeight)}
                style={{ display: "block", width: "100%", height: "auto" }}
                onError={() => setBroken(true)}
              />
              <OverlayBoxes ex={snapshot.extraction} frame={frame} on={overlays} viewport={viewport} />
            </div>
          </>
        ) : (
          <Flex direction="column" align="center" justify="center" gap="2" style={{ height: "100%" }}>
            <ImageIcon width="28" height="28" color="var(--gray-8)" aria-hidden />
            <Text color="gray" size="2">
              No screenshot available
            </Text>
          </Flex>
        )}
      </div>
      {shown && <OverlayLegends ex={snapshot.extraction} on={overlays} />}
      {snapshot && <PageProblemsNote ex={snapshot.extraction} />}
    </Card>
  );
}
