// Public API of the analysis module: similarity of capture pairs, dominant colours of a
// screenshot, and the findings step (rules, then the optional language model). Other modules
// import from here only.

export { createAnalyser, type Analyser, type AnalyserOptions } from "./analyser";
export {
  contrastRatio,
  deltaE2000,
  deltaE2000Hex,
  hexToLab,
  hexToRgb,
  relativeLuminance,
  rgbToHex,
  rgbToLab,
} from "#server/lib/image/color";
export { createFindingsStep } from "./findings-step";
export { findingId, findingsFor, RULES, type RuleSnapshot } from "./findings";
export { llmConfigFromEnv, refineFindings, type LlmConfig } from "./llm";
export { dominantColors, isDarkImage, meanLuminance, type DominantColor } from "#server/lib/image/palette";
export { paletteSimilarity } from "./palette-similarity";
export {
  BLEND,
  prepare,
  prepareStreaming,
  scorePair,
  scorePairFromFiles,
  scorePairStreaming,
  scorePrepared,
  type PairInput,
  type PairScores,
  type PreparedCapture,
} from "./similarity";
