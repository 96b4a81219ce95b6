// Resources gatherer: bytes and requests from resource timing — the fallback when the browser's
// network log is not available. Cross-origin responses without Timing-Allow-Origin report 0 bytes here.

import type { ResourceTotals } from "../page/types";

export function gatherResources(): ResourceTotals {
  const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
  const size = (e: PerformanceResourceTiming) => e.transferSize || e.encodedBodySize || 0;
  let bytes = nav ? size(nav) : 0;
  let largest: ResourceTotals["largestResource"] = null;
  for (const r of resources) {
    const b = size(r);
    bytes += b;
    if (!largest || b > largest.bytes) largest = { url: r.name, bytes: b, type: r.initiatorType };
  }
  return { bytes, requests: resources.length + (nav ? 1 : 0), largestResource: largest && largest.bytes > 0 ? largest : null };
}
