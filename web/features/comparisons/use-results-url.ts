import { useCallback } from "react";
import type { ColorScheme, PageRole, Viewport } from "#server/modules/capture/model";
import { isPageRole } from "#web/lib/page-roles";
import { useSearchUpdate } from "#web/lib/use-search-update";
import type { PanelsProps } from "./components/results/results-panels";
import { type CompareMode, isMode, isZoom, type Zoom } from "./components/results/zoom";
import type { Pair } from "./results-data";

type ViewState = Pick<
  PanelsProps,
  | "viewport"
  | "requestedPair"
  | "mode"
  | "zoom"
  | "role"
  | "scheme"
  | "onViewportChange"
  | "onPairChange"
  | "onModeChange"
  | "onZoomChange"
  | "onRoleChange"
  | "onSchemeChange"
>;

/**
 * What the results show and how, kept in the URL (viewport, pair, compare mode, zoom, page role, colour scheme) so a copied
 * address opens the same view: the props a results page hands the panels.
 */
export function useResultsUrl(): ViewState {
  const { params, update } = useSearchUpdate();
  const onViewportChange = useCallback((v: Viewport) => update({ viewport: v }), [update]);
  const onPairChange = useCallback((p: Pair) => update({ a: p[0], b: p[1] }), [update]);
  const onModeChange = useCallback((m: CompareMode) => update({ mode: m }), [update]);
  const onZoomChange = useCallback((z: Zoom) => update({ zoom: z }), [update]);
  const onRoleChange = useCallback((r: PageRole) => update({ role: r }), [update]);
  const onSchemeChange = useCallback((c: ColorScheme) => update({ scheme: c }), [update]);
  const mode = params.get("mode");
  const role = params.get("role");
  const zoom = params.get("zoom");
  return {
    viewport: params.get("viewport") === "mobile" ? "mobile" : "desktop",
    requestedPair: [params.get("a"), params.get("b")],
    mode: isMode(mode) ? mode : "side",
    zoom: isZoom(zoom) ? zoom : "fit",
    role: isPageRole(role) ? role : null,
    scheme: params.get("scheme") === "dark" ? "dark" : "light",
    onViewportChange,
    onPairChange,
    onModeChange,
    onZoomChange,
    onRoleChange,
    onSchemeChange,
  };
}
