// Asks the findings step about the run's snapshots, one group (a role in a colour scheme) at a
// time, so each page is compared with the other sites' pages of its role; reports found (each
// finding with its group) or findingsFailed.
import type { Finding, Snapshot } from "#server/modules/capture/model";
import type { FindingsFn } from "../tools";
import type { RunIO } from "../io";
import { scoreTimeoutMs, withTimeout } from "./timeout";

export async function findFindings(groups: { group: string; pages: Snapshot[] }[], findingsFor: FindingsFn, io: RunIO): Promise<void> {
  try {
    const found: (Finding & { laneGroup: string })[] = [];
    for (const { group, pages } of groups) {
      const list = await withTimeout(Promise.resolve(findingsFor(pages)), scoreTimeoutMs(io.deps.tools), "Findings took too long");
      for (const f of list) found.push({ ...f, laneGroup: group });
    }
    io.dispatch({ type: "found", findings: found });
  } catch (error) {
    io.dispatch({ type: "findingsFailed", error });
  }
}
