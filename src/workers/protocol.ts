// The typed messages between the main thread and the workers. Each worker kind has a request
// union (main -> worker) and an event union (worker -> main); nothing else crosses the boundary.

import type { GrayImage } from "#server/lib/image/image";
import type { Box, Extraction, PaletteEntry, SimilarityScores } from "#server/modules/capture/model";
import type { Audience, LiveMessage } from "#server/live/hub";
import type { Cadence as AgentCadence } from "#server/modules/agents/engine/engine";
import type { VisualDiff } from "#server/modules/watch/changes/visual";

// ---- analyse worker -------------------------------------------------------------------------
export interface AnalyseJob {
  jobId: string;
  /** Absolute paths of the two full-page PNGs (same viewport). */
  aPath: string;
  aExtraction: Extraction;
  bPath: string;
  bExtraction: Extraction;
}

export type AnalyseRequest =
  | { type: "score"; job: AnalyseJob }
  /** A fresh capture's thumbnail (and screenshot palette), so scoring needn't decode its PNG. */
  | { type: "prime"; path: string; thumb: GrayImage; palette: PaletteEntry[] }
  | { type: "shutdown" };

export type AnalyseEvent =
  | { type: "scored"; jobId: string; scores: SimilarityScores & { designSimilarity: number; components: Record<string, number> } }
  | { type: "failed"; jobId: string; reason: string };

// ---- pixels worker (change detection's pixel diff between two runs) ------------------------
/** mask: boxes (CSS px = screenshot px) of parts that move by themselves; not counted as changes. */
export type PixelsRequest = { type: "diff" | "heatmap"; jobId: string; beforePath: string; afterPath: string; mask?: Box[] };
/** A visual diff without its heat-map encoder (a function cannot cross threads). */
export type PixelDiffSummary = Omit<VisualDiff, "heatmap">;
export type PixelsEvent =
  | { type: "diff"; jobId: string; summary: PixelDiffSummary }
  | { type: "heatmap"; jobId: string; png: Uint8Array }
  | { type: "failed"; jobId: string; reason: string };

// ---- agents worker --------------------------------------------------------------------------
// The worker opens its own connection to the same SQLite file (WAL) and runs the four agents;
// the main thread only relays what it publishes to the LiveHub. See docs/decisions/0003-agents-worker.md.
export type AgentsRequest = { type: "start"; dbPath: string; cadence?: Partial<AgentCadence> } | { type: "poke" } | { type: "stop" };

export type AgentsEvent =
  | { type: "ready" }
  | { type: "live"; message: LiveMessage; audience: Audience }
  | { type: "log"; message: string; error?: string }
  | { type: "stopped" }
  | { type: "fatal"; reason: string };
