// The results view as its component tests render it (never imported by the app): a DiffDto
// factory and <ResultsView> with inert callbacks over the test's data. Load it with a dynamic
// import after tests/support/dom, like every module that pulls in react-dom.
import type { ComponentProps } from "react";
import type { DiffDto } from "#server/modules/comparisons/model";
import { ResultsView } from "./components/results/results-view";

export const auth = { token: () => "tok", refresh: async () => "tok2" };

/** A desktop pair's scores: one figure for all four, or [colour, layout, content, overall]. */
export function diff(
  id: string,
  a: string,
  b: string,
  scores: number | [number, number, number, number],
  components: DiffDto["components"] = {},
): DiffDto {
  const [color, layout, content, overall] = typeof scores === "number" ? [scores, scores, scores, scores] : scores;
  return {
    id,
    comparisonId: "c1",
    viewport: "desktop",
    targetAId: a,
    targetBId: b,
    createdAt: "2025-01-01T00:20:00.000Z",
    colorSimilarity: color,
    layoutSimilarity: layout,
    contentSimilarity: content,
    overallSimilarity: overall,
    components,
  };
}

type ViewProps = ComponentProps<typeof ResultsView>;

/** `view(over)` renders the results of `data` on desktop, no pair asked for, callbacks doing nothing. */
export function resultsView(data: ViewProps["data"]) {
  return (over: Partial<ViewProps> = {}) => (
    <ResultsView
      data={data}
      viewport="desktop"
      requestedPair={[null, null]}
      onViewportChange={() => {}}
      onPairChange={() => {}}
      onRunFinished={() => {}}
      auth={auth}
      {...over}
    />
  );
}
