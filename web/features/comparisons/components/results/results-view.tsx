import { Flex } from "@radix-ui/themes";
import { type ReactNode, useEffect, useRef } from "react";
import type { ComparisonDto } from "#server/modules/comparisons/model";
import type { BearerSource } from "../../api";
import { isRunning } from "../../status";
import { useComparisonDetail } from "../../use-comparison-detail";
import { ProgressCard } from "../progress-card";
import { ResultsHeader } from "./results-header";
import { type PanelsData, type PanelsProps, ResultsPanels } from "./results-panels";

export interface ResultsData extends PanelsData {
  comparison: ComparisonDto;
}

interface Props extends Omit<PanelsProps, "data" | "status"> {
  data: ResultsData;
  /** A run finished while the page was open: reload snapshots, scores and findings. */
  onRunFinished(): void;
  auth: BearerSource;
  /** The header's Share control (the route composes it from the share feature). */
  share?: ReactNode;
}

/** The owner's results screen: the comparison's header and actions, a run's progress, and the results. */
export function ResultsView({ data, onRunFinished, auth, share, ...panels }: Props) {
  // Same live feed and 2 s fallback poll as the comparison page, so a run in progress ends on its own.
  const live = useComparisonDetail(data.comparison.id, { comparison: data.comparison, targets: data.targets });
  const comparison = live.data?.comparison ?? data.comparison;
  const wasRunning = useRef(isRunning(data.comparison.status));
  useEffect(() => {
    const running = isRunning(comparison.status);
    if (wasRunning.current && !running) onRunFinished();
    wasRunning.current = running;
  }, [comparison.status, onRunFinished]);

  return (
    <Flex direction="column" gap="4">
      <ResultsHeader comparison={comparison} auth={auth} share={share} />
      {isRunning(comparison.status) && <ProgressCard progress={comparison.progress} />}
      <ResultsPanels data={data} status={comparison.status} {...panels} />
    </Flex>
  );
}
