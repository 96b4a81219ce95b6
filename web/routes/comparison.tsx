import { Box, Callout, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { useCallback, useEffect, useMemo, useState } from "react";
import { type LoaderFunctionArgs, type ShouldRevalidateFunctionArgs, useLoaderData, useSearchParams } from "react-router";
import type { ComparisonDto, TargetDto } from "#server/modules/comparisons/model";
import { listComparisons } from "#web/features/comparisons/api";
import { ComparisonDetail } from "#web/features/comparisons/components/comparison-detail";
import { ComparisonList } from "#web/features/comparisons/components/comparison-list";
import { CreateComparisonForm } from "#web/features/comparisons/components/create-comparison-form";
import { NoComparisonSelected } from "#web/features/comparisons/components/no-comparison-selected";
import { useComparisonLive } from "#web/features/comparisons/store";
import type { ComparisonDetailData } from "#web/features/comparisons/use-comparison-detail";
import { SitePages } from "#web/features/pages/components/site-pages";
import { WatchSection } from "#web/features/watch/components/watch-section";
import { load } from "#web/lib/loader-context";

interface ComparisonPageData {
  /** null when it could not be read yet; the page then shows the skeleton and fetches it. */
  comparisons: readonly ComparisonDto[] | null;
  selected: ComparisonDetailData | null;
}

export const handle = { title: "Comparisons" };

/** Each site's pages, steps and secrets, under its card (the pages feature, composed here). */
const sitePages = (t: TargetDto, editable: boolean) => <SitePages key={t.id} target={t} editable={editable} />;

export async function loader({ context, request }: LoaderFunctionArgs): Promise<ComparisonPageData> {
  const id = new URL(request.url).searchParams.get("id");
  const one = id ? { id: encodeURIComponent(id) } : null;
  const [comparisons, comparison, targets] = await Promise.all([
    load(context, (api) => api.comparisons.get()),
    one ? load(context, (api) => api.comparisons(one).get()) : null,
    one ? load(context, (api) => api.comparisons(one).targets.get()) : null,
  ]);
  return { comparisons, selected: comparison && targets ? { comparison, targets } : null };
}

/** Selecting a comparison only changes ?id=; the page loads the detail itself, so no full reload. */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search) return false;
  return defaultShouldRevalidate;
}

export function Component() {
  const data = useLoaderData() as ComparisonPageData;
  const [params, setParams] = useSearchParams();
  const selectedId = params.get("id");
  const [comparisons, setComparisons] = useState(data.comparisons);
  const [listFailed, setListFailed] = useState(false);

  useEffect(() => setComparisons(data.comparisons), [data.comparisons]);
  useEffect(() => {
    if (data.comparisons !== null) return;
    listComparisons()
      .then((list) => setComparisons(list))
      .catch(() => setListFailed(true));
  }, [data.comparisons]);

  const select = useCallback((id: string) => setParams({ id }, { preventScrollReset: true }), [setParams]);
  const onCreated = useCallback(
    (c: ComparisonDto) => {
      setComparisons((list) => [c, ...(list ?? []).filter((x) => x.id !== c.id)]);
      select(c.id);
    },
    [select],
  );
  const onDeleted = useCallback(
    (id: string) => {
      setComparisons((list) => list?.filter((x) => x.id !== id) ?? list);
      setParams({}, { preventScrollReset: true });
    },
    [setParams],
  );
  const onChange = useCallback(
    (c: ComparisonDto) => setComparisons((list) => list?.map((x) => (x.id === c.id ? { ...x, ...c } : x)) ?? list),
    [],
  );

  // Pushed statuses for comparisons other than the open one keep the list's badges honest too.
  const live = useComparisonLive((s) => s.byId);
  const shown = useMemo(
    () => comparisons?.map((c) => (live[c.id] ? { ...c, status: live[c.id]!.status } : c)) ?? null,
    [comparisons, live],
  );

  return (
    <Box p={{ initial: "4", md: "6" }}>
      <Flex direction="column" gap="1" mb="5">
        <Heading as="h1" size="7">
          Competitor Comparisons
        </Heading>
        <Text color="gray">Line up rival sites, let the browsers loose, and see who really wins on design.</Text>
      </Flex>
      <Grid columns={{ initial: "1", md: "340px 1fr" }} gap="5" align="start">
        <Flex direction="column" gap="5">
          <CreateComparisonForm onCreated={onCreated} />
          {listFailed && shown === null ? (
            <Callout.Root color="red">
              <Callout.Icon>
                <ExclamationTriangleIcon />
              </Callout.Icon>
              <Callout.Text>Couldn't load your comparisons. Refresh to try again.</Callout.Text>
            </Callout.Root>
          ) : (
            <ComparisonList comparisons={shown} selectedId={selectedId} onSelect={select} />
          )}
        </Flex>
        <Box>
          {selectedId ? (
            <Flex direction="column" gap="5">
              <ComparisonDetail
                key={selectedId}
                id={selectedId}
                initial={data.selected}
                onChange={onChange}
                onDeleted={onDeleted}
                siteExtra={sitePages}
              />
              <WatchSection key={selectedId} comparisonId={selectedId} status={shown?.find((c) => c.id === selectedId)?.status} />
            </Flex>
          ) : (
            <NoComparisonSelected />
          )}
        </Box>
      </Grid>
    </Box>
  );
}
