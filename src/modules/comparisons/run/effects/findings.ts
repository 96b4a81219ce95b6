// Asks the findings engine about the captured pages; reports found or findingsFailed.
import type { CapturedPage, FindingsFn } from "../engine";
import type { RunIO } from "../io";
import { scoreTimeoutMs, withTimeout } from "./timeout";

export async function findFindings(pages: CapturedPage[], findingsFor: FindingsFn, io: RunIO): Promise<void> {
  try {
    const findings = await withTimeout(Promise.resolve(findingsFor(pages)), scoreTimeoutMs(io.deps.engine), "Findings took too long");
    io.dispatch({ type: "found", findings });
  } catch (error) {
    io.dispatch({ type: "findingsFailed", error });
  }
}
