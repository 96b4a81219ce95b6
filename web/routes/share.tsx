// What a share link opens: one run's results, read-only, without the app shell and without a way
// to anything else. Unknown, revoked and expired links get the app's not-found page.
import { Box, Flex } from "@radix-ui/themes";
import { useMemo } from "react";
import { data as withStatus, type LoaderFunctionArgs, type ShouldRevalidateFunctionArgs, useLoaderData } from "react-router";
import type { TargetDto } from "#server/modules/comparisons/model";
import type { SharedResults } from "#server/modules/share/model";
import { ResultsPanels } from "#web/features/comparisons/components/results/results-panels";
import { useResultsUrl } from "#web/features/comparisons/use-results-url";
import { LogoMark } from "#web/features/marketing/components/logo";
import { SharedBar, SharedTitle } from "#web/features/share/components/shared-header";
import { loadPublic } from "#web/lib/loader-context";
import { Component as NotFound } from "./not-found";

type ShareData = { results: SharedResults } | null;

export async function loader({ context, params }: LoaderFunctionArgs) {
  const token = encodeURIComponent(params.token ?? "");
  const results = await loadPublic(context, (api) => api.share({ token }).get());
  if (!results) return withStatus<ShareData>(null, { status: 404 });
  const found: ShareData = { results };
  return found;
}

export const handle = {
  title: (data: ShareData | undefined) => (data ? `${data.results.comparison.name} · Shared results` : "404 Page Not Found"),
  // The server sends these with the document (src/ssr/render.tsx), found or not, as the API does.
  robots: "noindex, nofollow",
  headers: { "x-robots-tag": "noindex, nofollow", "referrer-policy": "no-referrer", "cache-control": "private, no-store" },
};

/**
 * The results depend on the token alone; the viewport, pair and view mode live in the URL. Nothing
 * on the page reloads them, so each view of the link is counted once.
 */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
}

/** The results panels read websites as the comparison's own; the shared ones carry what they show. */
const asTargets = (results: SharedResults): TargetDto[] =>
  results.targets.map((t) => ({ ...t, comparisonId: "", status: "completed", error: null }));

export function Component() {
  const data = useLoaderData() as ShareData;
  const view = useResultsUrl();
  const panels = useMemo(() => (data ? { ...data.results, targets: asTargets(data.results) } : null), [data]);

  if (!data || !panels) return <NotFound />;
  return (
    <>
      <SharedBar expiresAt={data.results.expiresAt} brand={<LogoMark size={26} />} />
      <Box asChild p={{ initial: "3", md: "6" }}>
        <main id="main-content">
          <Flex direction="column" gap="4">
            <SharedTitle comparison={data.results.comparison} run={data.results.run} />
            <ResultsPanels data={panels} status="completed" {...view} />
          </Flex>
        </main>
      </Box>
    </>
  );
}
