import { Box, Flex, Grid, Tabs } from "@radix-ui/themes";
import { DesktopIcon, MobileIcon } from "@radix-ui/react-icons";
import { useEffect, useMemo, useRef, useState } from "react";
import type { Viewport } from "#server/modules/capture/model";
import type { ComparisonDto, DiffDto, FindingDto, SnapshotDto, TargetDto } from "#server/modules/comparisons/model";
import type { BearerSource } from "../../api";
import { choosePair, diffForPair, findingsForPair, latestSnapshots, orderTargets, type Pair } from "../../results-data";
import { isRunning } from "../../status";
import { useComparisonDetail } from "../../use-comparison-detail";
import { useScrollSync } from "../../use-scroll-sync";
import { ProgressCard } from "../progress-card";
import { AnalysisSummary } from "./analysis-summary";
import { FindingsList } from "./findings-list";
import { NotEnoughSnapshots } from "./not-enough-snapshots";
import type { OverlayKind } from "./overlay-kinds";
import { OverlaySwitches } from "./overlay-switches";
import { PairPicker } from "./pair-picker";
import { ResultsHeader } from "./results-header";
import { ScreenshotPanel } from "./screenshot-panel";

export interface ResultsData {
  comparison: ComparisonDto;
  targets: TargetDto[];
  snapshots: SnapshotDto[];
  diffs: DiffDto[];
  findings: FindingDto[];
}

interface Props {
  data: ResultsData;
  viewport: Viewport;
  requestedPair: [string | null, string | null];
  onViewportChange(v: Viewport): void;
  onPairChange(p: Pair): void;
  /** A run finished while the page was open: reload snapshots, scores and findings. */
  onRunFinished(): void;
  auth: BearerSource;
}

export function ResultsView({ data, viewport, requestedPair, onViewportChange, onPairChange, onRunFinished, auth }: Props) {
  // Same live feed and 2 s fallback poll as the comparison page, so a run in progress ends on its own.
  const live = useComparisonDetail(data.comparison.id, { comparison: data.comparison, targets: data.targets });
  const comparison = live.data?.comparison ?? data.comparison;
  const wasRunning = useRef(isRunning(data.comparison.status));
  useEffect(() => {
    const running = isRunning(comparison.status);
    if (wasRunning.current && !running) onRunFinished();
    wasRunning.current = running;
  }, [comparison.status, onRunFinished]);

  const [overlays, setOverlays] = useState<Set<OverlayKind>>(() => new Set());
  const targets = useMemo(() => orderTargets(data.targets), [data.targets]);
  const labelOf = (id: string) => targets.find((t) => t.id === id)?.label ?? "Unknown site";

  const body = (vp: Viewport) => (
    <ViewportBody
      data={data}
      targets={targets}
      viewport={vp}
      status={comparison.status}
      requestedPair={requestedPair}
      overlays={overlays}
      labelOf={labelOf}
      onPairChange={onPairChange}
    />
  );

  return (
    <Flex direction="column" gap="4">
      <ResultsHeader comparison={comparison} auth={auth} />
      {isRunning(comparison.status) && <ProgressCard progress={comparison.progress} />}
      <Tabs.Root value={viewport} onValueChange={(v) => onViewportChange(v === "mobile" ? "mobile" : "desktop")}>
        <Flex justify="between" align="center" gap="3" wrap="wrap">
          <Tabs.List>
            <Tabs.Trigger value="desktop">
              <Flex gap="2" align="center">
                <DesktopIcon /> Desktop
              </Flex>
            </Tabs.Trigger>
            <Tabs.Trigger value="mobile">
              <Flex gap="2" align="center">
                <MobileIcon /> Mobile
              </Flex>
            </Tabs.Trigger>
          </Tabs.List>
          <OverlaySwitches value={overlays} onChange={setOverlays} />
        </Flex>
        <Tabs.Content value="desktop">{body("desktop")}</Tabs.Content>
        <Tabs.Content value="mobile">{body("mobile")}</Tabs.Content>
      </Tabs.Root>
    </Flex>
  );
}

interface BodyProps {
  data: ResultsData;
  targets: TargetDto[];
  viewport: Viewport;
  status: ComparisonDto["status"];
  requestedPair: [string | null, string | null];
  overlays: Set<OverlayKind>;
  labelOf(id: string): string;
  onPairChange(p: Pair): void;
}

function ViewportBody({ data, targets, viewport, status, requestedPair, overlays, labelOf, onPairChange }: BodyProps) {
  const shots = useMemo(() => latestSnapshots(data.snapshots, viewport), [data.snapshots, viewport]);
  const pair = choosePair(targets, shots, requestedPair);
  const sync = useScrollSync();

  if (shots.size < 2 || !pair)
    return (
      <Box pt="4">
        <NotEnoughSnapshots viewport={viewport} status={status} />
      </Box>
    );

  const diff = diffForPair(data.diffs, viewport, pair);
  const findings = findingsForPair(data.findings, viewport, pair);
  const [a, b] = pair;
  return (
    <Flex direction="column" gap="4" pt="4">
      {targets.length > 2 && (
        <PairPicker targets={targets} pair={pair} withShots={new Set(shots.keys())} onChange={onPairChange} />
      )}
      <Grid columns="minmax(0, 1fr) minmax(0, 1fr)" gap="3">
        <ScreenshotPanel
          key={`${a}-${shots.get(a)?.id}`}
          label={labelOf(a)}
          viewport={viewport}
          snapshot={shots.get(a)}
          overlays={overlays}
          scrollRef={sync.left}
          onScroll={sync.onLeftScroll}
        />
        <ScreenshotPanel
          key={`${b}-${shots.get(b)?.id}`}
          label={labelOf(b)}
          viewport={viewport}
          snapshot={shots.get(b)}
          overlays={overlays}
          scrollRef={sync.right}
          onScroll={sync.onRightScroll}
        />
      </Grid>
      {(data.diffs.length > 0 || findings.length > 0) && (
        <Grid columns="repeat(auto-fit, minmax(320px, 1fr))" gap="4" align="start">
          {data.diffs.length > 0 ? <AnalysisSummary diff={diff} labels={[labelOf(a), labelOf(b)]} /> : <div />}
          <FindingsList findings={findings} labelOf={labelOf} viewport={viewport} />
        </Grid>
      )}
    </Flex>
  );
}
