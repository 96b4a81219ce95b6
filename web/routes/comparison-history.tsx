import { Box } from "@radix-ui/themes";
import { data as withStatus, type LoaderFunctionArgs, useLoaderData } from "react-router";
import type { ComparisonDto } from "#server/modules/comparisons/model";
import type { RunDto } from "#server/modules/history/model";
import { ComparisonNotFound } from "#web/features/comparisons/components/results/comparison-not-found";
import { HistoryPage } from "#web/features/watch/components/history-page";
import { load } from "#web/lib/loader-context";

type HistoryData = { comparison: ComparisonDto; runs: RunDto[] } | null;

export async function loader({ context, params }: LoaderFunctionArgs) {
  const one = { id: encodeURIComponent(params.id ?? "") };
  const [comparison, runs] = await Promise.all([
    load(context, (api) => api.comparisons(one).get()),
    load(context, (api) => api.comparisons(one).runs.get()),
  ]);
  if (!comparison) return withStatus<HistoryData>(null, { status: 404 });
  const found: HistoryData = { comparison, runs: runs ?? [] };
  return found;
}

export const handle = {
  title: (data: HistoryData | undefined) => (data ? `${data.comparison.name} · History` : "Comparison Not Found"),
};

export function Component() {
  const data = useLoaderData() as HistoryData;
  if (!data) return <ComparisonNotFound />;
  return (
    <Box p={{ initial: "4", md: "6" }}>
      <HistoryPage comparison={data.comparison} runs={data.runs} />
    </Box>
  );
}
