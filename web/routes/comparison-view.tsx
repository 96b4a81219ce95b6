import { Box } from "@radix-ui/themes";
import { useCallback } from "react";
import {
  data as withStatus,
  type LoaderFunctionArgs,
  type ShouldRevalidateFunctionArgs,
  useLoaderData,
  useRevalidator,
} from "react-router";
import { refreshSession } from "#web/features/auth/session";
import { useAuth } from "#web/features/auth/store";
import type { BearerSource } from "#web/features/comparisons/api";
import { ComparisonNotFound } from "#web/features/comparisons/components/results/comparison-not-found";
import { type ResultsData, ResultsView } from "#web/features/comparisons/components/results/results-view";
import { useResultsUrl } from "#web/features/comparisons/use-results-url";
import { load } from "#web/lib/loader-context";
import { ShareDialog } from "#web/features/share/components/share-dialog";

type ViewData = ResultsData | null;

export async function loader({ context, params }: LoaderFunctionArgs) {
  const one = { id: encodeURIComponent(params.id ?? "") };
  const [comparison, targets, snapshots, diffs, findings, filmstrips] = await Promise.all([
    load(context, (api) => api.comparisons(one).get()),
    load(context, (api) => api.comparisons(one).targets.get()),
    load(context, (api) => api.comparisons(one).snapshots.get()),
    load(context, (api) => api.comparisons(one).diffs.get()),
    load(context, (api) => api.comparisons(one).findings.get()),
    load(context, (api) => api.comparisons(one).filmstrips.get()),
  ]);
  // A missing comparison (or someone else's) is a real 404 for the document too.
  if (!comparison) return withStatus<ViewData>(null, { status: 404 });
  const found: ViewData = {
    comparison,
    targets: targets ?? [],
    snapshots: snapshots ?? [],
    diffs: diffs ?? [],
    findings: findings ?? [],
    filmstrips: filmstrips ?? [],
  };
  return found;
}

export const handle = {
  title: (data: ViewData | undefined) => (data ? `${data.comparison.name} · Results` : "Comparison Not Found"),
};

/** Tabs and the pair live in the URL (so Share copies them) without refetching everything. */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search) return false;
  return defaultShouldRevalidate;
}

const auth: BearerSource = { token: () => useAuth.getState().accessToken, refresh: refreshSession };

export function Component() {
  const data = useLoaderData() as ViewData;
  const view = useResultsUrl();
  const { revalidate } = useRevalidator();
  const onRunFinished = useCallback(() => void revalidate(), [revalidate]);

  if (!data) return <ComparisonNotFound />;
  return (
    <Box p={{ initial: "3", md: "6" }}>
      <ResultsView
        key={data.comparison.id}
        data={data}
        {...view}
        onRunFinished={onRunFinished}
        auth={auth}
        share={<ShareDialog comparisonId={data.comparison.id} />}
      />
    </Box>
  );
}
