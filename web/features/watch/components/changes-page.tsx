import { ArrowLeftIcon, ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { Box, Button, Callout, Card, Flex, Grid, Heading, Link as RLink, SegmentedControl, Select, Text } from "@radix-ui/themes";
import { useId, useMemo } from "react";
import { Link } from "react-router";
import type { ColorScheme, PageRole } from "#server/modules/capture/model";
import { VariantSwitcher } from "#web/components/variant-switcher";
import { PAGE_ROLES } from "#web/lib/page-roles";
import type { ChangeKind, ChangesResponse, RunDetail, RunDto, Severity, Viewport } from "../api";
import { countChanges, filterChanges, frameOf } from "../changes-data";
import { BeforeAfterSlider } from "./before-after-slider";
import { ChangeFilters } from "./change-filters";
import { ChangeItem } from "./change-item";
import { HeatMap } from "./heat-map";
import { changesPath } from "./run-timeline";

type Snapshot = RunDetail["snapshots"][number];

export interface ChangesPageData {
  comparison: { id: string; name: string };
  targets: { id: string; label: string; url: string }[];
  runs: RunDto[];
  changes: ChangesResponse | null;
  /** Why there are no changes to show (a run that did not complete, fewer than two runs). */
  error: string | null;
  before: Snapshot[];
  after: Snapshot[];
}

export interface ChangesView {
  kinds: ReadonlySet<ChangeKind>;
  severities: ReadonlySet<Severity>;
  targetId: string | null;
  viewport: Viewport;
  /** Which page of each site (its role) and which colour scheme the changes are of; both are fetched. */
  role: PageRole;
  scheme: ColorScheme;
}

interface Props {
  data: ChangesPageData;
  view: ChangesView;
  onViewChange(next: Partial<ChangesView>): void;
}

const VIEWPORT_WIDTH = { desktop: 1440, mobile: 390 } as const;

export function ChangesPage({ data, view, onViewChange }: Props) {
  const ids = useId();
  const { comparison, changes, runs } = data;
  const runById = useMemo(() => new Map(runs.map((r) => [r.id, r])), [runs]);
  const fromRun = changes ? runById.get(changes.from) : undefined;
  const toRun = changes ? runById.get(changes.to) : undefined;
  const completed = runs.filter((r) => r.status === "completed");
  const targetId = view.targetId && changes?.targets.some((t) => t.targetId === view.targetId) ? view.targetId : null;
  const counts = useMemo(() => countChanges(changes?.targets ?? [], targetId), [changes, targetId]);
  const shown = useMemo(
    () => filterChanges(changes?.targets ?? [], { kinds: view.kinds, severities: view.severities, targetId }),
    [changes, view.kinds, view.severities, targetId],
  );
  const snap = (list: Snapshot[], target: string, vp: Viewport) =>
    list.find(
      (s) => s.targetId === target && s.viewport === vp && (s.role ?? "home") === view.role && (s.colorScheme ?? "light") === view.scheme,
    );
  // The pages and schemes the later run captured: what there is to choose from.
  const roles = PAGE_ROLES.filter((r) => data.after.some((s) => (s.role ?? "home") === r));
  const dark = data.after.some((s) => s.colorScheme === "dark");
  const backPath = `/comparison?id=${encodeURIComponent(comparison.id)}`;
  const historyPath = `/comparison/${encodeURIComponent(comparison.id)}/history`;
  const runName = (r: RunDto | undefined) => (r ? `Run #${r.number}` : "a pruned run");

  const pick = (side: "from" | "to", runId: string) => {
    const next = { from: changes?.from, to: changes?.to, [side]: runId };
    return changesPath(comparison.id, {
      ...next,
      target: targetId ?? undefined,
      page: view.role === "home" ? undefined : view.role,
      scheme: view.scheme === "light" ? undefined : view.scheme,
    });
  };

  const selected = targetId ? changes?.targets.find((t) => t.targetId === targetId) : undefined;
  const beforeShot = selected && snap(data.before, selected.targetId, view.viewport);
  const afterShot = selected && snap(data.after, selected.targetId, view.viewport);

  return (
    <Flex direction="column" gap="4">
      <Flex direction="column" gap="2">
        <Flex gap="3" wrap="wrap">
          <RLink asChild size="2">
            <Link to={backPath}>
              <ArrowLeftIcon aria-hidden /> {comparison.name}
            </Link>
          </RLink>
          <RLink asChild size="2">
            <Link to={historyPath}>All runs</Link>
          </RLink>
        </Flex>
        <Heading as="h1" size="7">
          Changes
        </Heading>
        <Text color="gray">
          {changes ? (
            <>
              What changed on each website from {runName(fromRun)} to {runName(toRun)}.
            </>
          ) : (
            comparison.name
          )}
        </Text>
      </Flex>

      {!changes ? (
        <Callout.Root color={data.error ? "red" : "gray"}>
          <Callout.Icon>
            <ExclamationTriangleIcon />
          </Callout.Icon>
          <Callout.Text>
            {data.error ?? "Changes need two completed runs of this comparison. Run it again (or set a schedule) and come back."}
          </Callout.Text>
        </Callout.Root>
      ) : (
        <>
          <Card size="2">
            <Flex direction="column" gap="3">
              <Grid columns={{ initial: "1", sm: "3" }} gap="3">
                <RunPicker
                  label="From"
                  id={`${ids}-from`}
                  value={changes.from}
                  runs={completed.filter((r) => r.number < (toRun?.number ?? Infinity))}
                  to={(id) => pick("from", id)}
                />
                <RunPicker
                  label="To"
                  id={`${ids}-to`}
                  value={changes.to}
                  runs={completed.filter((r) => r.number > (fromRun?.number ?? -Infinity))}
                  to={(id) => pick("to", id)}
                />
                <div>
                  <Text as="div" size="2" weight="medium" mb="1" id={`${ids}-site`}>
                    Website
                  </Text>
                  <Select.Root value={targetId ?? "all"} onValueChange={(v) => onViewChange({ targetId: v === "all" ? null : v })}>
                    <Select.Trigger aria-labelledby={`${ids}-site`} style={{ width: "100%" }} />
                    <Select.Content position="popper">
                      <Select.Item value="all">All websites</Select.Item>
                      {changes.targets.map((t) => (
                        <Select.Item key={t.targetId} value={t.targetId}>
                          {t.label} ({t.changes.length})
                        </Select.Item>
                      ))}
                    </Select.Content>
                  </Select.Root>
                </div>
              </Grid>
              <VariantSwitcher
                roles={roles}
                role={view.role}
                onRoleChange={(role) => onViewChange({ role })}
                dark={dark}
                scheme={view.scheme}
                onSchemeChange={(scheme) => onViewChange({ scheme })}
              />
              <ChangeFilters
                kinds={view.kinds}
                severities={view.severities}
                byKind={counts.byKind}
                bySeverity={counts.bySeverity}
                onChange={(f) => onViewChange(f)}
              />
            </Flex>
          </Card>

          {selected && (
            <Card size="2" data-testid="pixel-compare">
              <Flex justify="between" align="center" gap="3" wrap="wrap" mb="3">
                <Heading as="h2" size="4">
                  {selected.label}: before and after
                </Heading>
                <SegmentedControl.Root
                  value={view.viewport}
                  onValueChange={(v) => onViewChange({ viewport: v as Viewport })}
                  aria-label="Viewport"
                >
                  <SegmentedControl.Item value="desktop">Desktop</SegmentedControl.Item>
                  <SegmentedControl.Item value="mobile">Mobile</SegmentedControl.Item>
                </SegmentedControl.Root>
              </Flex>
              {beforeShot && afterShot ? (
                <Grid columns={{ initial: "1", md: "2" }} gap="4">
                  <BeforeAfterSlider
                    before={{ src: beforeShot.screenshotUrl, label: `Before (${runName(fromRun)})` }}
                    after={{ src: afterShot.screenshotUrl, label: `After (${runName(toRun)})` }}
                    aspect={Math.max(
                      ...[beforeShot, afterShot].map((s) => {
                        const f = frameOf(s, VIEWPORT_WIDTH[view.viewport]);
                        return f.cssHeight / f.cssWidth;
                      }),
                    )}
                  />
                  <HeatMap
                    comparisonId={comparison.id}
                    targetId={selected.targetId}
                    viewport={view.viewport}
                    page={view.role}
                    colorScheme={view.scheme}
                    from={changes.from}
                    to={changes.to}
                    alt={`Pixel heat map of ${selected.label} (${view.viewport}) from ${runName(fromRun)} to ${runName(toRun)}`}
                  />
                </Grid>
              ) : (
                <Text size="2" color="gray">
                  This website was not captured at {view.viewport} in both runs.
                </Text>
              )}
            </Card>
          )}

          {shown.map((t) => (
            <section key={t.targetId} aria-labelledby={`${ids}-${t.targetId}`}>
              <Flex justify="between" align="center" gap="3" wrap="wrap" mb="2">
                <Flex direction="column" style={{ minWidth: 0 }}>
                  <Heading as="h2" size="4" id={`${ids}-${t.targetId}`}>
                    {t.label}
                  </Heading>
                  <Text size="1" color="gray" truncate title={t.url}>
                    {t.url}
                  </Text>
                </Flex>
                {!targetId && (
                  <Button
                    size="1"
                    variant="soft"
                    onClick={() => onViewChange({ targetId: t.targetId })}
                    aria-label={`Compare ${t.label} before and after`}
                  >
                    Before / after
                  </Button>
                )}
              </Flex>
              {t.changes.length === 0 ? (
                <Box p="3" style={{ border: "1px dashed var(--gray-a6)", borderRadius: "var(--radius-3)" }}>
                  <Text size="2" color="gray">
                    {changes.targets.find((x) => x.targetId === t.targetId)?.changes.length
                      ? "No changes match the filters."
                      : "No changes."}
                  </Text>
                </Box>
              ) : (
                <Flex direction="column" gap="3" asChild>
                  <ul aria-label={`Changes on ${t.label}`} style={{ listStyle: "none", margin: 0, padding: 0 }}>
                    {t.changes.map((c, i) => (
                      <li key={i}>
                        <ChangeItem
                          change={c}
                          before={snap(data.before, t.targetId, c.viewport)}
                          after={snap(data.after, t.targetId, c.viewport)}
                        />
                      </li>
                    ))}
                  </ul>
                </Flex>
              )}
            </section>
          ))}
        </>
      )}
    </Flex>
  );
}

function RunPicker({
  label,
  id,
  value,
  runs,
  to,
}: {
  label: string;
  id: string;
  value: string;
  runs: RunDto[];
  to(runId: string): string;
}) {
  // Links, not state: each pair of runs is its own address (shareable, back button works).
  return (
    <nav aria-labelledby={id}>
      <Text as="div" size="2" weight="medium" mb="1" id={id}>
        {label}
      </Text>
      <Flex gap="1" wrap="wrap">
        {runs.slice(0, 8).map((r) => (
          <Button key={r.id} size="1" variant={r.id === value ? "solid" : "soft"} color={r.id === value ? undefined : "gray"} asChild>
            <Link to={to(r.id)} aria-current={r.id === value ? "page" : undefined} preventScrollReset>
              #{r.number}
            </Link>
          </Button>
        ))}
      </Flex>
    </nav>
  );
}
