// The typed messages between the main thread (analysis/analyser.ts) and the analyse worker:
// a request union (main -> worker) and an event union (worker -> main); nothing else crosses the boundary.

import type { GrayImage } from "#server/lib/image/image";
import type { Extraction, PaletteEntry, SimilarityScores } from "#server/modules/capture/model";

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
