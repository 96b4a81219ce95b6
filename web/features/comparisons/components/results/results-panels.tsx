import "./results.css";
import { Box, Flex, Grid, SegmentedControl, Tabs, Text } from "@radix-ui/themes";
import { useMemo, useState } from "react";
import type { ColorScheme, PageRole, Viewport } from "#server/modules/capture/model";
import type { ComparisonStatus, DiffDto, FindingDto, SnapshotDto, TargetDto } from "#server/modules/comparisons/model";
import type { FilmstripDto } from "#server/modules/filmstrip/model";
import { chooseRole, hasDark, roleOf, rolesPresent, rollupMatrix, schemeOf, stepFailureOf, variantSlice } from "../../page-variants";
import { choosePair, diffForPair, latestSnapshots, orderTargets, type Pair } from "../../results-data";
import { useScrollSync } from "../../use-scroll-sync";
import { AnalysisSummary } from "./analysis-summary";
import { CompareStage } from "./compare-stage";
import { Filmstrip } from "./filmstrip";
import { FindingsList } from "./findings-list";
import { NotEnoughSnapshots } from "./not-enough-snapshots";
import type { OverlayKind } from "./overlay-kinds";
import { OverlaySwitches } from "./overlay-switches";
import { PairPicker } from "./pair-picker";
import { ScreenshotPanel } from "./screenshot-panel";
import { SimilarityMatrix } from "./similarity-matrix";
import { VariantSwitcher } from "#web/components/variant-switcher";
import { type CompareMode, MODE_LABELS, MODES, type Zoom, ZOOM_LABELS, ZOOMS } from "./zoom";
import { ROLE_LABELS } from "#web/lib/page-roles";
import { ViewportTabList } from "#web/components/viewport-tab-list";

/** What the panels show: one set of results (the comparison's latest, or one shared run's). */
export interface PanelsData {
  targets: TargetDto[];
  snapshots: SnapshotDto[];
  diffs: DiffDto[];
  findings: FindingDto[];
  /** Load recordings of the latest snapshots; absent when none were fetched. */
  filmstrips?: FilmstripDto[];
}

export interface PanelsProps {
  data: PanelsData;
  /** The comparison's status, for what an empty viewport says. */
  status: ComparisonStatus;
  viewport: Viewport;
  requestedPair: [string | null, string | null];
  /** How a pair is shown and at what size (both live in the URL so a copied address keeps them). */
  mode?: CompareMode;
  zoom?: Zoom;
  onViewportChange(v: Viewport): void;
  onPairChange(p: Pair): void;
  onModeChange?(m: CompareMode): void;
  onZoomChange?(z: Zoom): void;
  /** Which page role and colour scheme are on screen (in the URL when the route keeps them; else own state). */
  role?: PageRole | null;
  scheme?: ColorScheme;
  onRoleChange?(r: PageRole): void;
  onSchemeChange?(s: ColorScheme): void;
}

/**
 * The results themselves, without the comparison's header or actions: viewport tabs, compare mode
 * and zoom, overlays, scores, the pair's screenshots, findings and filmstrips. The owner's results
 * screen and the shared read-only page both show this.
 */
export function ResultsPanels(props: PanelsProps) {
  const { data, status, viewport, requestedPair, onViewportChange, onPairChange } = props;
  // Uncontrolled unless the route keeps them in the URL.
  const [ownMode, setOwnMode] = useState<CompareMode>("side");
  const [ownZoom, setOwnZoom] = useState<Zoom>("fit");
  const mode = props.mode ?? ownMode;
  const zoom = props.zoom ?? ownZoom;
  const onModeChange = props.onModeChange ?? setOwnMode;
  const onZoomChange = props.onZoomChange ?? setOwnZoom;
  const [overlays, setOverlays] = useState<Set<OverlayKind>>(() => new Set());
  const [ownRole, setOwnRole] = useState<PageRole | null>(null);
  const [ownScheme, setOwnScheme] = useState<ColorScheme>("light");
  const roles = useMemo(() => rolesPresent(data.snapshots), [data.snapshots]);
  const dark = useMemo(() => hasDark(data.snapshots), [data.snapshots]);
  const role = chooseRole(roles, props.role !== undefined ? props.role : ownRole);
  const scheme: ColorScheme = dark ? (props.scheme ?? ownScheme) : "light";
  const onRoleChange = props.onRoleChange ?? setOwnRole;
  const onSchemeChange = props.onSchemeChange ?? setOwnScheme;
  // Pricing with pricing: the matrix, the summary, the findings and the overlays see one role and scheme.
  const slice = useMemo(() => variantSlice(data, role, scheme), [data, role, scheme]);
  const targets = useMemo(() => orderTargets(data.targets), [data.targets]);
  const labelOf = (id: string) => targets.find((t) => t.id === id)?.label ?? "Unknown site";

  const body = (vp: Viewport) => (
    <ViewportBody
      data={slice}
      allDiffs={data.diffs}
      role={role}
      scheme={scheme}
      targets={targets}
      viewport={vp}
      status={status}
      requestedPair={requestedPair}
      overlays={overlays}
      mode={mode}
      zoom={zoom}
      labelOf={labelOf}
      onPairChange={onPairChange}
    />
  );

  return (
    <Tabs.Root value={viewport} onValueChange={(v) => onViewportChange(v === "mobile" ? "mobile" : "desktop")}>
      <Box pb="3">
        <VariantSwitcher
          roles={roles}
          role={role}
          onRoleChange={onRoleChange}
          dark={dark}
          scheme={scheme}
          onSchemeChange={onSchemeChange}
        />
      </Box>
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <ViewportTabList />
        <Flex gap="3" align="center" wrap="wrap">
          <SegmentedControl.Root size="1" value={mode} onValueChange={(v) => onModeChange(v as CompareMode)} aria-label="Compare mode">
            {MODES.map((m) => (
              <SegmentedControl.Item key={m} value={m}>
                {MODE_LABELS[m]}
              </SegmentedControl.Item>
            ))}
          </SegmentedControl.Root>
          <SegmentedControl.Root size="1" value={zoom} onValueChange={(v) => onZoomChange(v as Zoom)} aria-label="Zoom">
            {ZOOMS.map((z) => (
              <SegmentedControl.Item key={z} value={z}>
                {ZOOM_LABELS[z]}
              </SegmentedControl.Item>
            ))}
          </SegmentedControl.Root>
        </Flex>
      </Flex>
      <Flex pt="3" align="center" gap="3" wrap="wrap">
        <OverlaySwitches value={overlays} onChange={setOverlays} />
        {mode !== "side" && overlays.size > 0 && (
          <Text size="1" color="gray">
            Overlays show in side-by-side mode.
          </Text>
        )}
      </Flex>
      <Tabs.Content value="desktop">{body("desktop")}</Tabs.Content>
      <Tabs.Content value="mobile">{body("mobile")}</Tabs.Content>
    </Tabs.Root>
  );
}

interface BodyProps {
  /** One role and scheme's data. */
  data: PanelsData;
  /** Every role's scores, for the site roll-up. */
  allDiffs: DiffDto[];
  role: PageRole;
  scheme: ColorScheme;
  targets: TargetDto[];
  viewport: Viewport;
  status: ComparisonStatus;
  requestedPair: [string | null, string | null];
  overlays: Set<OverlayKind>;
  mode: CompareMode;
  zoom: Zoom;
  labelOf(id: string): string;
  onPairChange(p: Pair): void;
}

function ViewportBody(props: BodyProps) {
  const { data, allDiffs, role, scheme, targets, viewport, status, requestedPair, overlays, mode, zoom, labelOf, onPairChange } = props;
  const shots = useMemo(() => latestSnapshots(data.snapshots, viewport), [data.snapshots, viewport]);
  const pair = choosePair(targets, shots, requestedPair);
  const sync = useScrollSync();

  if (shots.size < 2 || !pair)
    return (
      <Box pt="4">
        <NotEnoughSnapshots viewport={viewport} status={status} />
        {role !== "home" && (
          <Text as="p" size="2" color="gray" mt="2">
            Fewer than two sites have a {ROLE_LABELS[role].toLowerCase()} page in this view.
          </Text>
        )}
      </Box>
    );

  const diff = diffForPair(data.diffs, viewport, pair);
  const [a, b] = pair;
  const shotA = shots.get(a);
  const shotB = shots.get(b);
  const filmstrips = data.filmstrips;
  // A page whose steps stopped has a screenshot of where, and nothing measured: side by side only.
  const measured = (id: string) => !!shots.get(id) && !stepFailureOf(shots.get(id)!);
  const rollupRoles = new Set(allDiffs.filter((d) => d.viewport === viewport && schemeOf(d) === scheme).map(roleOf));
  return (
    <Flex direction="column" gap="4" pt="4">
      {(targets.length > 2 || data.diffs.length > 0) && (
        <Grid columns={{ initial: "1", md: targets.length > 2 ? "minmax(0, auto) minmax(0, 1fr)" : "1" }} gap="4" align="start">
          {targets.length > 2 && (
            <SimilarityMatrix targets={targets} diffs={data.diffs} viewport={viewport} pair={pair} onPairChange={onPairChange} />
          )}
          {/* The pair's scores sit right above its two captures. */}
          {data.diffs.length > 0 && <AnalysisSummary diff={diff} labels={[labelOf(a), labelOf(b)]} />}
        </Grid>
      )}
      {rollupRoles.size > 1 && (
        <SimilarityMatrix
          targets={targets}
          diffs={allDiffs}
          viewport={viewport}
          pair={pair}
          onPairChange={onPairChange}
          scores={{
            rows: rollupMatrix(targets, allDiffs, viewport, scheme).map((cells) =>
              cells.map((c) => c && { pair: c.pair, score: c.score, note: `mean of ${c.roles.map((r) => ROLE_LABELS[r]).join(", ")}` }),
            ),
            title: "Site roll-up",
            caption: `Mean overall similarity of each pair of sites over the page roles both have, ${viewport}${scheme === "dark" ? ", dark" : ""}.`,
            testId: "site-rollup",
          }}
        />
      )}
      {targets.length > 2 && <PairPicker targets={targets} pair={pair} withShots={new Set(shots.keys())} onChange={onPairChange} />}
      {mode !== "side" && shotA && shotB && measured(a) && measured(b) ? (
        <CompareStage
          mode={mode}
          zoom={zoom}
          viewport={viewport}
          left={{ label: labelOf(a), snapshot: shotA }}
          right={{ label: labelOf(b), snapshot: shotB }}
        />
      ) : (
        <Grid columns="minmax(0, 1fr) minmax(0, 1fr)" gap="3">
          <ScreenshotPanel
            key={`${a}-${shotA?.id}`}
            label={labelOf(a)}
            viewport={viewport}
            snapshot={shotA}
            overlays={overlays}
            zoom={zoom}
            scrollRef={sync.left}
            onScroll={sync.onLeftScroll}
          />
          <ScreenshotPanel
            key={`${b}-${shotB?.id}`}
            label={labelOf(b)}
            viewport={viewport}
            snapshot={shotB}
            overlays={overlays}
            zoom={zoom}
            scrollRef={sync.right}
            onScroll={sync.onRightScroll}
          />
        </Grid>
      )}
      <FindingsList findings={data.findings} pair={pair} labelOf={labelOf} viewport={viewport} />
      {filmstrips && (
        <Filmstrip
          viewport={viewport}
          sites={targets
            .filter((t) => measured(t.id))
            .map((t) => ({
              targetId: t.id,
              label: t.label,
              snapshot: shots.get(t.id),
              filmstrip: filmstrips.find((f) => f.snapshotId === shots.get(t.id)?.id),
            }))}
        />
      )}
    </Flex>
  );
}
