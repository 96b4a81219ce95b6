// One past run's results exactly as they were stored, composed from the results view's panels
// (read-only: no start button, no live updates).
import { Box, Flex, Grid, Tabs } from "@radix-ui/themes";
import { useMemo } from "react";
import { data as withStatus, type LoaderFunctionArgs, type ShouldRevalidateFunctionArgs, useLoaderData } from "react-router";
import type { ColorScheme, PageRole, Viewport } from "#server/modules/capture/model";
import type { ComparisonDto, TargetDto } from "#server/modules/comparisons/model";
import type { RunDetail } from "#server/modules/history/model";
import { AnalysisSummary } from "#web/features/comparisons/components/results/analysis-summary";
import { ComparisonNotFound } from "#web/features/comparisons/components/results/comparison-not-found";
import { FindingsList } from "#web/features/comparisons/components/results/findings-list";
import { NotEnoughSnapshots } from "#web/features/comparisons/components/results/not-enough-snapshots";
import { PairPicker } from "#web/features/comparisons/components/results/pair-picker";
import { ScreenshotPanel } from "#web/features/comparisons/components/results/screenshot-panel";
import { VariantSwitcher } from "#web/components/variant-switcher";
import { chooseRole, hasDark, rolesPresent, variantSlice } from "#web/features/comparisons/page-variants";
import { choosePair, diffForPair, latestSnapshots, orderTargets, type Pair } from "#web/features/comparisons/results-data";
import { useScrollSync } from "#web/features/comparisons/use-scroll-sync";
import { RunHeader } from "#web/features/watch/components/run-header";
import { load } from "#web/lib/loader-context";
import { ViewportTabList } from "#web/components/viewport-tab-list";
import { isPageRole } from "#web/lib/page-roles";
import { useSearchUpdate } from "#web/lib/use-search-update";

type RunData = { comparison: ComparisonDto; targets: TargetDto[]; detail: RunDetail } | null;

export async function loader({ context, params }: LoaderFunctionArgs) {
  const one = { id: encodeURIComponent(params.id ?? "") };
  const [comparison, targets, detail] = await Promise.all([
    load(context, (api) => api.comparisons(one).get()),
    load(context, (api) => api.comparisons(one).targets.get()),
    load(context, (api) =>
      api
        .comparisons(one)
        .runs({ runId: encodeURIComponent(params.runId ?? "") })
        .get(),
    ),
  ]);
  if (!comparison || !detail) return withStatus<RunData>(null, { status: 404 });
  const found: RunData = { comparison, targets: targets ?? [], detail };
  return found;
}

export const handle = {
  title: (data: RunData | undefined) => (data ? `${data.comparison.name} · Run #${data.detail.run.number}` : "Run Not Found"),
};

export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search) return false;
  return defaultShouldRevalidate;
}

/** A website deleted since the run still has its snapshots: it shows under a stand-in label. */
function withRemovedTargets(targets: TargetDto[], detail: RunDetail): TargetDto[] {
  const known = new Set(targets.map((t) => t.id));
  const gone = [...new Set(detail.snapshots.map((s) => s.targetId))].filter((id) => !known.has(id));
  return [
    ...targets,
    ...gone.map((id, i) => ({
      id,
      comparisonId: detail.run.id,
      label: `Removed website ${i + 1}`,
      url: detail.snapshots.find((s) => s.targetId === id)?.extraction?.finalUrl ?? "",
      status: "completed" as const,
      error: null,
      createdAt: detail.run.startedAt,
    })),
  ];
}

export function Component() {
  const data = useLoaderData() as RunData;
  const { params, update } = useSearchUpdate();
  const viewport: Viewport = params.get("viewport") === "mobile" ? "mobile" : "desktop";
  const targets = useMemo(() => (data ? orderTargets(withRemovedTargets(data.targets, data.detail)) : []), [data]);
  const snapshots = data?.detail.snapshots;
  const roles = useMemo(() => rolesPresent(snapshots ?? []), [snapshots]);
  const dark = useMemo(() => hasDark(snapshots ?? []), [snapshots]);
  const asked = params.get("role");
  const role = chooseRole(roles, isPageRole(asked) ? asked : null);
  const scheme: ColorScheme = dark && params.get("scheme") === "dark" ? "dark" : "light";
  // One role and scheme at a time: pricing with pricing.
  const shown = useMemo(() => (data ? { ...data, detail: variantSlice(data.detail, role, scheme) } : null), [data, role, scheme]);
  if (!data || !shown) return <ComparisonNotFound />;
  const labelOf = (id: string) => targets.find((t) => t.id === id)?.label ?? "Unknown site";
  const body = (vp: Viewport) => (
    <RunBody
      data={shown}
      targets={targets}
      viewport={vp}
      requested={[params.get("a"), params.get("b")]}
      labelOf={labelOf}
      onPairChange={(p) => update({ a: p[0], b: p[1] })}
    />
  );
  return (
    <Box p={{ initial: "4", md: "6" }}>
      <Flex direction="column" gap="4">
        <RunHeader comparison={data.comparison} run={data.detail.run} />
        <VariantSwitcher
          roles={roles}
          role={role}
          onRoleChange={(r: PageRole) => update({ role: r })}
          dark={dark}
          scheme={scheme}
          onSchemeChange={(c: ColorScheme) => update({ scheme: c })}
        />
        <Tabs.Root value={viewport} onValueChange={(v) => update({ viewport: v === "mobile" ? "mobile" : "desktop" })}>
          <ViewportTabList />
          <Tabs.Content value="desktop">{body("desktop")}</Tabs.Content>
          <Tabs.Content value="mobile">{body("mobile")}</Tabs.Content>
        </Tabs.Root>
      </Flex>
    </Box>
  );
}

interface BodyProps {
  data: NonNullable<RunData>;
  targets: TargetDto[];
  viewport: Viewport;
  requested: [string | null, string | null];
  labelOf(id: string): string;
  onPairChange(p: Pair): void;
}

function RunBody({ data, targets, viewport, requested, labelOf, onPairChange }: BodyProps) {
  const { snapshots, diffs, findings: all } = data.detail;
  const shots = useMemo(() => latestSnapshots(snapshots, viewport), [snapshots, viewport]);
  const pair = choosePair(targets, shots, requested);
  const sync = useScrollSync();
  if (shots.size < 2 || !pair)
    return (
      <Box pt="4">
        <NotEnoughSnapshots viewport={viewport} status={data.detail.run.status === "completed" ? "completed" : "failed"} />
      </Box>
    );
  const [a, b] = pair;
  const diff = diffForPair(diffs, viewport, pair);
  const none = new Set<never>();
  return (
    <Flex direction="column" gap="4" pt="4">
      {targets.length > 2 && <PairPicker targets={targets} pair={pair} withShots={new Set(shots.keys())} onChange={onPairChange} />}
      <Grid columns="minmax(0, 1fr) minmax(0, 1fr)" gap="3">
        <ScreenshotPanel
          key={`${a}-${shots.get(a)?.id}`}
          label={labelOf(a)}
          viewport={viewport}
          snapshot={shots.get(a)}
          overlays={none}
          zoom="fit"
          scrollRef={sync.left}
          onScroll={sync.onLeftScroll}
        />
        <ScreenshotPanel
          key={`${b}-${shots.get(b)?.id}`}
          label={labelOf(b)}
          viewport={viewport}
          snapshot={shots.get(b)}
          overlays={none}
          zoom="fit"
          scrollRef={sync.right}
          onScroll={sync.onRightScroll}
        />
      </Grid>
      <Grid columns="repeat(auto-fit, minmax(min(320px, 100%), 1fr))" gap="4" align="start">
        <AnalysisSummary diff={diff} labels={[labelOf(a), labelOf(b)]} />
        <FindingsList findings={all} pair={pair} labelOf={labelOf} viewport={viewport} />
      </Grid>
    </Flex>
  );
}
