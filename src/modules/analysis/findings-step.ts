// The findings step as a comparison run calls it: rules always, then the optional
// language-model pass when one is configured.

import type { Finding } from "#server/modules/capture/model";
import { findingsFor, type RuleSnapshot } from "./findings";
import { refineFindings, type LlmConfig } from "./llm";

export function createFindingsStep(options: { llm?: LlmConfig | null; log?: (msg: string) => void } = {}) {
  return async (pages: RuleSnapshot[]): Promise<Finding[]> => {
    const rules = findingsFor(pages);
    if (!options.llm) return rules;
    const { findings, error } = await refineFindings(rules, pages, options.llm);
    if (error) options.log?.(`findings: ${error}; keeping the rule findings`);
    return findings;
  };
}
