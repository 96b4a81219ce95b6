// Asks the findings step about the run's snapshots; reports found or findingsFailed.
import type { Snapshot } from "#server/modules/capture/model";
import type { FindingsFn } from "../tools";
import type { RunIO } from "../io";
import { scoreTimeoutMs, withTimeout } from "./timeout";

export async function findFindings(snapshots: Snapshot[], findingsFor: FindingsFn, io: RunIO): Promise<void> {
  try {
    const findings = await withTimeout(Promise.resolve(findingsFor(snapshots)), scoreTimeoutMs(io.deps.tools), "Findings took too long");
    io.dispatch({ type: "found", findings });
  } catch (error) {
    io.dispatch({ type: "findingsFailed", error });
  }
}
