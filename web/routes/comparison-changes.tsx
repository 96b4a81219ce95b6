import { Box } from "@radix-ui/themes";
import { useCallback, useMemo } from "react";
import {
  data as withStatus,
  type LoaderFunctionArgs,
  type ShouldRevalidateFunctionArgs,
  useLoaderData,
  useSearchParams,
} from "react-router";
import { ComparisonNotFound } from "#web/features/comparisons/components/results/comparison-not-found";
import { KINDS, parseList, SEVERITIES } from "#web/features/watch/changes-data";
import { type ChangesPageData, ChangesPage, type ChangesView } from "#web/features/watch/components/changes-page";
import type { ColorScheme, PageRole } from "#server/modules/capture/model";
import { errorMessage } from "#web/lib/api";
import { isPageRole } from "#web/lib/page-roles";
import { load } from "#web/lib/loader-context";

type Data = ChangesPageData | null;

/** The page (a role; home by default) and colour scheme (light by default) in the URL. */
function variantOf(search: URLSearchParams): { role: PageRole; scheme: ColorScheme } {
  const page = search.get("page");
  return { role: isPageRole(page) ? page : "home", scheme: search.get("scheme") === "dark" ? "dark" : "light" };
}

export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const one = { id: encodeURIComponent(params.id ?? "") };
  const search = new URL(request.url).searchParams;
  const { role, scheme } = variantOf(search);
  const range = { from: search.get("from") || undefined, to: search.get("to") || undefined, page: role, colorScheme: scheme };
  const [comparison, targets, runs, found] = await Promise.all([
    load(context, (api) => api.comparisons(one).get()),
    load(context, (api) => api.comparisons(one).targets.get()),
    load(context, (api) => api.comparisons(one).runs.get()),
    // A run id that is not completed (or not earlier) is the URL's fault: say so on the page.
    load(context, (api) => api.comparisons(one).changes.get({ query: range })).then(
      (changes) => ({ changes, error: null }),
      (e: unknown) => ({ changes: null, error: errorMessage(e, "Could not work out the changes between these runs.") }),
    ),
  ]);
  if (!comparison) return withStatus<Data>(null, { status: 404 });
  const { changes, error } = found;
  const [before, after] = changes
    ? await Promise.all([
        load(context, (api) =>
          api
            .comparisons(one)
            .runs({ runId: encodeURIComponent(changes.from) })
            .get(),
        ),
        load(context, (api) =>
          api
            .comparisons(one)
            .runs({ runId: encodeURIComponent(changes.to) })
            .get(),
        ),
      ])
    : [null, null];
  const page: Data = {
    comparison: { id: comparison.id, name: comparison.name },
    targets: (targets ?? []).map((t) => ({ id: t.id, label: t.label, url: t.url })),
    runs: runs ?? [],
    changes,
    error,
    before: before?.snapshots ?? [],
    after: after?.snapshots ?? [],
  };
  return page;
}

export const handle = {
  title: (data: Data | undefined) => (data ? `${data.comparison.name} · Changes` : "Comparison Not Found"),
};

/** Filters, the website and the viewport live in the URL without refetching; other runs, pages or schemes do refetch. */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const same = (k: string) => currentUrl.searchParams.get(k) === nextUrl.searchParams.get(k);
  if (currentUrl.pathname === nextUrl.pathname && same("from") && same("to") && same("page") && same("scheme")) return false;
  return defaultShouldRevalidate;
}

export function Component() {
  const data = useLoaderData() as Data;
  const [params, setParams] = useSearchParams();
  const kindsRaw = params.get("kind");
  const severitiesRaw = params.get("severity");
  const view: ChangesView = useMemo(
    () => ({
      kinds: parseList(kindsRaw, KINDS),
      severities: parseList(severitiesRaw, SEVERITIES),
      targetId: params.get("target"),
      viewport: params.get("viewport") === "mobile" ? "mobile" : "desktop",
      ...variantOf(params),
    }),
    [kindsRaw, severitiesRaw, params],
  );
  const onViewChange = useCallback(
    (next: Partial<ChangesView>) =>
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          const put = (k: string, v: string | null) => (v ? p.set(k, v) : p.delete(k));
          if (next.kinds) put("kind", [...next.kinds].join(","));
          if (next.severities) put("severity", [...next.severities].join(","));
          if (next.targetId !== undefined) put("target", next.targetId);
          if (next.viewport) put("viewport", next.viewport === "mobile" ? "mobile" : null);
          if (next.role) put("page", next.role === "home" ? null : next.role);
          if (next.scheme) put("scheme", next.scheme === "dark" ? "dark" : null);
          return p;
        },
        { replace: true, preventScrollReset: true },
      ),
    [setParams],
  );
  if (!data) return <ComparisonNotFound />;
  return (
    <Box p={{ initial: "4", md: "6" }}>
      <ChangesPage data={data} view={view} onViewChange={onViewChange} />
    </Box>
  );
}
